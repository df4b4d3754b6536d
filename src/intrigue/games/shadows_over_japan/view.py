"""The per-seat view of a Shadows over Japan state: the single place where secrets are
redacted (RULINGS §4.2).

Public: the board (owners, developments, samurai styles once revealed, armies, occupying
forces, ninja owners and the styles of revealed ninjas), gold, turn markers, hand sizes, the
Intelligence each player holds, the discard pile, the Honour cards. Secret: each seat's Noble
(until the end), its hand, the styles of its concealed ninjas and of its pool.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import (
    CAPITAL_OF,
    CARD_IDS,
    HOME,
    HONOUR_KEYS,
    IS_CAPITAL,
    KEYS,
    MISSION,
    MISSION_TYPES,
    NAMES,
    NOBLE_NAMES,
    NOBLES,
    STYLES,
)

if TYPE_CHECKING:
    from .rules import JapanState

NP = len(KEYS)


def _noble(n: int) -> str | None:
    return None if n < 0 else NOBLES[n]


def province_view(state: JapanState, p: int, seat: int | None) -> dict[str, Any]:
    owner = state.nin[p]
    ninja = None
    if owner >= 0:
        shown = state.nrev[p] or owner == seat
        ninja = {
            "seat": owner,
            "revealed": state.nrev[p],
            "style": STYLES[state.nsty[p]] if shown else None,
            "infiltrating": state.infil[p],
        }
    sam = state.sam[p]
    hidden_samurai = state.phase == "setup"  # face down until every ninja is placed
    return {
        "key": KEYS[p],
        "owner": NOBLES[state.owner[p]],
        "developments": state.dev[p],
        "samurai": None if sam < 0 else ("hidden" if hidden_samurai else STYLES[sam]),
        "army": _noble(state.army[p]),
        "army_moved": state.moved[p] if state.army[p] >= 0 else False,
        "occupier": _noble(state.occ[p]),
        "ninja": ninja,
    }


def card_view(state: JapanState, c: int) -> dict[str, Any]:
    return {
        "key": KEYS[c],
        "card": CARD_IDS[c],
        "name": NAMES[c],
        "noble": NOBLES[HOME[c]],
        "capital": IS_CAPITAL[c],
        "mission": MISSION_TYPES[MISSION[c]],
        "against": NOBLES[state.mission_target(c)],
    }


def _nobles_view(state: JapanState) -> list[dict[str, Any]]:
    # One pass over the map for every Noble's tallies (the state's economy(), samurai(),
    # conquered() and lost() each walk the map once per Noble): views are built on every move.
    economy, samurai, provinces, conquered, lost = ([0] * 4 for _ in range(5))
    owner, dev, sam = state.owner, state.dev, state.sam
    for p in range(NP):
        n = owner[p]
        economy[n] += dev[p]
        provinces[n] += 1
        if sam[p] >= 0:
            samurai[n] += 1
        home = HOME[p]
        if home != n:
            conquered[n] += 1
            lost[home] += 1
    return [
        {
            "key": NOBLES[n],
            "name": NOBLE_NAMES[n],
            "capital": KEYS[CAPITAL_OF[n]],
            "economy": economy[n],
            "military": 2 * state.armies(n) + samurai[n],
            "armies": state.armies(n),
            "samurai": samurai[n],
            "provinces": provinces[n],
            "conquered": conquered[n],
            "lost": lost[n],
            "intelligence_at_capital": state.intel_cap[n],
            "honours": state.honours_won[n],
            "development_supply": state.dev_supply[n],
            "army_supply": state.army_supply[n],
        }
        for n in range(4)
    ]


def _players_view(state: JapanState, seat: int | None) -> list[dict[str, Any]]:
    over = state.phase == "over"
    rows = []
    for s in range(state.players):
        known = over or s == seat
        rows.append(
            {
                "seat": s,
                "marker": state.markers[s],
                "gold": state.gold[s],
                "hand_size": len(state.hand[s]),
                "intelligence": list(state.intel_hand[s]),
                "ninjas": len(state.ninjas[s]),
                "pool": sum(state.pool[s]),  # ninjas off the board (6 less those on it)
                "ruled_out": [NOBLES[n] for n in range(4) if state.not_noble[s] >> n & 1],
                "noble": NOBLES[state.nobles[s]] if known else None,
            }
        )
    return rows


def _private_view(state: JapanState, seat: int) -> dict[str, Any]:
    counts = state.pool[seat]
    return {
        "noble": NOBLES[state.nobles[seat]],
        "hand": [card_view(state, c) for c in state.hand[seat]],
        "intelligence": list(state.intel_hand[seat]),
        "pool": {STYLES[s]: counts[s] for s in range(3)},
        "claimable": [KEYS[c] for c in state.claimable] if seat == state.current else [],
    }


def build_view(state: JapanState, seat: int | None) -> dict[str, Any]:
    over = state.phase == "over"
    return {
        "phase": state.phase,
        "round": state.round + (0 if over else 1),
        "season": state.season,
        "year": state.year,
        "max_turns": state.options["max_turns"],
        "current": None if over else state.current,
        "order": list(state.order),
        "actions_left": state.actions_left,
        "prompt": state.prompt(seat),
        "setup_provinces": [[KEYS[p] for p in cards] for cards in state.setup_cards],
        # Only provinces holding something or held by a conqueror: any other province is empty
        # and owned by its home Noble (static data: data/map.json).
        "provinces": [
            province_view(state, p, seat)
            for p in range(NP)
            if state.dev[p]
            or state.sam[p] >= 0
            or state.army[p] >= 0
            or state.occ[p] >= 0
            or state.nin[p] >= 0
            or state.owner[p] != HOME[p]
        ],
        "nobles": _nobles_view(state),
        "players": _players_view(state, seat),
        "honours": {
            "face_up": None if state.honour_up < 0 else HONOUR_KEYS[state.honour_up],
            "deck_size": len(state.honour_deck),
            "awarded": [
                {"honour": HONOUR_KEYS[h], "noble": _noble(n)} for h, n in state.honour_log
            ],
        },
        "deck_size": len(state.deck),
        "discard": [KEYS[c] for c in state.discard],
        # Face-down set-up samurai would show through the supply: hidden until revealed.
        "samurai_supply": None
        if state.phase == "setup"
        else {STYLES[s]: state.sam_supply[s] for s in range(3)},
        "gold_supply": state.gold_supply,
        "options": {
            "interaction_cost": state.options["interaction_cost"],
            "missions": state.options["missions"],
            "neutral": state.options["neutral"],
        },
        "unbacked": [NOBLES[n] for n in range(4) if n not in state.nobles]
        if state.open_neutral or over
        else None,
        "you": None if seat is None else _private_view(state, seat),
        "final": state.final,
    }
