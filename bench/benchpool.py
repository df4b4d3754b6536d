"""Shared by the paired benchmarks (`murder_roles.py`, `peek.py`): play a game with some seats'
searches handed samplers of their own, and play the jobs in worker processes, printing each
game's row as it ends (JSON, one a line) and then the summary."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from typing import Any


def play_out(state: Any, bots: dict[int, Any], rng: Any, sampler: Callable[..., Any]) -> None:
    """Play ``state`` to its end, each seat by its bot; ``sampler(state, seat)`` gives the
    sampler of a seat's search, or None for a bot that does not search."""
    while not state.is_over:
        for seat in list(state.to_move):
            if state.is_over or seat not in state.to_move:
                continue
            view, legal = state.view(seat), state.legal_actions(seat)
            draw = sampler(state, seat)
            if draw is None:
                action = bots[seat].choose(view, legal, rng)
            else:
                action = bots[seat].choose(view, legal, rng, sampler=draw)
            state.apply(seat, action)


def play_and_report(
    play: Callable[[Any], Sequence[Any]],
    jobs: list[Any],
    workers: int,
    summary: Callable[[list[Any]], dict[str, Any]],
) -> None:
    """Run ``play`` on every job over ``workers`` processes, rows printed as they come."""
    rows = []
    with Pool(workers) as pool:
        for row in pool.imap_unordered(play, jobs):
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(json.dumps(summary(rows)))
