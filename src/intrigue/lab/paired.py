"""Comparing two variants game by game: the same seed in both is a pair.

A rule change often leaves most of a game alone, so comparing the two variants as if their
games were independent wastes most of the evidence. Here every measure is compared within the
pairs: a 0/1 measure (decided, capped, a seat won) by the exact McNemar test on the pairs that
disagree (with draws worth 1/2 the same exact sign test), lengths by the mean paired difference
(normal approximation of the paired t-test) and the Wilcoxon signed-rank test. The share of
pairs where the variant changed nothing at all (the very same moves) is reported as well.
Every p-value of a report's comparison tables is then Holm-adjusted together (`adjust`).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from typing import Any

from .metrics import proportion
from .stats import Z95, holm, paired_summary, sign_test

PairList = list[tuple[float, float]]


def pair_rows(
    reference: list[dict[str, Any]], variant: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(reference, variant) rows of the same game index, both finished."""
    mine = {r["index"]: r for r in reference if r["status"] == "ok"}
    return [(mine[r["index"]], r) for r in variant if r["status"] == "ok" and r["index"] in mine]


def compare_paired(
    reference: list[dict[str, Any]],
    variant: list[dict[str, Any]],
    *,
    per_seat: bool = True,
) -> dict[str, Any]:
    """Every measure of ``variant`` against ``reference`` over their pairs.

    ``per_seat`` adds seats, bots, roles, teams and factions (pairs of one seat with the same
    label in both games); the focus seat of restricted play and the skill trace is always
    compared when the variant has one.
    """
    pairs = pair_rows(reference, variant)
    measures: dict[str, PairList] = defaultdict(list)
    for ref, var in pairs:
        _game_measures(ref, var, measures)
        if per_seat:
            _seat_measures(ref, var, measures)
    rates = [_rate(metric, values) for metric, values in measures.items()]
    return {
        "pairs": len(pairs),
        "identical": proportion(
            sum(a.get("history") == b.get("history") for a, b in pairs), len(pairs)
        ),
        "same_winners": proportion(sum(a["winners"] == b["winners"] for a, b in pairs), len(pairs)),
        "rates": rates,
        "length": _lengths(pairs),
    }


def _game_measures(ref: dict[str, Any], var: dict[str, Any], out: dict[str, PairList]) -> None:
    for name, (a, b) in {
        "outcome/decisive": (_decisive(ref), _decisive(var)),
        "outcome/draws": (_natural_draw(ref), _natural_draw(var)),
        "outcome/capped": (float(ref["capped"]), float(var["capped"])),
    }.items():
        out[name].append((a, b))
    if ref.get("first") is not None and var.get("first") is not None:
        out["first_player/win"].append((ref["results"][ref["first"]], var["results"][var["first"]]))
    focus = var.get("focus")
    if focus is not None:
        out["focus/win"].append((ref["results"][focus], var["results"][focus]))


def _decisive(row: dict[str, Any]) -> float:
    return float(not row["draw"] and not row["capped"])


def _natural_draw(row: dict[str, Any]) -> float:
    return float(bool(row["draw"]) and not row["capped"])


def _seat_measures(ref: dict[str, Any], var: dict[str, Any], out: dict[str, PairList]) -> None:
    if len(ref["results"]) != len(var["results"]):
        return  # another player count: seats do not pair
    ref_labels, var_labels = ref.get("labels") or {}, var.get("labels") or {}
    for seat, (a, b) in enumerate(zip(ref["results"], var["results"], strict=True)):
        out[f"seat/{seat}"].append((a, b))
        if ref["bots"][seat] == var["bots"][seat]:
            out[f"bot/{ref['bots'][seat]}"].append((a, b))
        for category in ("role", "faction"):
            mine, theirs = ref_labels.get(category), var_labels.get(category)
            if mine and theirs and mine[seat] == theirs[seat]:
                out[f"{category}/{mine[seat]}"].append((a, b))
    teams, other = ref_labels.get("team"), var_labels.get("team")
    if teams and teams == other:
        members: dict[str, list[int]] = defaultdict(list)
        for seat, team in enumerate(teams):
            members[team].append(seat)
        for team, seats in sorted(members.items()):
            out[f"team/{team}"].append(
                (
                    statistics.fmean(ref["results"][s] for s in seats),
                    statistics.fmean(var["results"][s] for s in seats),
                )
            )


def _rate(metric: str, values: PairList) -> dict[str, Any]:
    n = len(values)
    before = [a for a, _ in values]
    after = [b for _, b in values]
    diffs = [b - a for a, b in values]
    delta = statistics.fmean(diffs)
    error = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 0.0
    test = sign_test(diffs)
    return {
        "metric": metric,
        "pairs": n,
        "base_rate": statistics.fmean(before),
        "vs_rate": statistics.fmean(after),
        "delta": delta,
        "ci95": [delta - Z95 * error, delta + Z95 * error],
        "up": test["up"],
        "down": test["down"],
        "p_value": test["p_value"],
        "test": "McNemar exact" if _binary(values) else "sign test (exact)",
    }


def _binary(values: PairList) -> bool:
    return all(a in (0.0, 1.0) and b in (0.0, 1.0) for a, b in values)


def _lengths(pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    out = {}
    for key in ("steps", "turns"):
        kept = [
            (a[key], b[key]) for a, b in pairs if a.get(key) is not None and b.get(key) is not None
        ]
        if len(kept) < 2:
            continue
        summary = paired_summary([float(a) for a, _ in kept], [float(b) for _, b in kept])
        out[key] = {
            "base_mean": statistics.fmean(a for a, _ in kept),
            "vs_mean": statistics.fmean(b for _, b in kept),
            **summary,
        }
    return out


# -- multiple comparisons -------------------------------------------------------------------------
def adjust(tables: list[dict[str, Any]]) -> int:
    """Holm-adjust every p-value of the given comparison tables together, in place: each rate
    and length gets ``holm_p``; returns how many tests were adjusted. Lengths use their
    Wilcoxon p-value when they have one."""
    cells: list[dict[str, Any]] = []
    for table in tables:
        cells.extend(table.get("rates", []))
        cells.extend(table.get("length", {}).values())
    p_values = [cell.get("wilcoxon_p", cell.get("p_value")) for cell in cells]
    for cell, adjusted in zip(cells, holm(p_values), strict=True):
        cell["holm_p"] = adjusted
    return len(cells)
