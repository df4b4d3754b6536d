"""Plots of a balance report (matplotlib, from the ``lab`` extra), each rendered to PNG bytes
for `report_html` to inline. Every rate has its 95% interval and, where a rate has a fair
value, a dashed fair-share line."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

# Shown in this order, one panel each; bot/role pairs are left to the tables (too many bars).
PLOTTED = ("seat", "bot", "role", "team", "faction")
COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3"]
FAIR = {"color": "#444", "linestyle": "--", "lw": 1}


def matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _pyplot() -> Any:
    import matplotlib

    # No display: render to memory only, whatever backend the user's config asks for.
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    plt = _pyplot()
    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return buffer.getvalue()


def _errors(items: list[dict[str, Any]], key: str = "rate") -> list[list[float]]:
    return [
        [max(0.0, t[key] - t["ci95"][0]) for t in items],
        [max(0.0, t["ci95"][1] - t[key]) for t in items],
    ]


def all_plots(report: dict[str, Any], rows: list[dict[str, Any]]) -> list[tuple[str, bytes]]:
    """(caption, PNG) of every plot the report has data for, in reading order."""
    makers: list[Callable[[], tuple[str, bytes] | None]] = [
        lambda: win_rate_plot(report),
        lambda: first_player_plot(report),
        lambda: rules_plot(report),
        lambda: length_plot(rows, report),
        lambda: trajectory_plot(report),
        *[(lambda m=m: sweep_plot(report, m)) for m in sweep_measures(report)],
        lambda: strategies_plot(report),
        lambda: skill_trace_plot(report),
    ]
    return [made for make in makers if (made := make()) is not None]


def _shown(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The variants plotted side by side: the reference and a compared rule set."""
    return {name: v for name, v in report["variants"].items() if v["study"] in ("reference", "vs")}


# -- win rates ----------------------------------------------------------------------------------
def win_rate_plot(report: dict[str, Any]) -> tuple[str, bytes] | None:
    """Horizontal bars of win rate per seat, bot, role, team and faction, with 95% intervals
    and each category's fair share."""
    variants = _shown(report)
    categories = [c for c in PLOTTED if any(v["win_rates"].get(c) for v in variants.values())]
    if not categories:
        return None
    plt = _pyplot()
    heights = [max(len(_keys(variants, c)), 1) for c in categories]
    fig, axes = plt.subplots(
        len(categories),
        1,
        figsize=(7, 1.2 + 0.45 * sum(heights) * len(variants) + 0.6 * len(categories)),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    for ax, category in zip(axes[:, 0], categories, strict=True):
        _win_rate_panel(ax, variants, category)
    return ("Win rates with 95% intervals; dashed: the fair share", _png(fig))


def _keys(variants: dict[str, Any], category: str) -> list[str]:
    keys: set[str] = set()
    for variant in variants.values():
        keys |= set(variant["win_rates"].get(category, {}))
    # Seats sort as numbers, everything else alphabetically.
    return sorted(keys, key=lambda k: (len(k), k) if category == "seat" else (0, k))


def _win_rate_panel(ax: Any, variants: dict[str, Any], category: str) -> None:
    keys = _keys(variants, category)
    width = 0.8 / len(variants)
    for offset, (name, variant) in enumerate(variants.items()):
        tallies = variant["win_rates"].get(category, {})
        rows = [(i, tallies[k]) for i, k in enumerate(keys) if k in tallies]
        items = [t for _, t in rows]
        colour = COLOURS[offset % len(COLOURS)]
        ax.barh(
            [i + offset * width for i, _ in rows],
            [t["rate"] for t in items],
            height=width,
            xerr=_errors(items),
            capsize=3,
            label=f"{name}: {variant['players']} players",
            color=colour,
        )
        fair = (variant["fairness"].get(category) or {}).get("fair")
        if fair is None and items:
            fair = sum(t["wins"] for t in items) / max(sum(t["games"] for t in items), 1)
        if fair is not None:
            ax.axvline(fair, **{**FAIR, "color": colour})
    ax.set_yticks([i + width * (len(variants) - 1) / 2 for i in range(len(keys))], keys)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_title(f"win rate by {category}", fontsize=10, loc="left")
    if len(variants) > 1:
        ax.legend(fontsize=8, loc="best")


# -- first player -------------------------------------------------------------------------------
def first_player_plot(report: dict[str, Any]) -> tuple[str, bytes] | None:
    """The first player's win rate per rule set, with its interval and fair share."""
    found = [
        (name, v["first_player"])
        for name, v in report["variants"].items()
        if v["first_player"] and v["study"] in ("reference", "vs", "sweep")
    ]
    if not found:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 1.0 + 0.5 * len(found)))
    items = [f for _, f in found]
    ys = list(range(len(found)))
    ax.barh(ys, [f["rate"] for f in items], xerr=_errors(items), capsize=3, color=COLOURS[0])
    for y, f in zip(ys, items, strict=True):
        ax.plot([f["expected"]] * 2, [y - 0.4, y + 0.4], **FAIR)
    ax.set_yticks(ys, [name.removeprefix("sweep:") for name, _ in found])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("first player's win rate")
    ax.set_title("first-player advantage (dashed: fair share)", fontsize=10, loc="left")
    return ("First-player win rate with 95% intervals; dashed: the fair share", _png(fig))


