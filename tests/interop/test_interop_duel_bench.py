"""bench/interop_ismcts.py's duel of a level against OpenSpiel's ISMCTS at equal time."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
# At the end of the path: the benchmarks' names must not shadow an installed module.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

import interop_ismcts as duel
from intrigue.interop import openspiel as adapter


def test_the_timed_openspiel_bot_answers_a_forced_move_without_searching() -> None:
    game = adapter.load_game("shadows-over-japan", max_turns=4)
    state = game.new_initial_state()
    for digit in adapter.seed_digits(7):
        state.apply_action(digit)
    timed = duel.TimedOpenSpielBot(duel.openspiel_bot(game, 2, 7), 0.01, rate=300.0)
    rng = random.Random(7)
    while len(state.legal_actions()) > 1:  # Shadows over Japan soon has a move with no choice
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()
    forced = state.legal_actions()[0]
    assert timed.step(state) == forced
    assert timed.simulations == [] and timed.rate == 300.0  # nothing searched, nothing learnt


def test_a_level_plays_a_whole_game_against_openspiel_on_its_seats() -> None:
    row = duel.level_game("project-assassination", "hard", 0.01, 300.0, 3, {1}, max_turns=4)
    assert row["deal"] == 3 and row["own_seats"] == [1]
    assert set(row["winners"]) <= {0, 1}
    # The timed bot never runs fewer than two simulations (one leaves the root unvisited).
    assert row["openspiel_median_simulations"] >= 2
    assert row["own_cpu_per_decision"] > 0
