"""bench/peek.py: one seat's wins when its search sees what it may, or everything."""

from __future__ import annotations

import sys
from pathlib import Path

# At the end of the path: the benchmarks' names must not shadow an installed module.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

import intrigue
import peek
from intrigue.engine import Rng


def test_the_cheats_sample_the_true_state_or_nobles_and_the_fair_mode_does_not() -> None:
    state = intrigue.load("shadows-over-japan").new(3, 4)
    for _ in range(12):
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_move[0]
    fair = [peek._sampler(state, seat, "fair")(Rng(k)) for k in range(10)]
    assert any(sample.nobles != state.nobles for sample in fair)
    assert all(sample.view(seat) == state.view(seat) for sample in fair)
    for k in range(5):  # the Nobles cheat: the true Nobles, the rest drawn as always
        sample = peek._sampler(state, seat, "nobles")(Rng(k))
        assert sample.nobles == state.nobles and sample.view(seat) == state.view(seat)
    known = peek._sampler(state, seat, "all")(Rng(0))
    assert known is not state and known.nobles == state.nobles
    assert known.record().to_json() == state.record().to_json()


def test_the_summary_pairs_each_deal_and_counts_shared_wins_as_wins() -> None:
    rows = [
        (1, "fair", 1, 0.0),
        (1, "all", 1, 1.0),
        (2, "fair", 2, 0.5),
        (2, "all", 2, 0.5),
        (3, "fair", 0, 1.0),
        (3, "all", 0, 0.0),
        (4, "all", 1, 1.0),
    ]
    out = peek.summary(rows)
    assert (out["fair"]["won"], out["fair"]["games"]) == (2, 3)
    assert (out["all"]["won"], out["all"]["games"]) == (3, 4)
    assert (out["all against fair"]["up"], out["all against fair"]["down"]) == (1, 1)
