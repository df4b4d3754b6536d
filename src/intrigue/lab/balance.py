"""The balance lab: many seeded self-play games, and a report of how balanced the game is.

A run plays ``games`` games of each variant (`design`: the reference rules, a compared rule
set, sweep points, restricted play, skill-trace levels), game ``i`` with seed ``seed + i``.
The report is a pure function of the finished games' rows, sorted by game, so it is the same
whatever backend or number of workers played them, and whether or not the run was interrupted
and resumed. See docs/balance.md for what each measure means.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from intrigue.bots import register_bot
from intrigue.engine import load

from .design import BASE, VS, BalanceConfig, Variant
from .facts import turn_unit
from .metrics import (
    branching,
    evaluation,
    fairness,
    outcomes,
    repetition,
    rules,
    score_margins,
)
from .paired import adjust, compare_paired
from .provenance import (
    OutputExists,
    ResumeMismatch,
    prepare_out_dir,
    run_record,
)
from .report_html import write_report_html
from .runner import GameStream, GameTask, read_rows, run_tasks
from .skill import skill_report
from .stats import (
    Z95,
    Tally,
    compare_tallies,
    normal_two_sided_p,
    one_proportion_z_test,
    summarize,
    welch_z_test,
)
from .studies import focus_rate, skill_trace_report, strategies_report, sweep_report
from .verdict import verdict

__all__ = [
    "BASE",
    "VS",
    "BalanceConfig",
    "BalanceRun",
    "OutputExists",
    "ResumeMismatch",
    "build_report",
    "run_balance",
]

SCHEMA = "intrigue.balance/2"
# Studies whose variants get every measure (the others: outcomes, win rates, lengths).
FULL_REPORTS = ("reference", "vs", "sweep")
# Seat label categories, in the order reports show them.
CATEGORIES = ("seat", "bot", "role", "team", "faction", "bot_role")


@dataclass
class BalanceRun:
    """A finished run: the report and where its files are."""

    report: dict[str, Any]
    rows: list[dict[str, Any]]
    out_dir: Path
    played: int
    resumed: int


# -- running ------------------------------------------------------------------------------------
def run_balance(
    config: BalanceConfig,
    out_dir: Path,
    *,
    backend: str = "process",
    workers: int = 1,
    ray_address: str | None = None,
    resume: bool = False,
    overwrite: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> BalanceRun:
    """Play the games not already in ``out_dir`` (with ``resume``), stream each to
    ``games.jsonl``, then write ``report.json`` and ``report.html``; ``progress(done, total)``
    after each game. Refuses (`OutputExists`) to write into a folder holding another run
    unless ``resume`` or ``overwrite``, and (`ResumeMismatch`) to resume one of other settings,
    rules, bots or package version."""
    for name, target in config.plugins:
        register_bot(name, target)
    record = run_record(config)
    prepare_out_dir(out_dir, record, resume=resume, overwrite=overwrite)
    tasks = config.tasks()
    planned = {t.key for t in tasks}
    # Every game already on disk stays there (a resumed run may ask for fewer games than an
    # earlier one); only the planned ones count in the report.
    saved = _saved_rows(out_dir) if resume else []
    kept = [r for r in saved if (r["variant"], r["index"]) in planned]
    (out_dir / "run.json").write_text(json.dumps(record, indent=2) + "\n")
    done = {(r["variant"], r["index"]) for r in kept}
    todo = [t for t in tasks if t.key not in done]

    def advance(played: int) -> None:
        if progress is not None:
            progress(len(kept) + played, len(tasks))

    advance(0)
    started = time.perf_counter()
    stream = GameStream(out_dir / "games.jsonl", saved)
    rows = kept + _play(todo, stream, backend, workers, ray_address, advance)
    seconds = time.perf_counter() - started
    report = build_report(config, rows)
    report["run"] = {
        "backend": backend,
        "workers": workers,
        "played": len(todo),
        "resumed": len(kept),
        "seconds": round(seconds, 3),
        "games_per_second": round(len(todo) / seconds, 2) if seconds > 0 else None,
        "code": record["code"],
        "rules": record["rules"],
        "bots": {name: p["sha256"] for name, p in record["bots"].items()},
    }
    rows = sort_rows(config, rows)
    write_outputs(report, rows, out_dir)
    return BalanceRun(report, rows, out_dir, len(todo), len(kept))


def _play(
    tasks: list[GameTask],
    stream: GameStream,
    backend: str,
    workers: int,
    ray_address: str | None,
    advance: Callable[[int], None],
) -> list[dict[str, Any]]:
    """Play ``tasks``, streaming each finished game to disk as it comes in."""
    rows = []
    try:
        for row in run_tasks(tasks, backend, workers, ray_address):
            stream.write(row)
            rows.append(row)
            advance(len(rows))
    finally:
        stream.close()
    return rows


def write_outputs(report: dict[str, Any], rows: list[dict[str, Any]], out_dir: Path) -> None:
    """``report.json``, the self-contained ``report.html``, and one replay record per crash."""
    (out_dir / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    write_report_html(report, rows, out_dir)
    for error in report["errors"]:
        if error["record"] is not None:
            path = out_dir / f"crash-{error['variant']}-{error['index']}.json".replace(":", "_")
            path.write_text(json.dumps(error["record"], indent=2) + "\n")


def _saved_rows(out_dir: Path) -> list[dict[str, Any]]:
    """The games a resumed run keeps (checked to be of the same run by `prepare_out_dir`)."""
    # The last copy of a game wins, should a file have been appended to by hand.
    unique = {(r["variant"], r["index"]): r for r in read_rows(out_dir / "games.jsonl")}
    return list(unique.values())


def sort_rows(config: BalanceConfig, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in game order: by variant (the run's order), then game index."""
    order = {v.name: i for i, v in enumerate(config.variants())}
    return sorted(rows, key=lambda r: (order.get(r["variant"], len(order)), r["index"]))


