"""Paired study of one role (or seat) played by a bot against the same seat played by another.

    .venv/bin/python bench/roles.py masquerade-murder --role duke --bot hard --others medium \\
        --games 100 --out /tmp/duke
    .venv/bin/python bench/roles.py shadows-over-japan --players 3 --bot hard --others medium
    .venv/bin/python bench/roles.py masquerade-murder --role seductress --bot hard \\
        --reference medium --others random --out /tmp/seductress-random

For each seed the game is played twice with the same deal: once with every seat played by
``--others`` (the reference) and once with the seat holding ``--role`` (games without roles:
seat ``index % players``) played by ``--bot`` instead. With ``--reference BOT`` the reference
is a third game in which that seat is played by ``BOT`` (among the same ``--others``): "does
this role do better under hard than under medium, against the same players?". The focus
seat's wins in the two games compared form a pair, so the deal's luck cancels out: the report
gives both win rates with 95% Wilson intervals, the four kinds of pairs and the exact sign
(McNemar) test on the pairs that differ; in games without roles, where the focus seat turns
with the seed, the same figures for each seat as well (``seats``).
Games are played by the balance lab's runner (the very games ``intrigue arena`` would play)
and kept in ``--out/games.jsonl``, from which a later run resumes. Run by hand; figures are
recorded in docs/bots.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from intrigue.engine import load
from intrigue.lab.runner import GameStream, GameTask, read_rows, run_tasks
from intrigue.lab.stats import sign_test, wilson_interval

DEFAULT_MAX_TURNS = {"masquerade-murder": "15"}


def tasks_for(args: argparse.Namespace, players: int, options: dict[str, Any]) -> list[GameTask]:
    others = (args.others,) * players
    return [
        GameTask(args.game, "reference", i, args.seed + i, players, others, options)
        for i in range(args.games)
    ]


def focus_seat(row: dict[str, Any], role: str | None) -> int | None:
    if role is None:
        return row["index"] % row["players"]
    roles = row.get("labels", {}).get("role")
    if not roles or role not in roles:
        return None
    return roles.index(role)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--role", help="the role to study (games with roles)")
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--others", default="medium")
    parser.add_argument("--reference", help="the bot to compare with in the focus seat (--others)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    game = load(args.game)
    players = args.players or game.player_counts[0]
    options = dict(o.split("=", 1) for o in args.option)
    if "max_turns" not in options:
        options["max_turns"] = DEFAULT_MAX_TURNS.get(args.game, "200")
    path = args.out / "games.jsonl"
    kept = [r for r in read_rows(path) if r.get("status") == "ok"]
    stream = GameStream(path, kept)
    have = {(r["variant"], r["index"]) for r in kept}
    rows = {(r["variant"], r["index"]): r for r in kept}
    try:
        todo = [t for t in tasks_for(args, players, options) if t.key not in have]
        for row in run_tasks(todo, "process", args.workers):
            stream.write(row)
            rows[(row["variant"], row["index"])] = row
        focus_tasks = []
        for i in range(args.games):
            ref = rows.get(("reference", i))
            seat = None if ref is None else focus_seat(ref, args.role)
            if seat is None:
                continue
            for variant, bot in compared(args):
                if (variant, i) in have:
                    continue
                bots = tuple(bot if s == seat else args.others for s in range(players))
                task = GameTask(
                    args.game, variant, i, args.seed + i, players, bots, options, focus=seat
                )
                focus_tasks.append(task)
        for row in run_tasks(focus_tasks, "process", args.workers):
            stream.write(row)
            rows[(row["variant"], row["index"])] = row
    finally:
        stream.close()
    print(json.dumps(report(rows, args), indent=1))


def compared(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The games played with the focus seat changed: (variant, the bot in that seat)."""
    games = [("focus", args.bot)]
    if args.reference:
        games.append(("reference-bot", args.reference))
    return games


def report(rows: dict[tuple[str, int], dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    by_seat: dict[int, list[tuple[float, float]]] = {}
    reference = "reference-bot" if args.reference else "reference"
    for i in range(args.games):
        ref, foc = rows.get((reference, i)), rows.get(("focus", i))
        if ref is None or foc is None or foc.get("status") != "ok":
            continue
        seat = foc["focus"]
        by_seat.setdefault(seat, []).append((ref["results"][seat], foc["results"][seat]))
    pairs = [pair for seat in sorted(by_seat) for pair in by_seat[seat]]
    summary = {
        "game": args.game,
        "role": args.role,
        "bot": args.bot,
        "others": args.others,
        "reference": args.reference or args.others,
        **pair_summary(pairs),
    }
    if args.role is None:
        summary["seats"] = {seat: pair_summary(by_seat[seat]) for seat in sorted(by_seat)}
    return summary


def pair_summary(pairs: list[tuple[float, float]]) -> dict[str, Any]:
    """Both win rates of the focus seat over (reference, focus) result pairs, with intervals,
    the four kinds of pairs and the sign test."""
    n = len(pairs)
    ref_wins = sum(a for a, _ in pairs)
    foc_wins = sum(b for _, b in pairs)
    return {
        "pairs": n,
        "reference_wins": ref_wins,
        "reference_rate": ref_wins / n if n else None,
        "reference_ci95": wilson_interval(ref_wins, n) if n else None,
        "focus_wins": foc_wins,
        "focus_rate": foc_wins / n if n else None,
        "focus_ci95": wilson_interval(foc_wins, n) if n else None,
        "both": sum(a == b == 1 for a, b in pairs),
        "neither": sum(a == b == 0 for a, b in pairs),
        "focus_only": sum(b > a for a, b in pairs),
        "reference_only": sum(a > b for a, b in pairs),
        "sign_test": sign_test([b - a for a, b in pairs]),
    }


if __name__ == "__main__":
    main()