# -- rules --------------------------------------------------------------------------------------
def rules_plot(report: dict[str, Any]) -> tuple[str, bytes] | None:
    """The share of games in which each action kind occurred (reference rule set)."""
    reference = report["variants"][report["reference"]]
    actions = [
        r for r in (reference.get("rules") or []) if r["kind"] == "action" and not r["detail"]
    ]
    if not actions:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 1.0 + 0.3 * len(actions)))
    shares = [r["games"] for r in actions]
    ys = list(range(len(actions)))
    colours = [COLOURS[3] if s["count"] == 0 or s["rate"] < 0.01 else COLOURS[0] for s in shares]
    ax.barh(ys, [s["rate"] for s in shares], xerr=_errors(shares), capsize=2, color=colours)
    ax.set_yticks(ys, [r["rule"] for r in actions])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games in which it was played")
    ax.set_title(
        "how often each action kind is used (red: never or under 1%)", fontsize=10, loc="left"
    )
    return ("Share of games using each action kind, with 95% intervals", _png(fig))


# -- lengths ------------------------------------------------------------------------------------
def length_plot(rows: list[dict[str, Any]], report: dict[str, Any]) -> tuple[str, bytes] | None:
    """Histograms of game length in steps and, where the game counts them, turns."""
    shown = _shown(report)
    finished = [r for r in rows if r["status"] == "ok" and r["variant"] in shown]
    if not finished:
        return None
    measures = ["steps"] + (["turns"] if any(r.get("turns") is not None for r in finished) else [])
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(measures), figsize=(5 * len(measures), 3.2), squeeze=False)
    for ax, measure in zip(axes[0], measures, strict=True):
        _length_panel(ax, finished, shown, measure)
    return ("Game lengths", _png(fig))


def _length_panel(
    ax: Any, rows: list[dict[str, Any]], variants: dict[str, Any], measure: str
) -> None:
    values = {
        name: [r[measure] for r in rows if r["variant"] == name and r.get(measure) is not None]
        for name in variants
    }
    everything = [v for vs in values.values() for v in vs]
    if not everything:
        return
    low, high = min(everything), max(everything)
    # Whole-number bins: lengths are counts, and shared edges let variants be compared.
    step = max(1, -(-(high - low + 1) // 30))
    edges = list(range(low, high + step + 1, step))
    for i, (name, data) in enumerate(values.items()):
        if data:
            ax.hist(data, bins=edges, alpha=0.6, label=name, color=COLOURS[i % len(COLOURS)])
    unit = "steps (actions)"
    if measure == "turns":
        first = next(iter(variants.values()))
        unit = (first["length"].get("turns") or {}).get("unit", "turns")
    ax.set_xlabel(unit)
    ax.set_ylabel("games")
    ax.set_title(f"game length in {unit}", fontsize=10, loc="left")
    if len(values) > 1 and ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


# -- evaluation over the game -------------------------------------------------------------------
def trajectory_plot(report: dict[str, Any]) -> tuple[str, bytes] | None:
    """The referee's evaluation of the eventual winners and losers through the game."""
    reference = report["variants"][report["reference"]]
    evaluated = reference.get("evaluation")
    if not evaluated or not any(
        v is not None for vs in evaluated["trajectory"].values() for v in vs
    ):
        return None  # nothing evaluated, or no evaluated game had a winner
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3))
    for i, (side, values) in enumerate(evaluated["trajectory"].items()):
        points = [(k / len(values) * 100, v) for k, v in enumerate(values) if v is not None]
        if points:
            ax.plot(*zip(*points, strict=True), marker="o", label=side, color=COLOURS[i])
    ax.axhline(0, **FAIR)
    ax.set_ylim(-1, 1)
    ax.set_xlabel("share of the game played (%)")
    ax.set_ylabel("evaluation (2 x chance - 1)")
    ax.set_title(
        f"how the eventual winners and losers stood ({evaluated['games']} games)",
        fontsize=10,
        loc="left",
    )
    ax.legend(fontsize=8, loc="upper left")
    return ("The fitted evaluation of the real state, winners against losers", _png(fig))


# -- sweeps -------------------------------------------------------------------------------------
def sweep_measures(report: dict[str, Any]) -> list[str]:
    """The measures plotted against the swept parameter."""
    if not report.get("sweep"):
        return []
    measures = ["outcomes", "first_player", "length", "loops"]
    first = report["variants"][report["sweep"]["reference"]]
    measures += [
        f"win_rates/{c}" for c in ("seat", "role", "team", "faction") if c in first["win_rates"]
    ]
    return measures


