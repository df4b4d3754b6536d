"""``report.html``: the balance report as one page of tables, with the plots beside it."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from .plots import length_plot, matplotlib_available, win_rate_plot
from .skill import skill_gaps

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2em 0.8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
"""


def write_report_html(
    report: dict[str, Any], rows: list[dict[str, Any]], out_dir: Path
) -> tuple[Path, list[Path]]:
    """Write the plots (when matplotlib is installed) and ``report.html``; return the paths."""
    images: list[Path] = []
    if matplotlib_available():
        for made in (
            win_rate_plot(report, out_dir / "win_rates.png"),
            length_plot(rows, report, out_dir / "lengths.png"),
        ):
            if made is not None:
                images.append(made)
    path = out_dir / "report.html"
    path.write_text(render_html(report, [p.name for p in images]))
    return path, images


def render_html(report: dict[str, Any], images: list[str]) -> str:
    config = report["config"]
    title = f"Balance of {config['game']}"
    parts = [
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{escape(title)}</title>",
        f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>",
        _config_section(config),
    ]
    if images:
        parts.append("<h2>Plots</h2>")
        parts += [f"<p><img src='{escape(name)}' alt='{escape(name)}'></p>" for name in images]
    else:
        parts.append(
            "<p>(No plots: install matplotlib, <code>pip install 'intrigue[lab]'</code>.)</p>"
        )
    for name, variant in report["variants"].items():
        parts.append(_variant_section(name, variant))
    if report.get("comparison"):
        parts.append(_comparison_section(report["comparison"]))
    parts.append(_errors_section(report["errors"]))
    if report.get("run"):
        parts.append(f"<h2>Run</h2><pre>{escape(json.dumps(report['run'], indent=1))}</pre>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _table(header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape(str(cell))}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def interval(ci: list[float]) -> str:
    return f"{ci[0]:.1%} to {ci[1]:.1%}"


def p_value(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def _config_section(config: dict[str, Any]) -> str:
    rows = [
        ["bots (rotated over the seats)", ", ".join(config["bots"])],
        ["games per rule set", config["games"]],
        ["seeds", f"{config['seed']}..{config['seed'] + config['games'] - 1}"],
        ["players", config["players"]],
        ["options", json.dumps(config["options"])],
    ]
    if config["vs_options"] or config["vs_players"] is not None:
        rows.append(["vs options", json.dumps(config["vs_options"])])
        rows.append(["vs players", config["vs_players"] or config["players"]])
    return _table(["setting", "value"], rows)


def _variant_section(name: str, variant: dict[str, Any]) -> str:
    outcomes = variant["outcomes"]
    summary = [
        ["games (finished / errors)", f"{variant['finished']} / {variant['errors']}"],
        *[
            [what, f"{pct(outcomes[what]['rate'])} ({interval(outcomes[what]['ci95'])})"]
            for what in ("decisive", "draws", "capped")
        ],
    ]
    first = variant["first_player"]
    if first:
        summary.append(
            [
                "first player wins",
                f"{pct(first['rate'])} ({interval(first['ci95'])}), fair share "
                f"{pct(first['expected'])}, p = {p_value(first['p_value'])}",
            ]
        )
    parts = [
        f"<h2>Rule set “{escape(name)}”: {variant['players']} players, options "
        f"{escape(json.dumps(variant['options']))}</h2>",
        _table(["metric", "value"], summary),
        _length_table(variant["length"]),
    ]
    for category, tallies in variant["win_rates"].items():
        parts.append(f"<h3>Win rate by {escape(category)}</h3>")
        parts.append(
            _table(
                [category, "games", "wins", "win rate", "95% interval"],
                [
                    [k, t["games"], f"{t['wins']:g}", pct(t["rate"]), interval(t["ci95"])]
                    for k, t in tallies.items()
                ],
            )
        )
    if variant["skill"]:
        parts.append(_skill_table(variant["skill"]))
    parts.append("<h3>How games ended</h3>")
    parts.append(_table(["reason", "games"], [[k, v] for k, v in variant["reasons"].items()]))
    return "\n".join(parts)


def _length_table(length: dict[str, Any]) -> str:
    rows = []
    for key in ("steps", "turns"):
        s = length.get(key)
        if not s or not s["count"]:
            continue
        unit = s.get("unit", "steps")
        rows.append(
            [
                unit,
                f"{s['mean']:.1f}",
                f"{s['median']:g}",
                f"{s['stdev']:.1f}",
                f"{s['q1']:g} to {s['q3']:g}",
                f"{s['min']:g} to {s['max']:g}",
            ]
        )
    return "<h3>Game length</h3>" + _table(
        ["measure", "mean", "median", "stdev", "IQR (q1 to q3)", "range"], rows
    )


def _skill_table(skill: dict[str, Any]) -> str:
    rows = [
        [
            f"{g['stronger']} - {g['weaker']}",
            f"{g['delta']:+.1%}",
            f"{g['ci95'][0]:+.1%} to {g['ci95'][1]:+.1%}",
            p_value(g["p_value"]),
        ]
        for g in skill_gaps(skill)
    ]
    return f"<h3>Skill trace: {skill['trace']:+.1%}</h3>" + _table(
        ["stronger - weaker bot", "win-rate gap", "95% interval", "p"], rows
    )


def _comparison_section(comparison: dict[str, Any]) -> str:
    rates = [
        [
            r["metric"],
            f"{r['delta']:+.1%}",
            f"{r['ci95'][0]:+.1%} to {r['ci95'][1]:+.1%}",
            p_value(r["p_value"]),
            p_value(r["fisher_p"]),
        ]
        for r in comparison["rates"]
    ]
    lengths = [
        [
            v["unit"],
            f"{v['base_mean']:.1f}",
            f"{v['vs_mean']:.1f}",
            f"{v['delta']:+.1f}",
            p_value(v["p_value"]),
        ]
        for v in comparison["length"].values()
    ]
    return (
        "<h2>vs minus base</h2>"
        + _table(["metric", "difference", "95% interval", "p (z-test)", "p (Fisher)"], rates)
        + _table(["mean length", "base", "vs", "difference", "p (Welch)"], lengths)
    )


def _errors_section(errors: list[dict[str, Any]]) -> str:
    if not errors:
        return "<h2>Crashed games</h2><p>None.</p>"
    parts = [f"<h2>Crashed games: {len(errors)}</h2>"]
    for error in errors:
        record = json.dumps(error["record"]) if error["record"] is not None else "(none)"
        parts.append(
            f"<details><summary>{escape(error['variant'])} game {error['index']} "
            f"(seed {error['seed']}, bots {escape(', '.join(error['bots']))}): "
            f"{escape(error['error'])}</summary><pre>{escape(error['traceback'])}</pre>"
            f"<p>Replay record (save as JSON, then <code>intrigue replay FILE</code>):</p>"
            f"<pre>{escape(record)}</pre></details>"
        )
    return "\n".join(parts)
