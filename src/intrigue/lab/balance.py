"""The balance lab: many seeded self-play games, and a report of how balanced the game is.

A run plays ``games`` games for each rule set ("base", and "vs" when options or the player
count are compared), game ``i`` with seed ``seed + i`` and bot ``(seat + i) % len(bots)`` on
each seat. The report is a pure function of the finished games' rows, sorted by game, so it is
the same whatever backend or number of workers played them, and whether or not the run was
interrupted and resumed. See docs/balance.md for what each metric means.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .facts import turn_unit
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
    wilson_interval,
)

SCHEMA = "intrigue.balance/1"
BASE, VS = "base", "vs"
# Seat label categories, in the order reports show them.
CATEGORIES = ("seat", "bot", "role", "team", "faction", "bot_role")


@dataclass
class BalanceConfig:
    """What to play: the game, bots, rule set(s) and how many games of each."""

    game: str
    games: int
    bots: list[str]
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    vs_options: dict[str, Any] = field(default_factory=dict)
    vs_players: int | None = None
    plugins: list[tuple[str, str]] = field(default_factory=list)

    @property
    def compares(self) -> bool:
        return bool(self.vs_options) or self.vs_players is not None

    def variants(self) -> dict[str, tuple[int, dict[str, Any]]]:
        """Each rule set's player count and options; "vs" is the base changed by the vs ones."""
        variants = {BASE: (self.players, dict(self.options))}
        if self.compares:
            players = self.vs_players if self.vs_players is not None else self.players
            variants[VS] = (players, {**self.options, **self.vs_options})
        return variants

    def seats(self, index: int, players: int) -> tuple[str, ...]:
        """The bots of game ``index``: the list rotated by one seat per game."""
        return tuple(self.bots[(seat + index) % len(self.bots)] for seat in range(players))

    def tasks(self) -> list[GameTask]:
        """Every game of the run, the rule sets interleaved so a partial run stays paired."""
        variants = self.variants()
        return [
            GameTask(
                self.game,
                name,
                index,
                self.seed + index,
                players,
                self.seats(index, players),
                options,
                tuple(self.plugins),
            )
            for index in range(self.games)
            for name, (players, options) in variants.items()
        ]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["plugins"] = [list(p) for p in self.plugins]
        return data

    def same_run(self, other: dict[str, Any]) -> bool:
        """Whether a saved config plays the same games (the game count may differ)."""
        mine = {k: v for k, v in self.to_json().items() if k != "games"}
        return mine == {k: v for k, v in other.items() if k != "games"}


