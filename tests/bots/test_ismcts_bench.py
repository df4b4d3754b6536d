"""bench/ismcts.py: what a decision costs, what it drew, and which moves it chose."""

from __future__ import annotations

import sys
from pathlib import Path

# At the end of the path: the benchmarks' names must not shadow an installed module.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

import ismcts as bench


def test_the_draws_of_a_reading_hook_are_counted_and_the_choices_are_repeatable() -> None:
    """Masquerade Murder's `hard` reads the public play: its search asks the driver's sampler
    once and the game's ``resample`` hook for the rest; both count as samples (with ``reuse``
    4, 16 iterations draw 4 worlds, and the one the hook read makes 5)."""
    one = bench.measure("masquerade-murder", 2, "hard:iterations=16")
    assert one["samples"] == 5
    assert 0 < one["sampling_share"] < 1
    plain = bench.measure("masquerade-murder", 2, "hard:iterations=16:belief=0")
    assert plain["samples"] == 4
    again = bench.measure("masquerade-murder", 2, "hard:iterations=16")
    assert again["chosen"] == one["chosen"] and len(one["chosen"]) == 2
    assert again["chosen_digest"] == one["chosen_digest"]
