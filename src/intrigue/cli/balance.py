"""``intrigue balance``: many seeded self-play games in parallel, and a balance report.

The games are played by `intrigue.lab.balance`; this module parses the command line, shows a
progress bar and prints the report's tables. The files (``games.jsonl``, ``report.json``,
``report.html`` and its plots) land in ``--out``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

import intrigue
from intrigue.bots import UnknownBot, make_bot, register_bot
from intrigue.lab.skill import skill_gaps

if TYPE_CHECKING:
    from intrigue.lab.balance import BalanceConfig, BalanceRun


def add_balance_parser(commands: Any) -> None:
    """The ``balance`` subcommand and its options."""
    parser = commands.add_parser(
        "balance", help="play many seeded bot games and report how balanced the game is"
    )
    parser.add_argument("game", help="game id (see 'intrigue games')")
    parser.add_argument("--games", type=int, default=100, help="games per rule set (100)")
    parser.add_argument(
        "--bots",
        default="heuristic,random",
        help="comma-separated bots, rotated over the seats from game to game (heuristic,random)",
    )
    parser.add_argument("--players", type=int, help="number of players (default: the fewest)")
    parser.add_argument("--seed", type=int, default=0, help="seed of game 0; game i gets seed+i")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="game option"
    )
    parser.add_argument(
        "--vs-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="also play the rules with this option changed, and compare (repeatable)",
    )
    parser.add_argument(
        "--vs-players", type=int, metavar="P", help="also play with P players, and compare"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: one per CPU; 1 plays in this process)",
    )
    parser.add_argument("--out", type=Path, metavar="DIR", help="output folder (balance-GAME)")
    parser.add_argument("--resume", action="store_true", help="keep the games already in --out")
    parser.add_argument("--ray", action="store_true", help="play the games as Ray tasks")
    parser.add_argument(
        "--ray-address", metavar="ADDR", help="Ray cluster to join (default: start Ray locally)"
    )
    parser.add_argument(
        "--bot-plugin",
        action="append",
        default=[],
        metavar="NAME=MODULE:ATTR",
        help="make bot NAME from MODULE:ATTR (a class or factory) in every worker",
    )


def balance_command(console: Console, args: argparse.Namespace) -> int:
    """Run the balance lab from parsed arguments; 0 when every game finished, 1 if some
    crashed (they are reported), usage errors raise ``UsageError``."""
    config = config_from_args(args)
    out_dir = args.out if args.out is not None else Path(f"balance-{args.game}")
    backend = "ray" if args.ray else "process"
    # Imported on use: the lab (process pools, plots) is not needed by the other commands.
    from intrigue.lab.balance import ResumeMismatch

    from .main import UsageError

    try:
        run = _run_with_progress(console, config, out_dir, backend, args)
    except ResumeMismatch as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        # Finished games are already on disk: say how to carry on (main exits with 130).
        console.print(f"Stopped. Add --resume to go on with the games in {out_dir}.")
        raise
    print_report(console, run.report)
    console.print(
        f"Played {run.played} games ({run.resumed} kept from an earlier run) in "
        f"{run.report['run']['seconds']:.1f} s. Files in {out_dir}: games.jsonl, "
        "report.json, report.html."
    )
    return 1 if run.report["errors"] else 0


def _run_with_progress(
    console: Console, config: BalanceConfig, out_dir: Path, backend: str, args: argparse.Namespace
) -> BalanceRun:
    columns = (
        "{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    from intrigue.lab.balance import run_balance

    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{config.game}: {', '.join(config.bots)}", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return run_balance(
            config,
            out_dir,
            backend=backend,
            workers=args.workers,
            ray_address=args.ray_address,
            resume=args.resume,
            progress=advance,
        )


def config_from_args(args: argparse.Namespace) -> BalanceConfig:
    """Check the command line (bots, options, counts) and build the run's configuration."""
    from intrigue.lab.balance import BalanceConfig

    from .main import DEFAULT_ARENA_MAX_TURNS, UsageError, parse_options

    game = intrigue.load(args.game)
    plugins = _plugins(args.bot_plugin)
    names = _bots(args.bots)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.ray_address and not args.ray:
        raise UsageError("--ray-address needs --ray")
    options: dict[str, Any] = parse_options(args.option)
    # Bots always play with a length cap (RULINGS §0), unless the user chose one.
    if "max_turns" not in options and any(o.name == "max_turns" for o in game.options):
        options["max_turns"] = str(DEFAULT_ARENA_MAX_TURNS.get(args.game, 200))
    players = args.players if args.players is not None else game.player_counts[0]
    config = BalanceConfig(
        game=args.game,
        games=args.games,
        bots=names,
        players=players,
        options=options,
        seed=args.seed,
        vs_options=parse_options(args.vs_option),
        vs_players=args.vs_players,
        plugins=plugins,
    )
    # Fail now, not in a worker: every rule set must make a game (InvalidOption exits 2).
    for count, opts in config.variants().values():
        game.new(count, args.seed, **opts)
    return config


