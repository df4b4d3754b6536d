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
from intrigue.lab.verdict import metric_label, sweep_title

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
        "--sweep",
        action="append",
        default=[],
        metavar="NAME=V1,V2,...",
        help="play every value of an option (twice: the grid of two), compare with the first",
    )
    parser.add_argument(
        "--strategies",
        nargs="?",
        const="*",
        metavar="KIND,KIND",
        help="restricted play: one seat never takes / always prefers each action kind "
        "(default: every verb of the game); needs a single --bots",
    )
    parser.add_argument(
        "--skill-trace",
        metavar="B1,B2,...",
        help="skill trace: one ISMCTS seat with 2*B iterations against the others' B, per B",
    )
    parser.add_argument(
        "--eval-games",
        type=int,
        default=100,
        metavar="N",
        help="replay and evaluate the first N games of each rule set (100; 0: none)",
    )
    parser.add_argument(
        "--eval-points",
        type=int,
        default=12,
        metavar="K",
        help="moments of each evaluated game (12)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes (default: one per CPU; 1 plays in this process)",
    )
    parser.add_argument("--out", type=Path, metavar="DIR", help="output folder (balance-GAME)")
    parser.add_argument("--resume", action="store_true", help="keep the games already in --out")
    parser.add_argument("--overwrite", action="store_true", help="replace the run already in --out")
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
    from intrigue.lab.balance import OutputExists, ResumeMismatch

    from .main import UsageError

    try:
        run = _run_with_progress(console, config, out_dir, backend, args)
    except (ResumeMismatch, OutputExists) as exc:
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
        "left",
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
            overwrite=args.overwrite,
            progress=advance,
        )


def config_from_args(args: argparse.Namespace) -> BalanceConfig:
    """Check the command line (bots, options, counts) and build the run's configuration."""
    from intrigue.lab.balance import BalanceConfig

    from .main import UsageError, add_default_cap, parse_options

    game = intrigue.load(args.game)
    plugins = _plugins(args.bot_plugin)
    names = _bots(args.bots)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.ray_address and not args.ray:
        raise UsageError("--ray-address needs --ray")
    if args.eval_games < 0 or args.eval_points < 1:
        raise UsageError("--eval-games must be at least 0 and --eval-points at least 1")
    options: dict[str, Any] = parse_options(args.option)
    vs_options: dict[str, Any] = parse_options(args.vs_option)
    players = args.players if args.players is not None else game.player_counts[0]
    # Bots always play with a length cap (RULINGS §0), unless the user chose one; it grows with
    # the players, so a --vs-players rule set gets its own.
    if add_default_cap(options, game, players) and args.vs_players is not None:
        add_default_cap(vs_options, game, args.vs_players)
    config = BalanceConfig(
        game=args.game,
        games=args.games,
        bots=names,
        players=players,
        options=options,
        seed=args.seed,
        vs_options=vs_options,
        vs_players=args.vs_players,
        plugins=plugins,
        sweep=_sweep(args.sweep),
        strategies=_strategies(game, args.strategies, names),
        skill_levels=_skill_levels(args.skill_trace),
        eval_games=args.eval_games,
        eval_points=args.eval_points,
    )
    if config.sweep and config.compares:
        raise UsageError("--sweep compares its own points: leave out --vs-option/--vs-players")
    # Fail now, not in a worker: every rule set must make a game (InvalidOption exits 2).
    for variant in config.variants():
        game.new(variant.players, args.seed, **variant.options)
    return config


def _sweep(items: list[str]) -> list[tuple[str, list[str]]]:
    from .main import UsageError

    if len(items) > 2:
        raise UsageError("--sweep: at most two options (a grid)")
    sweep = []
    for item in items:
        name, sep, values = item.partition("=")
        found = [v.strip() for v in values.split(",") if v.strip()]
        if not sep or not name.strip() or len(found) < 2:
            raise UsageError(f"--sweep takes NAME=V1,V2,... with two values or more, not {item!r}")
        sweep.append((name.strip(), found))
    if len(sweep) == 2 and sweep[0][0] == sweep[1][0]:
        raise UsageError("--sweep: two different options make a grid")
    return sweep


