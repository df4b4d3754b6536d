"""The baselines every agent should beat, measured with `intrigue.interop.evaluate`.

    .venv/bin/python bench/baselines.py                          # every game, 100 games a cell
    .venv/bin/python bench/baselines.py --game project-assassination --games 200 --json
    .venv/bin/python bench/baselines.py --hard-games 6           # also against `hard` (slow)

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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=game_ids())
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--hard-games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    rows = ["| game | policy | vs random | vs medium | vs hard |", "|---|---|---|---|---|"]
    for game in args.game or game_ids():
        for policy in POLICIES:
            cells = []
            for opponent, games in (("random", args.games), ("medium", args.games)) + (
                (("hard", args.hard_games),) if args.hard_games else ()
            ):
                start = time.perf_counter()
                result = evaluate(policy, game, (opponent,), games=games, seed=args.seed)
                score = result.scores[0]
                entry = {**result.to_json(), "seconds": time.perf_counter() - start}
                results.append(entry)
                low, high = score.interval
                cells.append(f"{score.rate:.0%} ({low:.0%}-{high:.0%}, n={score.games})")
                print(f"{game} {policy} vs {opponent}: {cells[-1]}", file=sys.stderr, flush=True)
            cells += ["not measured"] * (3 - len(cells))
            rows.append(f"| {game} | {policy} | " + " | ".join(cells) + " |")
    print(json.dumps(results, indent=1) if args.json else "\n".join(rows))


if __name__ == "__main__":
    main()
