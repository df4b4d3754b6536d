"""Shared by the paired benchmarks (`murder_roles.py`, `peek.py`): play their jobs in worker
processes, print each game's row as it ends (JSON, one a line) and then the summary."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from multiprocessing import Pool
from typing import Any


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
