"""Benchmark: how close bots' moves come to a much longer search's, position by position.

Run by hand (``.venv/bin/python bench/agreement.py --game masquerade-ball --positions 60
--reference ismcts:iterations=3200 --bots hard,ismcts:width=5``); figures go in docs/bots.md.

A match between two searches needs dozens of games (minutes each) to tell a few points of
strength apart; this asks a cheaper question first. At each position (reached by seeded play
of the heuristic with one move in four random, as ``bench/ismcts.py`` does), a *reference*
search, many times longer than a bot's, measures every root move: its visits and its mean
result (on the search's [0, 1] scale). Each bot then decides once at the same position from
the same view, and is scored by

* **agreement**: the share of positions where it played the reference's most visited move;
* **regret**: the reference's mean result of its most visited move minus that of the move the
  bot played (0 when they agree; a move the reference never tried counts as its worst tried);
* **CPU**: the bot's median CPU seconds a decision, so settings are compared at equal cost.

Each bot's regret is also given minus the first bot's, position by position (the paired
difference, with its own interval), which separates settings far better than the two
intervals apart.

``--again`` runs a second reference search with another seed and scores it as a bot: the
agreement one can hope for, given the reference's own noise. A reference is itself a search
of the same family (same rollouts and evaluation): the scores measure how well a bot spends a
short budget on the question the long search answers, which is what more search improves
where more search helps (docs/bots.md). They rank settings for a match; they do not replace it.
The regret reads the reference's *mean* result of a move, which is unfair to a move that
postpones without spoiling (a draw, an item played before the first action): its best line
lies a level deeper among more children, and the mean over them, exploration included, is
lower. Look at a large regret before believing it (docs/bots.md has two such positions).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from intrigue.bots import make_bot
from intrigue.bots.ismcts import ISMCTSBot, _Search
from intrigue.bots.match import bot_move
from intrigue.engine import Action, Rng, State
from ismcts import add_moves_argument, position  # bench/ismcts.py, beside this script


def reference_search(
    spec: str, state: State, seat: int, seed: int
) -> dict[Action, tuple[int, float]]:
    """The root moves' (visits, mean result) after the long search ``spec``."""
    bot = make_bot(spec)
    assert isinstance(bot, ISMCTSBot), f"{spec} is not a search"
    view = state.view(seat)
    rng = random.Random(seed)
    search = _Search(bot, bot.hooks(view["game"]), seat, rng)
    sampler = search.believing(lambda r: state.determinize(seat, r))
    for _ in range(bot.iterations):
        search.iterate(sampler(rng))
    return {
        action: (node.visits, node.total / node.visits)
        for action, node in search.root.children.items()
        if node.visits
    }


def score(stats: dict[Action, tuple[int, float]], action: Action) -> tuple[bool, float]:
    """(agrees, regret) of ``action`` against the reference's root statistics."""
    best = max(stats, key=lambda a: stats[a][0])
    worst = min(mean for _, mean in stats.values())
    mean = stats[action][1] if action in stats else worst
    return action == best, stats[best][1] - mean


def bot_decision(spec: str, state: State, seat: int, seed: int) -> tuple[Action, float]:
    """``spec``'s move at ``state`` for ``seat`` and the CPU seconds it took."""
    bot = make_bot(spec)
    view, legal = state.view(seat), state.legal_actions(seat)
    started = time.process_time()
    action = bot_move(bot, state, seat, Rng(seed), view=view, legal=legal)
    return action, time.process_time() - started


def interval(values: list[float]) -> tuple[float, float]:
    """The mean and its 95% half-width (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def run(args: argparse.Namespace) -> dict[str, Any]:
    bots = args.bots.split(",")
    names = [*bots, "reference again"] if args.again else bots
    rows: dict[str, list[tuple[bool, float, float]]] = {name: [] for name in names}
    for i in range(args.positions):
        seed = args.seed + i
        state = position(args.game, seed, (args.moves[0], args.moves[1]), players=args.players)
        seat = state.to_move[0]
        stats = reference_search(args.reference, state, seat, seed)
        for spec in bots:
            action, cpu = bot_decision(spec, state, seat, seed)
            rows[spec].append((*score(stats, action), cpu))
        if args.again:
            again = reference_search(args.reference, state, seat, seed + 7_777_777)
            best = max(again, key=lambda a: again[a][0])
            rows["reference again"].append((*score(stats, best), math.nan))
        if args.progress:
            done = {n: sum(r[0] for r in rows[n]) for n in names}
            print(f"position {i + 1}: agreements so far {done}", flush=True)
    report: dict[str, Any] = {
        "game": args.game,
        "players": args.players,
        "positions": args.positions,
        "reference": args.reference,
        "bots": {},
    }
    first = [r for _, r, _ in rows[names[0]]]
    for name in names:
        agree = [float(a) for a, _, _ in rows[name]]
        regret = [r for _, r, _ in rows[name]]
        cpu = [c for _, _, c in rows[name] if not math.isnan(c)]
        report["bots"][name] = {
            "agreement": interval(agree),
            "regret": interval(regret),
            # paired, position by position: far tighter than the two intervals apart
            "regret_minus_first": interval([r - f for r, f in zip(regret, first, strict=True)]),
            "regrets": regret,
            "cpu_median": statistics.median(cpu) if cpu else None,
        }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=None, help="default: the fewest")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0, help="seed of the first position")
    parser.add_argument("--reference", default="ismcts:iterations=3200", help="the long search")
    parser.add_argument("--bots", default="hard", help="comma-separated bot specs to score")
    parser.add_argument("--again", action="store_true", help="score a second reference too")
    add_moves_argument(parser)
    parser.add_argument("--progress", action="store_true", help="a line per position")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{args.game}, {args.positions} positions, reference {args.reference}"
        f" (agreement and regret: mean ± 95% half-width)"
    )
    print(f"{'bot':40} {'agreement':>16} {'regret':>17} {'minus the first':>18} {'cpu s':>6}")
    for name, r in report["bots"].items():
        (a, da), (g, dg), (d, dd) = r["agreement"], r["regret"], r["regret_minus_first"]
        cpu = "-" if r["cpu_median"] is None else f"{r['cpu_median']:.3f}"
        print(f"{name:40} {a:8.1%} ± {da:5.1%} {g:8.4f} ± {dg:.4f} {d:+8.4f} ± {dd:.4f} {cpu:>6}")


if __name__ == "__main__":
    main()
