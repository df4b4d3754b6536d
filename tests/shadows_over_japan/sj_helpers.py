"""Scenario helpers: exact situations built from a real game.

A scenario game is a real game (fixed Nobles and turn markers, set-up played through the
normal `style` actions) whose board is then cleared and re-laid by hand, keeping every supply
consistent so the bookkeeping invariants still hold.
"""

from __future__ import annotations

import random
from typing import Any

import intrigue
from intrigue.engine import Action
from intrigue.games.shadows_over_japan.data import HOME, INDEX, KEYS, NOBLE_INDEX, STYLE_INDEX
from intrigue.games.shadows_over_japan.rules import T_DRAW, JapanState

NP = len(KEYS)
GAME = intrigue.load("shadows-over-japan")
DEFAULT_NOBLES = ["oda", "takeda", "tokugawa", "date"]


def new_game(players: int = 4, seed: int = 7, **options: Any) -> JapanState:
    """A game right after set-up (every seat placed stone, scissor, paper in that order)."""
    options.setdefault("nobles", DEFAULT_NOBLES[:players])
    options.setdefault("markers", [str(m) for m in range(1, players + 1)])
    state = GAME.new(players=players, seed=seed, **options)
    assert isinstance(state, JapanState)
    while state.phase == "setup":
        seat = state.current
        legal = [str(a) for a in state.legal_actions(seat)]
        for style in ("style stone", "style scissor", "style paper"):
            if style in legal:
                state.apply(seat, style)
                break
    return state


def play(state: JapanState, seat: int, *actions: str) -> None:
    for text in actions:
        state.apply(seat, text)


def legal(state: JapanState, seat: int | None = None) -> set[str]:
    seat = state.current if seat is None else seat
    return {str(a) for a in state.legal_actions(seat)}


def clear(state: JapanState) -> JapanState:
    """Empty the board (every token back to its supply or pool) and empty every hand."""
    for p in range(NP):
        if state.nin[p] >= 0:
            state._kill_ninja(p)
        if state.sam[p] >= 0:
            state.sam_supply[state.sam[p]] += 1
            state.sam[p] = -1
        if state.army[p] >= 0:
            state.army_supply[state.army[p]] += 1
            state.army[p] = -1
        if state.occ[p] >= 0:
            state.army_supply[state.occ[p]] += 1
            state.occ[p] = -1
        state.dev_supply[state.owner[p]] += state.dev[p]
        state.dev[p] = 0
        state.owner[p] = HOME[p]
        state.moved[p] = False
        state.infil[p] = False
    for seat in range(state.players):
        for c in list(state.hand[seat]):
            state._discard_from_hand(seat, c)
    state.claimable = ()
    return state


def ninja(
    state: JapanState,
    key: str,
    seat: int,
    style: str,
    *,
    revealed: bool = False,
    infiltrating: bool = False,
) -> None:
    p, s = INDEX[key], STYLE_INDEX[style]
    assert state.nin[p] < 0 and state.pool[seat][s] > 0
    state.pool[seat][s] -= 1
    state._place_ninja(seat, p, s, revealed)
    state.infil[p] = infiltrating


def samurai(state: JapanState, key: str, style: str) -> None:
    p, s = INDEX[key], STYLE_INDEX[style]
    state.sam_supply[s] -= 1
    state.sam[p] = s


def army(state: JapanState, key: str, noble: str, *, occupying: bool = False) -> None:
    p, n = INDEX[key], NOBLE_INDEX[noble]
    state.army_supply[n] -= 1
    if occupying:
        state.dev_supply[state.owner[p]] += state.dev[p]
        state.dev[p] = 0
        state.occ[p] = n
        state.owner[p] = n
    else:
        state.army[p] = n


def develop_to(state: JapanState, key: str, count: int) -> None:
    p = INDEX[key]
    owner = state.owner[p]
    state.dev_supply[owner] += state.dev[p] - count
    state.dev[p] = count


def give_cards(state: JapanState, seat: int, *keys: str) -> None:
    """Move the named territory cards into seat's hand (from wherever they are)."""
    for key in keys:
        c = INDEX[key]
        if c in state.deck:
            state.deck.remove(c)
        elif c in state.discard:
            state.discard.remove(c)
        else:
            raise AssertionError(f"{key} is in a hand already")
        state.hand[seat].append(c)
        state.timeline.append((T_DRAW, seat, c))  # as if drawn (not a history determinize uses)


def stack_deck(state: JapanState, *keys: str) -> None:
    """Put the named cards on top of the deck, the first named on top."""
    for key in reversed(keys):
        c = INDEX[key]
        if c in state.deck:
            state.deck.remove(c)
        else:
            state.discard.remove(c)
        state.deck.append(c)


def action(text: str) -> Action:
    return GAME.parse_action(text)


def pv(view: dict[str, Any], key: str) -> dict[str, Any] | None:
    """One province of a view (None when it is empty and held by its home Noble)."""
    for entry in view["provinces"]:
        if entry["key"] == key:
            return entry
    return None


def play_randomly(
    state: JapanState, rng: random.Random, claim: float = 0.8, useful: float = 0.85
) -> None:
    """One move of a random player that likes claiming missions (with chance ``claim``) and
    acting (``useful``: a move other than ending the turn or seppuku), so hands turn over and
    cards get shown."""
    seat = state.to_move[0]
    moves = state.legal_actions(seat)
    claims = [a for a in moves if a.verb == "claim"]
    acts = [a for a in moves if a.verb not in ("end", "seppuku")]
    if claims and rng.random() < claim:
        action = claims[0]
    elif acts and rng.random() < useful:
        action = rng.choice(acts)
    else:
        action = rng.choice(moves)
    state.apply(seat, action)


def random_game(players: int, seed: int, moves: int) -> JapanState:
    """A game of ``players`` after up to ``moves`` moves of `play_randomly` (fewer if it ends)."""
    state = GAME.new(players=players, seed=seed)
    assert isinstance(state, JapanState)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        play_randomly(state, rng)
    return state