# -- the report ---------------------------------------------------------------------------------
def build_report(config: BalanceConfig, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole report (without run timings) from the games' rows."""
    rows = sort_rows(config, rows)
    by_variant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_variant[row["variant"]].append(row)
    verbs = sorted({a.verb for a in load(config.game).action_table})
    variants = {
        v.name: variant_report(config.game, v, by_variant[v.name], verbs) for v in config.variants()
    }
    comparison = None
    if VS in variants:
        comparison = _compare_vs(config, variants, by_variant)
    sweep = sweep_report(config, by_variant)
    tables = [comparison] if comparison else []
    if sweep:
        tables += list(sweep["comparisons"].values())
    for table in tables:
        for key, length in table["length"].items():
            length["unit"] = turn_unit(config.game) if key == "turns" else "steps"
    adjust(tables)
    report: dict[str, Any] = {
        "schema": SCHEMA,
        "config": config.to_json(),
        "reference": config.reference,
        "variants": variants,
        "comparison": comparison,
        "sweep": sweep,
        "strategies": strategies_report(config, by_variant),
        "skill_trace": skill_trace_report(config, by_variant),
        "errors": [_error_entry(r) for r in rows if r["status"] != "ok"],
    }
    report["verdict"] = verdict(report)
    return report


def _compare_vs(
    config: BalanceConfig,
    variants: dict[str, dict[str, Any]],
    rows: dict[str, list[dict[str, Any]]],
) -> dict[str, Any]:
    """The vs rule set against the base: paired on the seeds at the same player count,
    otherwise as independent samples (another player count makes other games)."""
    base, vs = variants[config.reference], variants[VS]
    if base["players"] == vs["players"]:
        return {"paired": True, **compare_paired(rows[config.reference], rows[VS])}
    return {"paired": False, **compare(base, vs)}


def _error_entry(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("variant", "index", "seed", "bots", "error", "steps", "traceback", "record")
    return {k: row.get(k) for k in keys}


def variant_report(
    game_id: str, variant: Variant, rows: list[dict[str, Any]], verbs: list[str]
) -> dict[str, Any]:
    """Every measure of one variant."""
    ok = [r for r in rows if r["status"] == "ok"]
    by = tallies(ok)
    steps = [float(r["steps"]) for r in ok]
    turns = [float(r["turns"]) for r in ok if r.get("turns") is not None]
    # Restricted play and skill levels are read through their focus seat: the rest of the
    # report stays with the rule sets, keeping report.json small for runs of many variants.
    full = variant.study in FULL_REPORTS
    report = {
        "players": variant.players,
        "options": variant.options,
        "bots": list(variant.bots),
        "focus": variant.focus,
        "study": variant.study,
        "setting": variant.setting,
        "games": len(rows),
        "finished": len(ok),
        "errors": len(rows) - len(ok),
        "outcomes": outcomes(ok),
        "win_rates": {k: {str(n): t.to_json() for n, t in v.items()} for k, v in by.items()},
        "focus_rate": focus_rate(ok),
        "fairness": fairness({k: {str(n): t for n, t in v.items()} for k, v in by.items()}, ok),
        "first_player": first_player_report(ok),
        "length": {
            "steps": summarize(steps),
            "turns": {**summarize(turns), "unit": turn_unit(game_id)} if turns else None,
        },
        "reasons": reasons(ok),
        "skill": skill_report(by.get("bot", {})),
        "rules": rules(ok, verbs) if full else None,
        "repetition": repetition(ok) if full else None,
        "branching": branching(ok) if full else None,
        "scores": score_margins(game_id, ok) if full else None,
        "evaluation": evaluation(ok) if full else None,
    }
    report["ludii"] = ludii_names(report)
    return report


def ludii_names(variant: dict[str, Any]) -> dict[str, float | None]:
    """The variant's measures under Ludii's metric names (docs/balance.md lists them)."""

    def value(*path: str) -> Any:
        node: Any = variant
        for key in path:
            if not isinstance(node, dict) or node.get(key) is None:
                return None
            node = node[key]
        return node

    evaluated = variant.get("evaluation") or {}

    def mean(key: str) -> float | None:
        return (evaluated.get(key) or {}).get("mean")

    return {
        "Completion": value("outcomes", "completion", "rate"),
        "Drawishness": value("outcomes", "draws", "rate"),
        "Timeouts": value("outcomes", "capped", "rate"),
        "AdvantageP1": value("first_player", "rate"),
        "Balance": value("fairness", "seat", "balance"),
        "DurationTurns": value("length", "turns", "mean"),
        "DurationMoves": value("length", "steps", "mean"),
        "BranchingFactor": value("branching", "branching_factor"),
        "DecisionMoves": value("branching", "decision_moves"),
        "PositionalRepetition": value("repetition", "positional_repetition"),
        "ScoreDifference": value("scores", "top_two_gap", "mean"),
        "LeadChange": mean("lead_change"),
        "Stability": mean("stability"),
        "Drama": mean("drama"),
        "ClarityVariance": mean("clarity_variance"),
        "ClarityNarrowness": mean("clarity_narrowness"),
    }


def tallies(rows: list[dict[str, Any]]) -> dict[str, dict[Any, Tally]]:
    """Win tallies by seat, bot, seat label (role, faction), bot and role, and team.

    Seat-based categories count one result per seat per game; a team counts one result per
    game (its members share it), so its interval is not narrowed by counting a game twice.
    """
    out: dict[str, dict[Any, Tally]] = {c: defaultdict(Tally) for c in CATEGORIES}
    for row in rows:
        results, labels = row["results"], row.get("labels") or {}
        for seat, result in enumerate(results):
            out["seat"][seat].add(result)
            out["bot"][row["bots"][seat]].add(result)
            for category in ("role", "faction"):
                if category in labels:
                    out[category][labels[category][seat]].add(result)
            if "role" in labels:
                out["bot_role"][f"{row['bots'][seat]}/{labels['role'][seat]}"].add(result)
        for team, members in _teams(labels.get("team")).items():
            out["team"][team].add(sum(results[s] for s in members) / len(members))
    return {c: dict(sorted(t.items())) for c, t in out.items() if t}


def _teams(teams: list[str] | None) -> dict[str, list[int]]:
    members: dict[str, list[int]] = defaultdict(list)
    for seat, team in enumerate(teams or []):
        members[team].append(seat)
    return members


def first_player_report(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How often the seat that moved first won, against a seat's fair share.

    The fair share is the mean result of a seat in the same games: 1/players when every game
    has one winner, more when draws give every seat a half.
    """
    first, every = Tally(), Tally()
    for row in rows:
        if row.get("first") is not None:
            first.add(row["results"][row["first"]])
            for result in row["results"]:
                every.add(result)
    if first.games == 0:
        return None  # no turns (simultaneous play): no first player
    expected = every.rate
    z, p = one_proportion_z_test(first.wins, first.games, expected)
    return {
        **first.to_json(),
        "expected": expected,
        "advantage": first.rate - expected,
        "z": z,
        "p_value": p,
    }


def reasons(rows: list[dict[str, Any]]) -> dict[str, int]:
    """How games ended, by reason with seat numbers and counts masked ("seat # died")."""
    counts = Counter(re.sub(r"\d+", "#", r["reason"]) for r in rows)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


# -- comparing two rule sets of different player counts -------------------------------------------
def compare(base: dict[str, Any], vs: dict[str, Any]) -> dict[str, Any]:
    """Each rate of the "vs" rule set minus the base one, as independent samples.

    Per-seat categories (seats, roles, ...) are compared only at equal player counts: with
    another count a seat's fair share changes, so its raw rate says nothing about balance.
    """
    rates = [
        {
            "metric": f"outcome/{name}",
            **_compare_counts(base["outcomes"][name], vs["outcomes"][name]),
        }
        for name in ("decisive", "draws", "capped")
    ]
    if base["first_player"] and vs["first_player"]:
        rates.append({"metric": "first_player/advantage", **_compare_advantage(base, vs)})
    if base["players"] == vs["players"]:
        for category in CATEGORIES:
            ours, theirs = base["win_rates"].get(category, {}), vs["win_rates"].get(category, {})
            for key in sorted(set(ours) & set(theirs)):
                rates.append(
                    {
                        "metric": f"{category}/{key}",
                        **compare_tallies(_tally(ours[key]), _tally(theirs[key])),
                    }
                )
    return {"rates": rates, "length": _compare_lengths(base, vs)}


def _tally(data: dict[str, Any]) -> Tally:
    return Tally(float(data["wins"]), int(data["games"]))


def _compare_counts(base: dict[str, Any], vs: dict[str, Any]) -> dict[str, Any]:
    found = compare_tallies(Tally(base["count"], base["games"]), Tally(vs["count"], vs["games"]))
    return {"base_rate": base["rate"], "vs_rate": vs["rate"], **found}


def _compare_advantage(base: dict[str, Any], vs: dict[str, Any]) -> dict[str, Any]:
    """Change of the first-player advantage (win rate minus fair share).

    The fair shares are constants of each rule set, so the advantages have the variances of
    the rates (unpooled Wald test); Fisher's test applies only when the fair shares are equal.
    """
    one, two = base["first_player"], vs["first_player"]
    delta = two["advantage"] - one["advantage"]
    error = math.sqrt(_variance(one) + _variance(two))
    z = delta / error if error > 0 else 0.0
    same_share = math.isclose(one["expected"], two["expected"])
    return {
        "base_rate": one["advantage"],
        "vs_rate": two["advantage"],
        "delta": delta,
        "ci95": [delta - Z95 * error, delta + Z95 * error],
        "z": z,
        "p_value": normal_two_sided_p(z) if error > 0 else 1.0,
        "fisher_p": compare_tallies(_tally(one), _tally(two))["fisher_p"] if same_share else None,
    }


def _variance(tally: dict[str, Any]) -> float:
    rate, games = tally["rate"], tally["games"]
    return rate * (1 - rate) / games if games else 0.0


def _compare_lengths(base: dict[str, Any], vs: dict[str, Any]) -> dict[str, Any]:
    """Mean game length in steps (and turns) of both rule sets, with Welch's test."""
    out = {}
    for key in ("steps", "turns"):
        one, two = base["length"].get(key), vs["length"].get(key)
        if not one or not two or not one["count"] or not two["count"]:
            continue
        _, p = welch_z_test(
            two["mean"], two["stdev"], two["count"], one["mean"], one["stdev"], one["count"]
        )
        out[key] = {
            "unit": one.get("unit", "steps"),
            "base_mean": one["mean"],
            "vs_mean": two["mean"],
            "mean_difference": two["mean"] - one["mean"],
            "p_value": p,
        }
    return out
