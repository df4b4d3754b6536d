"""The baselines every agent should beat, measured with `intrigue.interop.evaluate`.

    .venv/bin/python bench/baselines.py                          # every game, 100 games a cell
    .venv/bin/python bench/baselines.py --game project-assassination --games 200 --json
    .venv/bin/python bench/baselines.py --hard-games 6           # also against `hard` (slow)
    .venv/bin/python bench/baselines.py --hard-games 20 --opponent hard   # only the hard column

For each game: the policies ``random`` (uniform among legal actions: the mask-only control),
``always-end`` (the trivial policy: end the turn whenever allowed) and ``medium`` (the
heuristic bot), each against the opponents ``random`` and ``medium`` (``--games`` games each)
and, when ``--hard-games`` is set, ``hard`` (ISMCTS, 400 iterations a decision: minutes per
game on this machine, so few games and wide intervals). Seats rotate; the same deals for
every cell (`evaluate`'s protocol). Run by hand; docs/interop.md keeps the table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from intrigue.engine import game_ids
from intrigue.interop import evaluate

POLICIES = ("random", "always-end", "medium")
OPPONENTS = ("random", "medium", "hard")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=game_ids())
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--hard-games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--opponent", action="append", choices=OPPONENTS, help="columns to measure (default all)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    rows = ["| game | policy | vs random | vs medium | vs hard |", "|---|---|---|---|---|"]
    for game in args.game or game_ids():
        for policy in POLICIES:
            cells = []
            for opponent in OPPONENTS:
                games = args.hard_games if opponent == "hard" else args.games
                if not games or opponent not in (args.opponent or OPPONENTS):
                    cells.append("not measured")
                    continue
                start, cpu = time.perf_counter(), time.process_time()
                result = evaluate(policy, game, (opponent,), games=games, seed=args.seed)
                score = result.scores[0]
                cpu = time.process_time() - cpu
                entry = {**result.to_json(), "seconds": time.perf_counter() - start, "cpu": cpu}
                results.append(entry)
                low, high = score.interval
                cells.append(f"{score.rate:.0%} ({low:.0%}-{high:.0%}, n={score.games})")
                line = f"{game} {policy} vs {opponent}: {cells[-1]} [{cpu:.0f} CPU s]"
                print(line, file=sys.stderr, flush=True)
            rows.append(f"| {game} | {policy} | " + " | ".join(cells) + " |")
    print(json.dumps(results, indent=1) if args.json else "\n".join(rows))


if __name__ == "__main__":
    main()