def _strategies(game: Any, text: str | None, bots: list[str]) -> list[str]:
    """The action kinds to restrict: those named, or every verb of the game."""
    from .main import UsageError

    if text is None:
        return []
    if len(bots) != 1:
        raise UsageError(
            "--strategies compares one bot with its restricted self: give a single bot "
            "(e.g. --bots heuristic)"
        )
    actions = list(game.action_table)
    if text == "*":
        return sorted({a.verb for a in actions})
    kinds = [k.strip().lower() for k in text.split(",") if k.strip()]
    from intrigue.bots.restricted import matches

    for kind in kinds:
        if not any(matches(a, kind) for a in actions):
            verbs = ", ".join(sorted({a.verb for a in actions}))
            raise UsageError(f"--strategies: {game.name} has no action {kind!r} (verbs: {verbs})")
    return kinds


def _skill_levels(text: str | None) -> list[int]:
    from .main import UsageError

    if text is None:
        return []
    try:
        levels = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UsageError(
            f"--skill-trace takes iteration counts, e.g. 8,16,32, not {text!r}"
        ) from None
    if not levels or any(b < 1 for b in levels):
        raise UsageError("--skill-trace: give one or more positive iteration counts")
    return levels


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
    """The verdict, then the tables: the reference rule set (and a compared one), the
    comparison, sweep, restricted play and skill trace, and any crashed games."""
    config = report["config"]
    console.print(
        Text(
            f"{config['game']}: {config['games']} games per variant, seeds "
            f"{config['seed']}..{config['seed'] + config['games'] - 1}, "
            f"bots {', '.join(config['bots'])}",
            style="bold",
        )
    )
    console.print(Text("Verdict", style="bold underline"))
    for sentence in report["verdict"]:
        style = "bold" if sentence["level"] == "finding" else ""
        console.print(Text("• " + sentence["text"], style=style))
    for name, variant in report["variants"].items():
        if variant["study"] not in ("reference", "vs"):
            continue
        console.print(_summary_table(name, variant))
        for category, tallies in variant["win_rates"].items():
            console.print(
                _win_table(f"  win rate by {category}", tallies, variant["fairness"].get(category))
            )
        if variant["skill"]:
            console.print(_skill_table(variant["skill"]))
        if variant["rules"]:
            console.print(_rules_table(variant["rules"]))
    if report["comparison"]:
        console.print(_comparison_table(report["comparison"], "vs against base"))
    if report.get("sweep"):
        for name, table in report["sweep"]["comparisons"].items():
            title = sweep_title(name, report["sweep"]["reference"])
            console.print(_comparison_table(table, title))
    if report.get("strategies"):
        console.print(_strategies_table(report["strategies"]))
    if report.get("skill_trace"):
        console.print(_skill_trace_table(report["skill_trace"]))
    for error in report["errors"]:
        console.print(
            f"[bold red]crashed:[/bold red] {error['variant']} game {error['index']} "
            f"(seed {error['seed']}) after {error['steps']} steps: {error['error']}",
            markup=True,
            highlight=False,
        )


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _ci(ci: list[float]) -> str:
    return f"{ci[0]:.1%} to {ci[1]:.1%}"


def _points(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:+.1f}"


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def _summary_table(name: str, variant: dict[str, Any]) -> Table:
    table = Table(
        title=Text(f"Rule set {name}: {variant['players']} players, options {variant['options']}"),
        title_justify="left",
    )
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("95% interval / spread", justify="right")
    table.add_row("games finished / crashed", f"{variant['finished']} / {variant['errors']}", "")
    labels = {
        "decisive": "won by the rules",
        "draws": "drawn by the rules",
        "capped": "cut off by the turn cap",
    }
    for what, label in labels.items():
        share = variant["outcomes"][what]
        table.add_row(label, _pct(share["rate"]), _ci(share["ci95"]))
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
    rep = variant.get("repetition")
    if rep:
        table.add_row(
            f"games with a loop ({rep['loop_threshold']}+ repeats)",
            _pct(rep["loops"]["rate"]),
            f"{_pct(rep['loops_in_capped']['rate'])} of capped games",
        )
    branching = variant.get("branching")
    if branching:
        table.add_row(
            "legal moves per decision (mean, most)",
            f"{branching['branching_factor']:.1f}",
            f"most {branching['max']}, {_pct(branching['decision_moves'])} with a choice",
        )
    return table


