"""The studies a run may add to its reference variant: a parameter sweep, restricted play
(dominant strategies) and the skill trace. Each reads the variants' rows and reports."""

from __future__ import annotations

import statistics
from typing import Any

from .design import BalanceConfig, Variant
from .paired import compare_paired
from .stats import Tally, holm, one_proportion_z_test

Rows = dict[str, list[dict[str, Any]]]
# Seat labels a restricted seat's result is also broken down by.
FOCUS_CATEGORIES = ("role", "faction")


def _ok(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["status"] == "ok"]


# -- parameter sweeps -----------------------------------------------------------------------------
def sweep_report(config: BalanceConfig, rows: Rows) -> dict[str, Any] | None:
    """Each point of the sweep against the first, paired on the seeds."""
    points = [v for v in config.variants() if v.study == "sweep"]
    if not points:
        return None
    first = points[0]
    return {
        "options": [name for name, _ in config.sweep],
        "values": [list(values) for _, values in config.sweep],
        "points": [{"variant": v.name, "setting": v.setting} for v in points],
        "reference": first.name,
        "comparisons": {v.name: compare_paired(rows[first.name], rows[v.name]) for v in points[1:]},
    }


# -- restricted play ------------------------------------------------------------------------------
def strategies_report(config: BalanceConfig, rows: Rows) -> dict[str, Any] | None:
    """For each action kind and restriction, the restricted seat's win rate against the
    unrestricted bot's in the same seat and seeds (the reference games), the exact paired
    test, Holm-adjusted over the table, and the share of games the restriction left as they
    were (the kind never came up, or the bot would have done the same anyway)."""
    studied = [v for v in config.variants() if v.study in ("never", "prefer")]
    if not studied:
        return None
    reference = _ok(rows[config.reference])
    entries = [_strategy(v, reference, _ok(rows[v.name])) for v in studied]
    for entry, p in zip(entries, holm([e["p_value"] for e in entries]), strict=True):
        entry["holm_p"] = p
    return {"bot": config.bots[0], "entries": entries}


def _strategy(
    variant: Variant, reference: list[dict[str, Any]], games: list[dict[str, Any]]
) -> dict[str, Any]:
    by_index = {r["index"]: r for r in reference}
    restricted, unrestricted = Tally(), Tally()
    # The focus seat's role or faction: a restriction may matter to one role only.
    by: dict[str, dict[str, tuple[Tally, Tally]]] = {}
    for row in games:
        ref = by_index.get(row["index"])
        if ref is None:
            continue
        focus = row["focus"]
        restricted.add(row["results"][focus])
        unrestricted.add(ref["results"][focus])
        for category, labels in (row.get("labels") or {}).items():
            theirs = (ref.get("labels") or {}).get(category)
            if category in FOCUS_CATEGORIES and theirs and theirs[focus] == labels[focus]:
                cell = by.setdefault(category, {}).setdefault(labels[focus], (Tally(), Tally()))
                cell[0].add(row["results"][focus])
                cell[1].add(ref["results"][focus])
    paired = compare_paired(reference, games, per_seat=False)
    focus = next((r for r in paired["rates"] if r["metric"] == "focus/win"), None)
    return {
        "variant": variant.name,
        "mode": variant.study,
        "kind": variant.setting["kind"],
        "restricted": restricted.to_json(),
        "unrestricted": unrestricted.to_json(),
        "delta": focus["delta"] if focus else None,
        "ci95": focus["ci95"] if focus else None,
        "p_value": focus["p_value"] if focus else None,
        "identical": paired["identical"],
        "by": {
            category: {
                label: {
                    "restricted": mine.to_json(),
                    "unrestricted": theirs.to_json(),
                    "delta": mine.rate - theirs.rate,
                }
                for label, (mine, theirs) in sorted(cells.items())
            }
            for category, cells in sorted(by.items())
        },
    }


# -- the skill trace ------------------------------------------------------------------------------
def skill_trace_report(config: BalanceConfig, rows: Rows) -> dict[str, Any] | None:
    """Ludii's skill trace with ISMCTS: at each level one seat searches with twice the
    iterations of the others. Per level the stronger seat's win rate against its fair share
    (the mean seat result of those games), and the trace score: Ludii's formula on the
    stronger seat's mean return per level u_k — the next level's u predicted by a straight
    line, clamped to [0, 1], plus (1 - that) times the mean of max(u_k, 0)^2 (Ludii sums the
    squares; the mean keeps the score in [0, 1])."""
    levels = [v for v in config.variants() if v.study == "skill"]
    if not levels:
        return None
    entries = []
    for variant in levels:
        games = _ok(rows[variant.name])
        strong, every = Tally(), Tally()
        returns = []
        for row in games:
            strong.add(row["results"][row["focus"]])
            returns.append(row["returns"][row["focus"]])
            for result in row["results"]:
                every.add(result)
        z, p = one_proportion_z_test(strong.wins, strong.games, every.rate)
        entries.append(
            {
                "variant": variant.name,
                **variant.setting,
                "stronger": strong.to_json(),
                "fair": every.rate,
                "edge": strong.rate - every.rate,
                "z": z,
                "p_value": p,
                "mean_return": statistics.fmean(returns) if returns else None,
            }
        )
    utilities = [e["mean_return"] for e in entries if e["mean_return"] is not None]
    return {"levels": entries, "score": ludii_skill_score(utilities)}


def ludii_skill_score(utilities: list[float]) -> float | None:
    """Ludii's skill-trace formula (see `skill_trace_report`) on mean returns per level."""
    n = len(utilities)
    if n == 0:
        return None
    if n == 1:
        predicted = utilities[0]
    else:
        xs = list(range(n))
        slope, intercept = statistics.linear_regression(xs, utilities)
        predicted = intercept + slope * n
    predicted = min(max(predicted, 0.0), 1.0)
    area = statistics.fmean(max(u, 0.0) ** 2 for u in utilities)
    return predicted + (1 - predicted) * area


def focus_rate(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The focus seat's win rate over a variant's games (restricted play, skill trace)."""
    tally = Tally()
    for row in rows:
        if row.get("focus") is not None:
            tally.add(row["results"][row["focus"]])
    return tally.to_json() if tally.games else None