class ResumeMismatch(ValueError):
    """``--resume`` in a directory whose games were played with other settings."""


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
    progress: Callable[[int, int], None] | None = None,
) -> BalanceRun:
    """Play the games not already in ``out_dir`` (with ``resume``), stream each to
    ``games.jsonl``, then write ``report.json``; ``progress(done, total)`` after each game."""
    out_dir.mkdir(parents=True, exist_ok=True)
    tasks = config.tasks()
    planned = {t.key for t in tasks}
    # Every game already on disk stays there (a resumed run may ask for fewer games than an
    # earlier one); only the planned ones count in the report.
    saved = _saved_rows(config, out_dir) if resume else []
    kept = [r for r in saved if (r["variant"], r["index"]) in planned]
    (out_dir / "run.json").write_text(json.dumps(config.to_json(), indent=2) + "\n")
    done = {(r["variant"], r["index"]) for r in kept}
    todo = [t for t in tasks if t.key not in done]

    def advance(played: int) -> None:
        if progress is not None:
            progress(len(kept) + played, len(tasks))

    started = time.perf_counter()
    stream = GameStream(out_dir / "games.jsonl", saved)
    rows = kept + _play(todo, stream, backend, workers, ray_address, advance)
    report = build_report(config, rows)
    report["run"] = {
        "backend": backend,
        "workers": workers,
        "played": len(todo),
        "resumed": len(kept),
        "seconds": round(time.perf_counter() - started, 3),
    }
    rows = sort_rows(rows)
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
    """``report.json``, ``report.html`` with its plots, and one replay record per crash."""
    (out_dir / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    write_report_html(report, rows, out_dir)
    for error in report["errors"]:
        if error["record"] is not None:
            path = out_dir / f"crash-{error['variant']}-{error['index']}.json"
            path.write_text(json.dumps(error["record"], indent=2) + "\n")


def _saved_rows(config: BalanceConfig, out_dir: Path) -> list[dict[str, Any]]:
    """The games a resumed run keeps: those on disk, checked to be of the same settings."""
    saved = out_dir / "run.json"
    if saved.exists() and not config.same_run(json.loads(saved.read_text())):
        raise ResumeMismatch(
            f"{out_dir} holds games played with other settings (see {saved}); "
            "use another --out or drop --resume"
        )
    # The last copy of a game wins, should a file have been appended to by hand.
    unique = {(r["variant"], r["index"]): r for r in read_rows(out_dir / "games.jsonl")}
    return list(unique.values())


def sort_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in game order: by rule set, then game index."""
    order = {BASE: 0, VS: 1}
    return sorted(rows, key=lambda r: (order.get(r["variant"], 2), r["index"]))


# -- the report ---------------------------------------------------------------------------------
def build_report(config: BalanceConfig, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The whole report (without run timings) from the games' rows."""
    rows = sort_rows(rows)
    variants = {
        name: variant_report(
            config.game, players, options, [r for r in rows if r["variant"] == name]
        )
        for name, (players, options) in config.variants().items()
    }
    report: dict[str, Any] = {
        "schema": SCHEMA,
        "config": config.to_json(),
        "variants": variants,
        "comparison": compare(variants[BASE], variants[VS]) if VS in variants else None,
        "errors": [_error_entry(r) for r in rows if r["status"] != "ok"],
    }
    return report


def _error_entry(row: dict[str, Any]) -> dict[str, Any]:
    keys = ("variant", "index", "seed", "bots", "error", "steps", "traceback", "record")
    return {k: row.get(k) for k in keys}


def variant_report(
    game_id: str, players: int, options: dict[str, Any], rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """Every metric of one rule set."""
    ok = [r for r in rows if r["status"] == "ok"]
    steps = [float(r["steps"]) for r in ok]
    by = tallies(ok)
    turns = [float(r["turns"]) for r in ok if r.get("turns") is not None]
    return {
        "players": players,
        "options": options,
        "games": len(rows),
        "finished": len(ok),
        "errors": len(rows) - len(ok),
        "outcomes": {
            "decisive": proportion(sum(not r["draw"] and not r["capped"] for r in ok), len(ok)),
            "draws": proportion(sum(bool(r["draw"]) for r in ok), len(ok)),
            "capped": proportion(sum(bool(r["capped"]) for r in ok), len(ok)),
        },
        "win_rates": {k: {str(n): t.to_json() for n, t in v.items()} for k, v in by.items()},
        "first_player": first_player_report(ok, players),
        "length": {
            "steps": summarize(steps),
            "turns": {**summarize(turns), "unit": turn_unit(game_id)} if turns else None,
        },
        "reasons": reasons(ok),
        "skill": skill_report(by.get("bot", {})),
    }


def proportion(count: int, total: int) -> dict[str, Any]:
    low, high = wilson_interval(count, total)
    return {
        "count": count,
        "games": total,
        "rate": count / total if total else 0.0,
        "ci95": [low, high],
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


def first_player_report(rows: list[dict[str, Any]], players: int) -> dict[str, Any] | None:
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


# -- comparing two rule sets --------------------------------------------------------------------
def compare(base: dict[str, Any], vs: dict[str, Any]) -> dict[str, Any]:
    """Each rate of the "vs" rule set minus the base one, with significance tests.

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
    return compare_tallies(Tally(base["count"], base["games"]), Tally(vs["count"], vs["games"]))


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
            "delta": two["mean"] - one["mean"],
            "p_value": p,
        }
    return out