def _win_table(title: str, tallies: dict[str, Any], fair: dict[str, Any] | None) -> Table:
    if fair and fair.get("test"):
        test = fair["test"]
        title += f" (fair {_pct(fair['fair'])}; chi-square p={test['p_value']:.3g}, games as units)"
    table = Table(title=Text(title), title_justify="left")
    for name in ("", "games", "wins", "win rate", "95% interval", "z vs fair"):
        table.add_column(name, justify="left" if not name else "right")
    for key, t in tallies.items():
        z = ((fair or {}).get("keys") or {}).get(key)
        table.add_row(
            Text(key),
            str(t["games"]),
            f"{t['wins']:g}",
            _pct(t["rate"]),
            _ci(t["ci95"]),
            f"{z['z']:+.1f}" if z else "-",
        )
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


def _rules_table(rules: list[dict[str, Any]]) -> Table:
    table = Table(
        title="  how often each action kind was used (events and cards: report.html)",
        title_justify="left",
    )
    for name in ("action", "games", "share", "per game", "win rate if used", "if not"):
        table.add_column(name, justify="left" if name == "action" else "right")
    for r in rules:
        if r["kind"] != "action" or r["detail"]:
            continue
        given = r["given"]
        table.add_row(
            r["rule"],
            f"{r['games']['count']:g}",
            _pct(r["games"]["rate"]),
            f"{r['per_game']:.2f}",
            _pct(given["fired"]["rate"]) if given else "-",
            _pct(given["not_fired"]["rate"]) if given and given["not_fired"]["games"] else "-",
        )
    return table


def _comparison_table(comparison: dict[str, Any], title: str) -> Table:
    paired = comparison.get("paired", True)
    if paired:
        title += (
            f" ({comparison['pairs']} paired games, {_pct(comparison['identical']['rate'])} "
            "identical)"
        )
    table = Table(title=title, title_justify="left")
    for name in ("measure", "base", "vs", "difference", "95% interval", "p", "p (Holm)"):
        table.add_column(name, justify="left" if name == "measure" else "right")
    # Bot-and-role pairs are in report.json and report.html; here they would drown the rest.
    for r in (r for r in comparison["rates"] if not r["metric"].startswith("bot_role/")):
        table.add_row(
            metric_label(r["metric"]),
            _pct(r.get("base_rate")),
            _pct(r.get("vs_rate")),
            _points(r["delta"]),
            f"{_points(r['ci95'][0])} to {_points(r['ci95'][1])}",
            _p(r["p_value"]),
            _p(r.get("holm_p")),
        )
    for key, v in comparison["length"].items():
        table.add_row(
            f"mean length in {v.get('unit', key)}",
            f"{v['base_mean']:.1f}",
            f"{v['vs_mean']:.1f}",
            f"{v['mean_difference']:+.1f}",
            f"{v['ci95'][0]:+.1f} to {v['ci95'][1]:+.1f}" if "ci95" in v else "-",
            _p(v.get("wilcoxon_p", v["p_value"])),
            _p(v.get("holm_p")),
        )
    return table


def _strategies_table(study: dict[str, Any]) -> Table:
    table = Table(
        title=f"Restricted play ({study['bot']}): the restricted seat against the unrestricted bot",
        title_justify="left",
    )
    for name in (
        "restriction",
        "restricted wins",
        "unrestricted",
        "difference",
        "p",
        "p (Holm)",
        "identical",
    ):
        table.add_column(name, justify="left" if name == "restriction" else "right")
    for e in study["entries"]:
        table.add_row(
            f"{e['mode']} {e['kind']}",
            _pct(e["restricted"]["rate"]),
            _pct(e["unrestricted"]["rate"]),
            _points(e["delta"]),
            _p(e["p_value"]),
            _p(e["holm_p"]),
            _pct(e["identical"]["rate"]),
        )
    return table


def _skill_trace_table(trace: dict[str, Any]) -> Table:
    score = "-" if trace["score"] is None else f"{trace['score']:.3f}"
    table = Table(
        title=f"Skill trace (ISMCTS, doubled iterations): score {score}", title_justify="left"
    )
    for name in ("iterations", "stronger wins", "95% interval", "fair share", "p"):
        table.add_column(name, justify="right")
    for e in trace["levels"]:
        table.add_row(
            f"{e['strong']} vs {e['weak']}",
            _pct(e["stronger"]["rate"]),
            _ci(e["stronger"]["ci95"]),
            _pct(e["fair"]),
            _p(e["p_value"]),
        )
    return table