def _plugins(pairs: list[str]) -> list[tuple[str, str]]:
    from .main import UsageError

    plugins = []
    for pair in pairs:
        name, sep, target = pair.partition("=")
        if not sep or ":" not in target or not name.strip():
            raise UsageError(f"--bot-plugin takes NAME=MODULE:ATTR, not {pair!r}")
        plugins.append((name.strip().lower(), target.strip()))
        register_bot(name.strip().lower(), target.strip())
    return plugins


def _bots(text: str) -> list[str]:
    from .main import UsageError

    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise UsageError("--bots: name at least one bot")
    for name in names:
        try:
            make_bot(name)
        except (UnknownBot, ImportError, AttributeError) as exc:
            raise UsageError(f"--bots: {exc}") from None
    return names


# -- printing the report ------------------------------------------------------------------------
def print_report(console: Console, report: dict[str, Any]) -> None:
    """The report's tables: per rule set, then the comparison and any crashed games."""
    config = report["config"]
    console.print(
        Text(
            f"{config['game']}: {config['games']} games per rule set, seeds "
            f"{config['seed']}..{config['seed'] + config['games'] - 1}, "
            f"bots {', '.join(config['bots'])}",
            style="bold",
        )
    )
    for name, variant in report["variants"].items():
        console.print(_summary_table(name, variant))
        for category, tallies in variant["win_rates"].items():
            console.print(_win_table(f"  win rate by {category}", tallies))
        if variant["skill"]:
            console.print(_skill_table(variant["skill"]))
    if report["comparison"]:
        console.print(_comparison_table(report["comparison"]))
    for error in report["errors"]:
        console.print(
            f"[bold red]crashed:[/bold red] {error['variant']} game {error['index']} "
            f"(seed {error['seed']}) after {error['steps']} steps: {error['error']}",
            markup=True,
            highlight=False,
        )


def _pct(value: float) -> str:
    return f"{value:.1%}"


def _ci(ci: list[float]) -> str:
    return f"{ci[0]:.1%} to {ci[1]:.1%}"


def _summary_table(name: str, variant: dict[str, Any]) -> Table:
    table = Table(
        title=Text(f"Rule set {name}: {variant['players']} players, options {variant['options']}"),
        title_justify="left",
    )
    table.add_column("metric")
    table.add_column("value", justify="right")
    table.add_column("95% interval / spread", justify="right")
    table.add_row("games finished / crashed", f"{variant['finished']} / {variant['errors']}", "")
    for what in ("decisive", "draws", "capped"):
        share = variant["outcomes"][what]
        table.add_row(what, _pct(share["rate"]), _ci(share["ci95"]))
    first = variant["first_player"]
    if first:
        table.add_row(
            "first player wins",
            _pct(first["rate"]),
            f"{_ci(first['ci95'])} (fair {_pct(first['expected'])}, p={first['p_value']:.3g})",
        )
    for key in ("steps", "turns"):
        s = variant["length"].get(key)
        if s and s["count"]:
            unit = s.get("unit", "steps")
            table.add_row(
                f"length in {unit} (mean, median)",
                f"{s['mean']:.1f}, {s['median']:g}",
                f"IQR {s['q1']:g} to {s['q3']:g}, range {s['min']:g} to {s['max']:g}",
            )
    return table


def _win_table(title: str, tallies: dict[str, Any]) -> Table:
    table = Table(title=Text(title), title_justify="left")
    for name in ("", "games", "wins", "win rate", "95% interval"):
        table.add_column(name, justify="left" if not name else "right")
    for key, t in tallies.items():
        table.add_row(Text(key), str(t["games"]), f"{t['wins']:g}", _pct(t["rate"]), _ci(t["ci95"]))
    return table


def _skill_table(skill: dict[str, Any]) -> Table:
    table = Table(title=f"  skill trace {skill['trace']:+.1%}", title_justify="left")
    for name in ("stronger - weaker", "win-rate gap", "95% interval", "p"):
        table.add_column(name, justify="right")
    for gap in skill_gaps(skill):
        table.add_row(
            f"{gap['stronger']} - {gap['weaker']}",
            f"{gap['delta']:+.1%}",
            f"{gap['ci95'][0]:+.1%} to {gap['ci95'][1]:+.1%}",
            f"{gap['p_value']:.3g}",
        )
    return table


def _comparison_table(comparison: dict[str, Any]) -> Table:
    table = Table(title="vs minus base", title_justify="left")
    for name in ("metric", "difference", "95% interval", "p (z)", "p (Fisher)"):
        table.add_column(name, justify="left" if name == "metric" else "right")
    # Bot-and-role pairs are in report.json and report.html; here they would drown the rest.
    for r in (r for r in comparison["rates"] if not r["metric"].startswith("bot_role/")):
        fisher = "-" if r["fisher_p"] is None else f"{r['fisher_p']:.3g}"
        table.add_row(
            r["metric"],
            f"{r['delta']:+.1%}",
            f"{r['ci95'][0]:+.1%} to {r['ci95'][1]:+.1%}",
            f"{r['p_value']:.3g}",
            fisher,
        )
    for v in comparison["length"].values():
        table.add_row(
            f"mean length in {v['unit']}",
            f"{v['delta']:+.1f}",
            f"{v['base_mean']:.1f} → {v['vs_mean']:.1f}",
            f"{v['p_value']:.3g}",
            "-",
        )
    return table
