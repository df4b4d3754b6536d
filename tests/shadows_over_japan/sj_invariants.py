"""Bookkeeping invariants of a Shadows over Japan state (used by several test modules)."""

from __future__ import annotations

from collections import Counter

from intrigue.games.shadows_over_japan.data import COMPONENTS, HOME, KEYS
from intrigue.games.shadows_over_japan.rules import JapanState

NP = len(KEYS)


def check_invariants(state: JapanState) -> None:
    """Every token, card and coin is somewhere exactly once; the table's style groups hold."""
    players = state.players
    # ninjas: the per-seat lists match the board, 6 tokens per seat, 2 of each style
    for seat in range(players):
        on_board = sorted(p for p in range(NP) if state.nin[p] == seat)
        assert sorted(state.ninjas[seat]) == on_board
        styles = Counter(state.nsty[p] for p in on_board)
        for style in range(3):
            styles[style] += state.pool[seat][style]
        if state.phase != "setup":
            assert styles == Counter({0: 2, 1: 2, 2: 2}), (seat, styles)
    # infiltration needs a ninja and an army
    for p in range(NP):
        if state.infil[p]:
            assert state.nin[p] >= 0 and state.army[p] >= 0
    # samurai: 8 of each style
    on_board = Counter(s for s in state.sam if s >= 0)
    for style in range(3):
        assert on_board[style] + state.sam_supply[style] == COMPONENTS["samurai_per_style"]
    # armies and developments per noble
    for n in range(4):
        armies = state.army.count(n) + state.occ.count(n)
        assert armies + state.army_supply[n] == COMPONENTS["armies_per_noble"]
        devs = sum(state.dev[p] for p in range(NP) if state.owner[p] == n)
        assert devs + state.dev_supply[n] == COMPONENTS["developments_per_noble"]
        assert all(state.owner[p] == state.occ[p] for p in range(NP) if state.occ[p] >= 0)
    # gold
    assert sum(state.gold) + state.gold_supply == COMPONENTS["gold"]
    # territory cards: 72, each in exactly one place
    cards = list(state.deck) + list(state.discard)
    for seat in range(players):
        cards += state.hand[seat]
        assert len(state.hand[seat]) <= COMPONENTS["hand_limit"] or state.phase == "discard"
    if state.phase == "setup":
        for seat in range(players):
            cards += state.setup_cards[seat]
    assert sorted(cards) == list(range(NP))
    # intelligence: 3 per noble
    held = Counter(card.split("-")[1].lower() for h in state.intel_hand for card in h)
    for n, key in enumerate(("oda", "takeda", "tokugawa", "date")):
        assert state.intel_cap[n] + held[key] == COMPONENTS["intelligence_per_capital"]
    assert all(HOME[p] >= 0 for p in range(NP))
