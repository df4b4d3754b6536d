"""bench/murder_roles.py: the Evil team's wins by how its search drew its samples."""

from __future__ import annotations

import sys
from pathlib import Path

# At the end of the path: the benchmarks' names must not shadow an installed module.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

import intrigue
import murder_roles
from intrigue.engine import Rng


def test_the_samplers_see_what_their_mode_allows() -> None:
    """``fair`` samples may deal the roles otherwise; ``roles`` keeps the true deal and
    draws the rest; ``all`` is the true state, the night's hidden choices included."""
    state = intrigue.load("masquerade-murder").new(5, 3, max_turns=15)
    while state.night < 3 or state.phase != "target" or len(state.to_move) == 5:
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = next(s for s in range(5) if s in state.to_move)
    fair = [murder_roles.sampler_for(state, seat, "fair")(Rng(k)).roles for k in range(30)]
    assert any(roles != state.roles for roles in fair)
    roles = murder_roles.sampler_for(state, seat, "roles")
    assert all(roles(Rng(k)).roles == state.roles for k in range(10))
    chosen = [s for s in range(5) if s not in state.to_move]  # chose this night already
    known = murder_roles.sampler_for(state, seat, "all")(Rng(0))
    assert chosen and all(known.targets[s] == state.targets[s] for s in chosen)


def test_the_summary_pairs_each_cheat_with_the_fair_ball_of_its_deal() -> None:
    rows = [
        (1, "fair", False, 5, ""),
        (1, "roles", True, 4, ""),
        (1, "all", True, 3, ""),
        (2, "fair", True, 9, ""),
        (2, "roles", True, 8, ""),
        (2, "all", True, 6, ""),
        (3, "fair", True, 9, ""),
        (3, "roles", False, 15, ""),
    ]
    out = murder_roles.summary(rows)
    assert (out["fair"]["won"], out["fair"]["balls"]) == (2, 3)
    assert (out["roles"]["won"], out["roles"]["balls"]) == (2, 3)
    assert (out["all"]["won"], out["all"]["balls"]) == (2, 2)
    assert (out["roles against fair"]["up"], out["roles against fair"]["down"]) == (1, 1)
    assert (out["all against fair"]["up"], out["all against fair"]["down"]) == (1, 0)
