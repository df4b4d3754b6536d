"""bench/agreement.py: bots scored against a longer search's root statistics."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# At the end of the path: the benchmarks' names must not shadow an installed module.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

import agreement
from intrigue.engine import Action


def test_agreement_and_regret_read_the_reference_statistics() -> None:
    best, other, unseen = Action("move", ("a1",)), Action("move", ("a2",)), Action("end", ())
    stats = {best: (90, 0.75), other: (10, 0.5), Action("draw", ("item",)): (3, 0.25)}
    assert agreement.score(stats, best) == (True, 0.0)
    assert agreement.score(stats, other) == (False, 0.25)
    # a move the reference never tried counts as its worst tried
    assert agreement.score(stats, unseen) == (False, 0.5)


def test_a_reference_search_is_a_function_of_its_seed() -> None:
    state = agreement.position("project-assassination", 3, (5, 20))
    seat = state.to_move[0]
    first = agreement.reference_search("ismcts:iterations=60", state, seat, 9)
    assert sum(visits for visits, _ in first.values()) == 60
    assert agreement.reference_search("ismcts:iterations=60", state, seat, 9) == first


def test_a_run_scores_every_bot_at_every_position() -> None:
    args = argparse.Namespace(
        game="project-assassination",
        players=None,
        positions=2,
        seed=0,
        reference="ismcts:iterations=60",
        bots="ismcts:iterations=60,random",
        again=False,
        moves=(5, 20),
        progress=False,
    )
    report = agreement.run(args)
    assert set(report["bots"]) == {"ismcts:iterations=60", "random"}
    for row in report["bots"].values():
        assert len(row["regrets"]) == 2 and all(r >= 0 for r in row["regrets"])
        assert 0.0 <= row["agreement"][0] <= 1.0
    assert report["bots"]["ismcts:iterations=60"]["regret_minus_first"][0] == 0.0