def _sweep_series(report: dict[str, Any], measure: str) -> dict[str, list[dict[str, Any] | None]]:
    """measure -> one value per sweep point: {"rate" or value, "ci95"} or None."""
    points = [report["variants"][p["variant"]] for p in report["sweep"]["points"]]
    if measure == "outcomes":
        return {k: [p["outcomes"][k] for p in points] for k in ("decisive", "draws", "capped")}
    if measure == "first_player":
        return {"first player wins": [p["first_player"] for p in points]}
    if measure == "loops":
        return {"games with a loop": [(p["repetition"] or {}).get("loops") for p in points]}
    if measure == "length":
        key = "turns" if points[0]["length"].get("turns") else "steps"
        return {f"mean {key}": [_mean_point(p["length"][key]) for p in points]}
    category = measure.split("/", 1)[1]
    keys = sorted({k for p in points for k in p["win_rates"].get(category, {})})
    return {k: [p["win_rates"].get(category, {}).get(k) for p in points] for k in keys}


def _mean_point(summary: dict[str, Any] | None) -> dict[str, Any] | None:
    if not summary or not summary.get("count"):
        return None
    margin = 1.959963984540054 * summary["stdev"] / math.sqrt(summary["count"])
    return {"rate": summary["mean"], "ci95": [summary["mean"] - margin, summary["mean"] + margin]}


def sweep_plot(report: dict[str, Any], measure: str) -> tuple[str, bytes] | None:
    """One measure against the first swept option; one panel per value of the second."""
    sweep = report["sweep"]
    series = _sweep_series(report, measure)
    if not series:
        return None
    names, values = sweep["options"], sweep["values"]
    panels = values[1] if len(names) > 1 else [None]
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.4), squeeze=False)
    xs = list(range(len(values[0])))
    for p, (ax, second) in enumerate(zip(axes[0], panels, strict=True)):
        for i, (label, points) in enumerate(series.items()):
            column = [points[j * len(panels) + p] for j in xs]
            kept = [(x, v) for x, v in zip(xs, column, strict=True) if v is not None]
            if not kept:
                continue
            items = [v for _, v in kept]
            ax.errorbar(
                [x for x, _ in kept],
                [v["rate"] for v in items],
                yerr=_errors(items),
                marker="o",
                capsize=3,
                label=label,
                color=COLOURS[i % len(COLOURS)],
            )
        _sweep_fair_line(ax, report, measure)
        ax.set_xticks(xs, values[0])
        ax.set_xlabel(names[0])
        title = measure.replace("_", " ").replace("/", " by ")
        ax.set_title(
            title + (f" ({names[1]}={second})" if second is not None else ""),
            fontsize=10,
            loc="left",
        )
        if measure != "length":
            ax.set_ylim(0, 1)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    return (f"{measure.replace('/', ' by ')} against {' and '.join(names)}", _png(fig))


def _sweep_fair_line(ax: Any, report: dict[str, Any], measure: str) -> None:
    first = report["variants"][report["sweep"]["reference"]]
    fair = None
    if measure == "first_player" and first["first_player"]:
        fair = first["first_player"]["expected"]
    elif measure.startswith("win_rates/"):
        fair = (first["fairness"].get(measure.split("/", 1)[1]) or {}).get("fair")
    if fair is not None:
        ax.axhline(fair, **FAIR)


# -- restricted play and skill trace ------------------------------------------------------------
def strategies_plot(report: dict[str, Any]) -> tuple[str, bytes] | None:
    """Each restricted bot's win rate with its interval; dashed: the unrestricted bot's."""
    study = report.get("strategies")
    if not study:
        return None
    entries = study["entries"]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.3 * len(entries)))
    ys = list(range(len(entries)))
    items = [e["restricted"] for e in entries]
    colours = [
        COLOURS[3] if (e["holm_p"] or 1) < 0.05 else COLOURS[0 if e["mode"] == "never" else 1]
        for e in entries
    ]
    ax.barh(ys, [t["rate"] for t in items], xerr=_errors(items), capsize=2, color=colours)
    for y, e in zip(ys, entries, strict=True):
        ax.plot([e["unrestricted"]["rate"]] * 2, [y - 0.4, y + 0.4], **FAIR)
    ax.set_yticks(ys, [f"{e['mode']} {e['kind']}" for e in entries])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate of the restricted seat")
    ax.set_title("restricted play (red: significant after Holm)", fontsize=10, loc="left")
    return (
        "Restricted play: win rate of the restricted seat; dashed: the unrestricted bot",
        _png(fig),
    )


def skill_trace_plot(report: dict[str, Any]) -> tuple[str, bytes] | None:
    """The stronger ISMCTS seat's win rate at each doubling of iterations."""
    trace = report.get("skill_trace")
    if not trace:
        return None
    levels = trace["levels"]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 3.2))
    xs = [e["weak"] for e in levels]
    items = [e["stronger"] for e in levels]
    ax.errorbar(xs, [t["rate"] for t in items], yerr=_errors(items), marker="o", capsize=3)
    ax.plot(xs, [e["fair"] for e in levels], **FAIR)
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs, [f"{2 * x} vs {x}" for x in xs])
    ax.set_ylim(0, 1)
    ax.set_xlabel("ISMCTS iterations: stronger vs weaker")
    ax.set_ylabel("stronger seat's win rate")
    ax.set_title("skill trace (dashed: fair share)", fontsize=10, loc="left")
    return ("Skill trace: ISMCTS with twice the iterations of the other seats", _png(fig))
