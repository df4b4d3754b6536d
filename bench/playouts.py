"""Playout and cloning speed of every registered game, on one core.

    .venv/bin/python bench/playouts.py                     # every game, 3 s per measurement
    .venv/bin/python bench/playouts.py --game masquerade-murder --seconds 10 --json

Measured, for each game (see docs/performance.md):

Each measurement runs ``--repeat`` times and the best run is reported (like ``timeit``: other
processes only ever slow a run down); the JSON output lists every run.

* playouts: new games (first player count, ``max_turns`` set) played to the end by the
  loop a search would run: ``seat = to_move[0]``, ``legal_actions(seat)``, a uniformly random
  choice, ``apply``. Reported as actions (applies) per second; game creation is included.
* clones: ``clone()`` of one mid-game state, repeatedly, per second.
* determinize: ``determinize(seat, rng)`` of the same mid-game state, per second (what an
  information-set search pays per iteration on top of its playout).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from typing import Any

import intrigue
from intrigue.engine import Game, Rng, State, game_ids

DEFAULT_OPTIONS: dict[str, Any] = {"max_turns": 10}
# Per-game options for the benchmark (none needed so far: every game takes max_turns).
BENCH_OPTIONS: dict[str, dict[str, Any]] = {}


def pin_to_one_core(cpu: int | None) -> int | None:
    """Run on a single CPU so figures do not depend on the scheduler moving the process."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[0] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return chosen


def playouts(game: Game, options: dict[str, Any], seconds: float) -> dict[str, float]:
    """Random playouts from new games until ``seconds`` have passed."""
    players = game.player_counts[0]
    choice = random.Random(0).choice
    actions = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new(players=players, seed=games, **options)
        while not state.is_over:
            seat = state.to_move[0]
            state.apply(seat, choice(state.legal_actions(seat)))
            actions += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "actions_per_s": actions / elapsed,
        "games_per_s": games / elapsed,
        "actions_per_game": actions / games,
        "games": games,
    }


def mid_game(game: Game, options: dict[str, Any]) -> State:
    """A state about halfway through a random game (replayed from its record)."""
    state = game.new(players=game.player_counts[0], seed=1, **options)
    rng = random.Random(1)
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    record = state.record()
    record.actions = record.actions[: len(record.actions) // 2]
    return intrigue.replay(record)


def rate(work: Any, seconds: float, batch: int) -> float:
    """Calls of ``work()`` per second, timed in batches until ``seconds`` have passed."""
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(batch):
            work()
        calls += batch
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start)


def measure(game_id: str, seconds: float, max_turns: int | None, repeat: int) -> dict[str, Any]:
    """Best of ``repeat`` runs of each measurement (the least disturbed by other processes)."""
    game = intrigue.load(game_id)
    options = {**DEFAULT_OPTIONS, **BENCH_OPTIONS.get(game_id, {})}
    if max_turns is not None:
        options["max_turns"] = max_turns
    playouts(game, options, min(0.3, seconds))  # warm-up: imports and caches
    runs = [playouts(game, options, seconds) for _ in range(repeat)]
    result: dict[str, Any] = {"game": game_id, "options": options, "repeat": repeat}
    result.update(max(runs, key=lambda run: run["actions_per_s"]))
    result["actions_per_s_runs"] = [round(run["actions_per_s"]) for run in runs]
    state = mid_game(game, options)
    result["mid_game_step"] = len(state.history)
    clones = [rate(state.clone, seconds, batch=1000) for _ in range(repeat)]
    result["clones_per_s"] = max(clones)
    result["clones_per_s_runs"] = [round(c) for c in clones]
    rng = Rng(5)
    seat = state.to_move[0] if state.to_move else 0
    result["determinize_per_s"] = rate(lambda: state.determinize(seat, rng), seconds, batch=10)
    return result


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "nproc": os.cpu_count(),
    }


def table(results: list[dict[str, Any]]) -> str:
    header = ("game", "actions/s", "games/s", "actions/game", "clones/s", "determinize/s")
    rows = [
        (
            r["game"],
            f"{r['actions_per_s']:,.0f}",
            f"{r['games_per_s']:,.1f}",
            f"{r['actions_per_game']:,.1f}",
            f"{r['clones_per_s']:,.0f}",
            f"{r['determinize_per_s']:,.0f}",
        )
        for r in results
    ]
    widths = [max(len(str(row[i])) for row in (header, *rows)) for i in range(len(header))]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        )
        for row in (header, *rows)
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: all)")
    parser.add_argument("--seconds", type=float, default=3.0, help="budget per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; best kept")
    parser.add_argument(
        "--max-turns", type=int, default=None, help="override max_turns (default 10)"
    )
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: first)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.game or []) - set(game_ids()))
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(game_ids())}")
    cpu = pin_to_one_core(args.cpu)
    results = [
        measure(g, args.seconds, args.max_turns, args.repeat) for g in args.game or game_ids()
    ]
    if args.json:
        info = {**machine(), "cpu": cpu, "seconds": args.seconds, "repeat": args.repeat}
        print(json.dumps({"machine": info, "results": results}, indent=1))
    else:
        info = machine()
        print(
            f"Python {info['python']} ({info['implementation']}) on {info['platform']}, "
            f"{info['nproc']} CPUs, pinned to CPU {cpu}; best of {args.repeat} runs of "
            f"{args.seconds:g} s"
        )
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
