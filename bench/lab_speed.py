"""How fast the balance lab plays: N games of each game with `medium` (heuristic) bots.

Runs `intrigue.lab.balance.run_balance` exactly as `intrigue balance GAME --bots heuristic`
would (default caps, 100 evaluated games), into a temporary folder, and prints per game the
wall time, games per second, CPU seconds per game of the worker processes, and the time the
report took. Figures in docs/performance.md.

    nice -n 10 .venv/bin/python bench/lab_speed.py --games 10000 --workers 2
    .venv/bin/python bench/lab_speed.py --games 500 --game shadows-over-japan --eval-games 0
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from intrigue.engine import load
from intrigue.lab.balance import BalanceConfig, build_report, run_balance

GAMES = {
    "masquerade-murder": "15",
    "masquerade-ball": "200",
    "project-assassination": "200",
    "shadows-over-japan": "200",
}


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(game: str, games: int, workers: int, eval_games: int, players: int | None) -> None:
    count = players or load(game).player_counts[0]
    config = BalanceConfig(
        game, games, ["heuristic"], count, {"max_turns": GAMES[game]}, eval_games=eval_games
    )
    load_before, _, _ = os.getloadavg()
    with tempfile.TemporaryDirectory() as out:
        cpu = children_cpu() + time.process_time()
        started = time.perf_counter()
        run = run_balance(config, Path(out), workers=workers)
        wall = time.perf_counter() - started
        cpu = children_cpu() + time.process_time() - cpu
        report_started = time.perf_counter()
        build_report(config, run.rows)
        report = time.perf_counter() - report_started
    load_after, _, _ = os.getloadavg()
    print(
        f"{game} ({count} players): {games} games in {wall:.1f} s on {workers} workers "
        f"({games / wall:.0f} games/s), {cpu / games * 1000:.1f} ms CPU per game, "
        f"report {report:.1f} s, load average {load_before:.1f} before, {load_after:.1f} after",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--players", type=int)
    args = parser.parse_args()
    for game in args.game or list(GAMES):
        measure(game, args.games, args.workers, args.eval_games, args.players)


if __name__ == "__main__":
    main()
