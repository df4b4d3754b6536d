"""The reasons the server echoes for refused moves reveal nothing the mover does not know.

The server answers a refused move of the seat to move with ``not allowed: <reason>``, the
engine's `IllegalAction.reason`. A reason may only depend on what that seat knows. The check:
`State.determinize(seat, rng)` resamples everything the seat has not seen (roles, hands,
face-down ranks, ninja styles, deck orders), so every refused move must get the same reason in
the real state and in each sample; a reason naming a hidden fact would differ somewhere.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import intrigue
from intrigue.engine import Action, IllegalAction, Rng, State

# (game, players, options, moves between two checked positions): random play ends a
# Project Assassination game within a few dozen moves, so it is checked more often.
CASES = [
    ("masquerade-murder", 5, {}, 9),
    ("masquerade-ball", 2, {}, 9),
    ("masquerade-ball", 3, {}, 9),
    ("masquerade-ball", 4, {"memory": "concentration"}, 9),
    ("project-assassination", 2, {}, 2),
    ("shadows-over-japan", 3, {}, 9),
]
CHECKS = 8  # positions checked per game
SAMPLES = 3  # determinizations per position


def reason(state: State, seat: int, action: Action) -> str | None:
    """The refusal's reason, or None if the move is legal there."""
    try:
        state.clone().apply(seat, action)
    except IllegalAction as exc:
        return exc.reason
    return None


def refusals(state: State, seat: int) -> dict[Action, str | None]:
    game = state.game
    legal = set(state.legal_actions(seat))
    every = (game.action_at(i) for i in range(game.num_actions))
    return {a: reason(state, seat, a) for a in every if a not in legal}


@pytest.mark.parametrize(("game_id", "players", "options", "stride"), CASES, ids=str)
def test_a_refusal_tells_the_mover_nothing_it_does_not_know(
    game_id: str, players: int, options: dict[str, Any], stride: int
):
    state = intrigue.load(game_id).new(players, 11, **options)
    chooser = random.Random(11)
    checked = 0
    while not state.is_over and checked < CHECKS:
        seat = chooser.choice(state.to_move)
        expected = refusals(state, seat)
        assert expected and None not in expected.values()
        for k in range(SAMPLES):
            world = state.determinize(seat, Rng(k))
            assert refusals(world, seat) == expected, f"{game_id}: a reason depends on a secret"
        checked += 1
        for _ in range(stride):
            if state.is_over:
                break
            mover = chooser.choice(state.to_move)
            state.apply(mover, chooser.choice(state.legal_actions(mover)))
    assert checked >= 3
