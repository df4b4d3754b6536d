"""Shared helpers of The Masquerade Ball tests: exact positions through the `setup` option."""

from __future__ import annotations

import random
from typing import Any

from intrigue.games.masquerade_ball.rules import BallState

START = "q-k-j-10-9-8-a-jk-7-6-5-4-3-2"  # throne row b-e, step row a-f, front row b-e


def game_obj() -> Any:
    from intrigue.games.masquerade_ball import GAME as BALL

    return BALL


def play_randomly(state: BallState, seed: int, steps: int | None = None) -> BallState:
    """Play random legal moves (``random.Random(seed)``) for ``steps`` moves or to the end."""
    rng = random.Random(seed)
    done = 0
    while not state.is_over and (steps is None or done < steps):
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        done += 1
    return state


def position(*cards: str, first: int = 0, players: int = 2, **options: Any) -> BallState:
    """A game set up with exactly ``cards`` (``<side>:<rank>@<place>[!]``); side 0 to play."""
    if players == 3:
        return three(seed=7, setup=list(cards), first=first, **options)
    state = game_obj().new(players, seed=7, setup=list(cards), first=first, **options)
    assert isinstance(state, BallState)
    return state


def three(seed: int = 7, **options: Any) -> BallState:
    """A three-player game (MB-30): North, East and South round the ballroom."""
    state = game_obj().new(3, seed=seed, **options)
    assert isinstance(state, BallState)
    return state


def dealt(deals: list[str] | None = None, first: int = 0, **options: Any) -> BallState:
    state = game_obj().new(2, seed=7, deals=deals or [START, START], first=first, **options)
    assert isinstance(state, BallState)
    return state


def play(state: BallState, *actions: str) -> None:
    """Apply ``actions`` for whoever is to move."""
    for text in actions:
        state.apply(state.to_move[0], text)


def legal(state: BallState) -> set[str]:
    return {str(a) for a in state.legal_actions(state.to_move[0])}


def dests(state: BallState, square: str) -> set[str]:
    """Where the acting card on ``square`` may move or attack."""
    return {
        str(a.args[1])
        for a in state.legal_actions(state.to_move[0])
        if a.verb == "move" and str(a.args[0]) == square
    }


def can_end(state: BallState) -> bool:
    return "end" in legal(state)


def events(state: BallState, seat: int | None, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events(seat) if e["kind"] == kind]
