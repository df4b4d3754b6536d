"""Plots of a balance report (matplotlib, from the ``lab`` extra): win rates with their 95%
intervals and histograms of game length, one PNG each, side by side for compared rule sets."""

from __future__ import annotations

from pathlib import Path
from typing import Any

# Shown in this order, one panel each; bot/role pairs are left to the tables (too many bars).
PLOTTED = ("seat", "bot", "role", "team", "faction")
COLOURS = {"base": "#4c72b0", "vs": "#dd8452"}


def matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _pyplot() -> Any:
    import matplotlib

    # No display: render to files only, whatever backend the user's config asks for.
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def win_rate_plot(report: dict[str, Any], path: Path) -> Path | None:
    """Horizontal bars of win rate per seat, bot, role, team and faction, with 95% intervals."""
    variants = report["variants"]
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
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


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
        ys = [i + offset * width for i, _ in rows]
        rates = [t["rate"] for _, t in rows]
        errors = [
            [max(0.0, t["rate"] - t["ci95"][0]) for _, t in rows],
            [max(0.0, t["ci95"][1] - t["rate"]) for _, t in rows],
        ]
        label = f"{name}: {variant['players']} players"
        ax.barh(
            ys, rates, height=width, xerr=errors, capsize=3, label=label, color=COLOURS.get(name)
        )
        if category == "seat" and rows:
            # A balanced game gives every seat the mean seat result (2/5 or 3/5 in a team game).
            mean = sum(t["wins"] for _, t in rows) / sum(t["games"] for _, t in rows)
            ax.axvline(mean, color=COLOURS.get(name), linestyle="--", lw=1)
    ax.set_yticks([i + width * (len(variants) - 1) / 2 for i in range(len(keys))], keys)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_title(f"win rate by {category} (95% Wilson intervals)", fontsize=10, loc="left")
    if len(variants) > 1:
        ax.legend(fontsize=8, loc="best")


def length_plot(rows: list[dict[str, Any]], report: dict[str, Any], path: Path) -> Path | None:
    """Histograms of game length in steps and, where the game counts them, turns."""
    finished = [r for r in rows if r["status"] == "ok"]
    if not finished:
        return None
    measures = ["steps"] + (["turns"] if any(r.get("turns") is not None for r in finished) else [])
    plt = _pyplot()
    fig, axes = plt.subplots(1, len(measures), figsize=(5 * len(measures), 3.2), squeeze=False)
    for ax, measure in zip(axes[0], measures, strict=True):
        _length_panel(ax, finished, report, measure)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _length_panel(
    ax: Any, rows: list[dict[str, Any]], report: dict[str, Any], measure: str
) -> None:
    values = {
        name: [r[measure] for r in rows if r["variant"] == name and r.get(measure) is not None]
        for name in report["variants"]
    }
    everything = [v for vs in values.values() for v in vs]
    low, high = min(everything), max(everything)
    # Whole-number bins: lengths are counts, and shared edges let variants be compared.
    step = max(1, -(-(high - low + 1) // 30))
    edges = list(range(low, high + step + 1, step))
    for name, data in values.items():
        if data:
            ax.hist(data, bins=edges, alpha=0.6, label=name, color=COLOURS.get(name))
    unit = "steps (actions)"
    if measure == "turns":
        unit = (report["variants"]["base"]["length"].get("turns") or {}).get("unit", "turns")
    ax.set_xlabel(unit)
    ax.set_ylabel("games")
    ax.set_title(f"game length in {unit}", fontsize=10, loc="left")
    if len(values) > 1:
        ax.legend(fontsize=8)
