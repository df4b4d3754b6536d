"""``intrigue ladder``: a round robin of bots in one game, rated on one Elo scale.

The games and the fit are `intrigue.lab.ladder`'s; this module parses the command line, shows a
progress bar and prints the table (and the pairs' scores).
"""

from __future__ import annotations

import argparse
import json
from itertools import combinations
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

import intrigue


def add_ladder_parser(commands: Any) -> None:
    """The ``ladder`` subcommand and its options."""
    parser = commands.add_parser(
        "ladder", help="play a round robin of bots and rate them on one Elo scale"
    )
    parser.add_argument("game", help="game id (see 'intrigue games')")
    parser.add_argument(
        "--bots",
        default="easy,medium,hard",
        help="comma-separated bots, levels or specs such as ismcts:iterations=200 (the first "
        "is rated 0; default easy,medium,hard)",
    )
    parser.add_argument("--games", type=int, default=20, help="games per pair of bots (20)")
    parser.add_argument("--players", type=int, help="number of players (default: the fewest)")
    parser.add_argument("--seed", type=int, default=0, help="seed of game 0 of every pair")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="game option"
    )
    parser.add_argument(
        "--by-team",
        action="store_true",
        help="team games (masquerade-murder): play each deal twice, one bot holding a team's "
        "seats and the other bot the rest, then the other way round; the bot whose team won "
        "wins the game",
    )
    parser.add_argument("--workers", type=int, default=1, help="worker processes (1)")
    parser.add_argument(
        "--bot-plugin",
        action="append",
        default=[],
        metavar="NAME=MODULE:ATTR",
        help="make bot NAME from MODULE:ATTR (a class or factory) in every worker, to rate a "
        "bot of your own (or another version of one) against the levels",
    )
    parser.add_argument(
        "--out", type=Path, metavar="DIR", help="keep every game in DIR/games.jsonl"
    )
    parser.add_argument(
        "--resume", action="store_true", help="keep the games already in --out, play the rest"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the ratings as JSON")


def ladder_command(console: Console, args: argparse.Namespace) -> int:
    """Play the ladder and print it; 1 if some games crashed (they count for nobody)."""
    from intrigue.lab.ladder import LadderSpec, UnteamedGame, run_ladder

    from .balance import _bots, _plugins
    from .main import UsageError, add_default_cap, parse_options

    plugins = tuple(_plugins(args.bot_plugin))
    bots = _bots(args.bots)
    if len(set(bots)) < 2 or len(set(bots)) != len(bots):
        raise UsageError("--bots: name two different bots or more, each once")
    if args.games < 1 or args.workers < 1:
        raise UsageError("--games and --workers must be at least 1")
    if args.resume and args.out is None:
        raise UsageError("--resume needs --out")
    game = intrigue.load(args.game)
    players = args.players if args.players is not None else game.player_counts[0]
    if players not in game.player_counts:
        counts = ", ".join(map(str, game.player_counts))
        raise UsageError(f"--players: {game.name} is played by {counts} players")
    options: dict[str, Any] = parse_options(args.option)
    add_default_cap(options, game, players)
    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{args.game}: {', '.join(bots)}", total=None)
        spec = LadderSpec(
            args.game, tuple(bots), args.games, args.seed, players, options, args.by_team, plugins
        )
        try:
            ladder = run_ladder(
                spec,
                workers=args.workers,
                out=args.out,
                resume=args.resume,
                progress=lambda done, total: progress.update(task, completed=done, total=total),
            )
        except UnteamedGame as exc:
            raise UsageError(f"--by-team: {exc}") from None
    result = ladder.to_json()
    seating = "seated by team, each deal both ways" if args.by_team else "seats alternating"
    console.print(
        f"{ladder.games} games of {game.name} ({players} players), {args.games} per pair "
        f"({seating}), seeds {args.seed}..{spec.seed_of(args.games - 1)}; "
        f"{ladder.capped} cut off by the cap"
        + (f"; {ladder.errors} crashed" if ladder.errors else "")
    )
    console.print(_ratings_table(result))
    console.print(_pairs_table(result, bots))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
        console.print(f"Ratings written to {args.json}.")
    return 1 if ladder.errors else 0


def _ratings_table(result: dict[str, Any]) -> Table:
    table = Table(
        title=f"Elo (Bradley-Terry; {result['anchor']} = 0), 95% bootstrap intervals",
        title_justify="left",
    )
    for name in ("bot", "Elo", "95% interval", "score", "games"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    ranked = sorted(result["ratings"].items(), key=lambda item: -item[1]["elo"])
    for bot, r in ranked:
        low, high = r["ci95"]
        table.add_row(
            bot,
            f"{r['elo']:+.0f}",
            f"{low:+.0f} to {high:+.0f}",
            f"{r['score']:.1%}",
            str(r["games"]),
        )
    return table


def _pairs_table(result: dict[str, Any], bots: list[str]) -> Table:
    table = Table(title="Score of the first bot of each pair", title_justify="left")
    for name in ("pair", "games", "score"):
        table.add_column(name, justify="left" if name == "pair" else "right")
    for a, b in combinations(bots, 2):
        pair = result["pairs"].get(f"{a} vs {b}")
        if pair and pair["games"]:
            table.add_row(f"{a} vs {b}", str(pair["games"]), f"{pair['score']:.1%}")
    return table
