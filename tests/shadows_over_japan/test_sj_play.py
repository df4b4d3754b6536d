"""Whole games: random play ends by the rules for 2, 3 and 4 players and keeps every invariant."""

from __future__ import annotations

import random

import pytest
from sj_helpers import GAME, play_randomly
from sj_invariants import check_invariants

import intrigue
from intrigue.games.shadows_over_japan.data import HONOUR_DECK_SIZE


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", [{}, {"missions": "rival", "neutral": "open"}])
def test_random_games_end_after_the_last_honour(players: int, variant: dict) -> None:
    rng = random.Random(players)
    state = GAME.new(players=players, seed=players * 101, **variant)
    while not state.is_over:
        check_invariants(state)
        play_randomly(state, rng, claim=1.0, useful=0.9)
    check_invariants(state)
    assert not state.outcome.capped
    assert len(state.honour_log) == HONOUR_DECK_SIZE[players]
    assert state.round + 1 == 2 * HONOUR_DECK_SIZE[players]
    assert state.outcome.winners and state.view(0)["final"]["scores"]
    again = intrigue.replay(state.record().to_json())
    assert again.view(None) == state.view(None)
