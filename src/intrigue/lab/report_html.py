"""``report.html``: the balance report as one self-contained page (plots inlined as data URIs,
no other file needed, so it can be mailed): the verdict in words first, then the detail."""

from __future__ import annotations

import base64
import json
from html import escape
from pathlib import Path
from typing import Any

from .plots import all_plots, matplotlib_available
from .skill import skill_gaps
from .verdict import metric_label, sweep_title

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; color: #222;
       padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2em 0.8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
.verdict li { margin: 0.4em 0; }
.finding { font-weight: 600; }
.significant { background: #fff3cd; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #555; }
img { max-width: 100%; }
"""


def write_report_html(report: dict[str, Any], rows: list[dict[str, Any]], out_dir: Path) -> Path:
    """Write ``report.html`` with its plots inlined (when matplotlib is installed)."""
    plots = all_plots(report, rows) if matplotlib_available() else None
    path = out_dir / "report.html"
    path.write_text(render_html(report, plots))
    return path


def render_html(report: dict[str, Any], plots: list[tuple[str, bytes]] | None) -> str:
    config = report["config"]
    title = f"Balance of {config['game']}"
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{escape(title)}</title>",
        f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>",
        _verdict_section(report["verdict"]),
        "<h2>Settings</h2>",
        _config_section(config),
        _plots_section(plots),
        _ludii_section(report),
    ]
    for name, variant in report["variants"].items():
        if variant["study"] in ("reference", "vs"):
            parts.append(_variant_section(name, variant))
    if report.get("comparison"):
        parts.append(_comparison_section(report["comparison"], "The variant against the base"))
    if report.get("sweep"):
        parts.append(_sweep_section(report))
    if report.get("strategies"):
        parts.append(_strategies_section(report["strategies"]))
    if report.get("skill_trace"):
        parts.append(_skill_trace_section(report["skill_trace"]))
    parts.append(_errors_section(report["errors"]))
    if report.get("run"):
        parts.append(f"<h2>Run</h2><pre>{escape(json.dumps(report['run'], indent=1))}</pre>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


# -- small helpers --------------------------------------------------------------------------------
def _table(header: list[str], rows: list[list[Any]], marked: list[bool] | None = None) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = []
    for i, row in enumerate(rows):
        cls = " class='significant'" if marked and marked[i] else ""
        cells = "".join(f"<td>{escape(str(cell))}</td>" for cell in row)
        body.append(f"<tr{cls}>{cells}</tr>")
    return f"<table><tr>{head}</tr>{''.join(body)}</table>"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def interval(ci: list[float] | None) -> str:
    return "-" if ci is None else f"{ci[0]:.1%} to {ci[1]:.1%}"


def points(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:+.1f}"


def p_value(value: float | None) -> str:
    return "-" if value is None else f"{value:.3g}"


def number(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _significant(p: float | None) -> bool:
    return p is not None and p < 0.05


# -- sections -------------------------------------------------------------------------------------
def _verdict_section(sentences: list[dict[str, str]]) -> str:
    items = "".join(f"<li class='{escape(s['level'])}'>{escape(s['text'])}</li>" for s in sentences)
    return (
        "<h2>Verdict</h2><ul class='verdict'>"
        + items
        + "</ul><p><small>Bold: significant at the 5% level (after Holm's correction within a "
        "table), or a fact a designer must act on. The findings measure the bots as much as "
        "the rules.</small></p>"
    )


def _config_section(config: dict[str, Any]) -> str:
    rows = [
        ["bots (rotated over the seats)", ", ".join(config["bots"])],
        ["games per variant", config["games"]],
        ["seeds", f"{config['seed']}..{config['seed'] + config['games'] - 1}"],
        ["players", config["players"]],
        ["options", json.dumps(config["options"])],
        ["evaluated games (moments each)", f"{config['eval_games']} ({config['eval_points']})"],
    ]
    if config["vs_options"] or config["vs_players"] is not None:
        rows.append(["vs options", json.dumps(config["vs_options"])])
        rows.append(["vs players", config["vs_players"] or config["players"]])
    if config["sweep"]:
        rows.append(["sweep", "; ".join(f"{n} = {', '.join(v)}" for n, v in config["sweep"])])
    if config["strategies"]:
        rows.append(["restricted play", ", ".join(config["strategies"])])
    if config["skill_levels"]:
        rows.append(
            ["skill trace (weaker iterations)", ", ".join(map(str, config["skill_levels"]))]
        )
    return _table(["setting", "value"], rows)


def _plots_section(plots: list[tuple[str, bytes]] | None) -> str:
    if plots is None:
        return "<p>(No plots: install matplotlib, <code>pip install 'intrigue[lab]'</code>.)</p>"
    figures = []
    for caption, png in plots:
        data = base64.b64encode(png).decode()
        figures.append(
            f"<figure><img src='data:image/png;base64,{data}' alt='{escape(caption)}'>"
            f"<figcaption>{escape(caption)}</figcaption></figure>"
        )
    return "<h2>Plots</h2>" + "".join(figures)


def _ludii_section(report: dict[str, Any]) -> str:
    shown = {
        n: v for n, v in report["variants"].items() if v["study"] in ("reference", "vs", "sweep")
    }
    names = list(next(iter(shown.values()))["ludii"])
    rows = [[name, *(number(v["ludii"][name], 3) for v in shown.values())] for name in names]
    return "<h2>Ludii's metrics</h2>" + _table(["metric", *shown], rows)


def _variant_section(name: str, variant: dict[str, Any]) -> str:
    parts = [
        f"<h2>“{escape(name)}”: {variant['players']} players, options "
        f"{escape(json.dumps(variant['options']))}</h2>",
        _summary_table(variant),
        _length_table(variant["length"]),
        _fairness_tables(variant),
    ]
    if variant["skill"]:
        parts.append(_skill_table(variant["skill"]))
    parts.append(_rules_section(variant["rules"]))
    parts.append(_repetition_section(variant.get("repetition")))
    parts.append(_branching_section(variant.get("branching")))
    parts.append(_scores_section(variant.get("scores")))
    parts.append(_evaluation_section(variant.get("evaluation")))
    parts.append("<h3>How games ended</h3>")
    parts.append(_table(["reason", "games"], [[k, v] for k, v in variant["reasons"].items()]))
    return "\n".join(parts)


def _summary_table(variant: dict[str, Any]) -> str:
    outcomes = variant["outcomes"]
    rows = [["games (finished / crashed)", f"{variant['finished']} / {variant['errors']}"]]
    labels = {
        "decisive": "won by the rules",
        "draws": "drawn by the rules",
        "capped": "cut off by the turn cap",
        "completion": "completion (won or drawn by the rules)",
    }
    for key, label in labels.items():
        rows.append([label, f"{pct(outcomes[key]['rate'])} ({interval(outcomes[key]['ci95'])})"])
    first = variant["first_player"]
    if first:
        rows.append(
            [
                "first player wins",
                f"{pct(first['rate'])} ({interval(first['ci95'])}), fair share "
                f"{pct(first['expected'])}, p = {p_value(first['p_value'])}",
            ]
        )
    return _table(["measure", "value"], rows)


def _length_table(length: dict[str, Any]) -> str:
    rows = []
    for key in ("steps", "turns"):
        s = length.get(key)
        if not s or not s["count"]:
            continue
        rows.append(
            [
                s.get("unit", "steps"),
                f"{s['mean']:.1f}",
                f"{s['median']:g}",
                f"{s['stdev']:.1f}",
                f"{s['q1']:g} to {s['q3']:g}",
                f"{s['min']:g} to {s['max']:g}",
            ]
        )
    return "<h3>Game length (Ludii's Duration)</h3>" + _table(
        ["measure", "mean", "median", "stdev", "IQR (q1 to q3)", "range"], rows
    )


def _fairness_tables(variant: dict[str, Any]) -> str:
    parts = []
    for category, tallies in variant["win_rates"].items():
        found = variant["fairness"].get(category)
        head = f"<h3>Win rate by {escape(category)}</h3>"
        if found:
            test = found["test"]
            verdict = (
                f"fair share {pct(found['fair'])}; chi-square {test['chi2']:.2f} on {test['df']} "
                f"df, p = {p_value(test['p_value'])} (games as units: {test['games']} games); "
                f"Ludii balance {number(found['balance'])}"
                if test
                else f"fair share {pct(found['fair'])}"
            )
            head += f"<p>{escape(verdict)}</p>"
        rows, marked = [], []
        for key, t in tallies.items():
            z = (found or {}).get("keys", {}).get(key, {}) if found else {}
            rows.append(
                [
                    key,
                    t["games"],
                    f"{t['wins']:g}",
                    pct(t["rate"]),
                    interval(t["ci95"]),
                    number(z.get("z"), 1) if z else "-",
                    p_value(z.get("p_value")) if z else "-",
                ]
            )
            marked.append(bool(z) and _significant(z.get("p_value")))
        parts.append(
            head
            + _table(
                [category, "games", "wins", "win rate", "95% interval", "z vs fair", "p"],
                rows,
                marked,
            )
        )
    return "\n".join(parts)


def _skill_table(skill: dict[str, Any]) -> str:
    rows = [
        [
            f"{g['stronger']} - {g['weaker']}",
            points(g["delta"]),
            f"{points(g['ci95'][0])} to {points(g['ci95'][1])}",
            p_value(g["p_value"]),
        ]
        for g in skill_gaps(skill)
    ]
    return f"<h3>Skill gaps between the bots: {skill['trace'] * 100:+.1f} points</h3>" + _table(
        ["stronger - weaker bot", "win-rate gap (points)", "95% interval", "p"], rows
    )


def _rules_section(entries: list[dict[str, Any]]) -> str:
    header = [
        "rule",
        "games used in",
        "95% interval",
        "per game",
        "win rate if used",
        "if not",
        "p (Holm)",
        "per seat by role/faction",
    ]

    def row(e: dict[str, Any]) -> list[Any]:
        given = e["given"]
        by = "; ".join(
            ", ".join(f"{label} {n:.2f}" for label, n in cells.items())
            for cells in e["per_seat_by"].values()
        )
        return [
            f"{e['rule']} ({e['kind']})",
            f"{e['games']['count']:g} of {e['games']['games']} ({pct(e['games']['rate'])})",
            interval(e["games"]["ci95"]),
            f"{e['per_game']:.2f}",
            f"{pct(given['fired']['rate'])} ({interval(given['fired']['ci95'])})" if given else "-",
            pct(given["not_fired"]["rate"]) if given and given["not_fired"]["games"] else "-",
            p_value(given["holm_p"]) if given else "-",
            by or "-",
        ]

    main = [e for e in entries if not e["detail"]]
    detail = [e for e in entries if e["detail"]]
    marks = [bool(e["given"]) and _significant(e["given"]["holm_p"]) for e in main]
    text = (
        "<h3>Which rules fired</h3><p>Every action kind of the game (zero: never used) and "
        "every public event kind: the share of games in which it occurred, how often per game, "
        "and the win rate of a seat that did it against one that did not (Fisher's test, "
        "Holm-adjusted over the table; highlighted when significant).</p>"
        + _table(header, [row(e) for e in main], marks)
    )
    if detail:
        text += (
            f"<details><summary>By card, unit or result ({len(detail)} rows)</summary>"
            + _table(header, [row(e) for e in detail])
            + "</details>"
        )
    return text


def _repetition_section(rep: dict[str, Any] | None) -> str:
    if not rep:
        return ""
    at = rep["at_repeats"]
    most = rep["most_recurrences"]
    rows = [
        [
            "positional repetition (share of positions that were repeats, mean)",
            pct(rep["positional_repetition"]),
        ],
        [
            f"games with a loop (a position seen {rep['loop_threshold']}+ times)",
            f"{pct(rep['loops']['rate'])} ({interval(rep['loops']['ci95'])})",
        ],
        ["… among capped games", pct(rep["loops_in_capped"]["rate"])],
        ["… among games that ended by the rules", pct(rep["loops_in_uncapped"]["rate"])],
        [
            "most recurrences of one position (median, max, in looping games)",
            f"{most['median']:g}, {most['max']:g}" if most else "-",
        ],
        ["decisions at repeated positions", at["decisions"]],
        ["… legal moves on average", number(at["mean_legal"], 1)],
        ["… with a single legal move (forced)", pct(at["forced_share"])],
        [
            "moves played at repeated positions",
            ", ".join(f"{k} {v}" for k, v in list(rep["loop_moves"].items())[:8]) or "-",
        ],
    ]
    return (
        "<h3>Stalls and loops</h3><p>Positions are the spectator's view without counters, "
        "taken whenever the seats to move change.</p>" + _table(["measure", "value"], rows)
    )


def _branching_section(found: dict[str, Any] | None) -> str:
    if not found:
        return ""
    rows = [
        [
            "all",
            found["decisions"],
            number(found["branching_factor"], 1),
            found["max"],
            pct(found["decision_moves"]),
        ]
    ]
    for phase, cell in found["by_phase"].items():
        rows.append(
            [
                phase,
                cell["decisions"],
                number(cell["branching_factor"], 1),
                cell["max"],
                pct(cell["decision_moves"]),
            ]
        )
    per_game = found["choices_per_game"]
    return (
        "<h3>Decisions (Ludii's BranchingFactor and DecisionMoves)</h3>"
        "<p>Real decisions (more than one legal move) per game: mean "
        f"{number(per_game['mean'], 1)}, "
        f"median {per_game['median']:g}.</p>"
        + _table(
            ["phase", "decisions", "mean legal moves", "most legal moves", "with a choice"], rows
        )
    )


def _scores_section(scores: dict[str, Any] | None) -> str:
    if not scores:
        return ""
    rows = []
    for label, key in (
        ("top score minus the next (all games)", "top_two_gap"),
        ("winner's lead (games won by the rules)", "winner_lead"),
    ):
        s = scores[key]
        if s["count"]:
            rows.append(
                [
                    label,
                    f"{s['mean']:.2f}",
                    f"{s['median']:g}",
                    f"{s['q1']:g} to {s['q3']:g}",
                    f"{s['min']:g} to {s['max']:g}",
                ]
            )
    return f"<h3>Score margins in {escape(scores['unit'])} (Ludii's ScoreDifference)</h3>" + _table(
        ["measure", "mean", "median", "IQR", "range"], rows
    )


EVALUATION_LABELS = {
    "lead_change": "LeadChange: share of moments at which the leader changed (referee's view)",
    "lead_change_own": "… the same by each seat's own estimate of itself",
    "stability": "Stability: summed variance of each seat's evaluation over the game",
    "drama": "Drama: how far the eventual winner trailed the leader, on average",
    "lead_for_good": "share of the game played before the winner led for good",
    "clarity_variance": "ClarityVariance: variance of the mover's values of its legal moves",
    "clarity_narrowness": "ClarityNarrowness: share of moves near the best one",
    "uncertainty": "hidden information: mean |own estimate - referee's| of a seat's chances",
}


def _evaluation_section(found: dict[str, Any] | None) -> str:
    if not found:
        return ""
    rows = []
    for key, label in EVALUATION_LABELS.items():
        cell = found.get(key)
        if cell:
            rows.append(
                [
                    label,
                    number(cell["mean"], 3),
                    f"{cell['ci95'][0]:.3f} to {cell['ci95'][1]:.3f}",
                    cell["count"],
                ]
            )
    text = (
        f"<h3>The game as it went (fitted evaluation, {found['games']} games)</h3>"
        "<p>Values are the game's fitted evaluation, 2 x the estimated chance to win - 1, of "
        "the real state (the referee's view) and of each seat's own determinization (what the "
        "seat can estimate from what it has seen).</p>"
        + _table(["measure", "mean", "95% interval", "games"], rows)
    )
    for category, labels in found["uncertainty_by"].items():
        body = [
            [label, number(cell["mean"], 3), cell["count"]]
            for label, cell in labels.items()
            if cell
        ]
        text += f"<h4>How far each {escape(category)} misjudges its own chances</h4>" + _table(
            [category, "mean |own - referee|", "games"], body
        )
    return text


COMPARED = ["measure", "base", "vs", "difference (points)", "95% interval"]


def _compared(r: dict[str, Any]) -> list[str]:
    """The cells every comparison row starts with (`COMPARED`)."""
    return [
        metric_label(r["metric"]),
        pct(r.get("base_rate")),
        pct(r.get("vs_rate")),
        points(r["delta"]),
        f"{points(r['ci95'][0])} to {points(r['ci95'][1])}",
    ]


def _comparison_section(comparison: dict[str, Any], title: str) -> str:
    rates = comparison["rates"]
    paired = comparison.get("paired", True)
    parts = [f"<h2>{escape(title)}</h2>"]
    if paired:
        parts.append(
            f"<p>{comparison['pairs']} pairs (same seed in both). Move for move identical: "
            f"{pct(comparison['identical']['rate'])} "
            f"({interval(comparison['identical']['ci95'])}); "
            f"same winners: {pct(comparison['same_winners']['rate'])}. Each measure: exact "
            "McNemar (or sign) test on the pairs that differ; lengths: paired difference and "
            "Wilcoxon's signed-rank test; p-values Holm-adjusted over the report.</p>"
        )
        header = [*COMPARED, "pairs up / down", "p (exact)", "p (Holm)"]
        rows = [
            [
                *_compared(r),
                f"{r['up']} / {r['down']}",
                p_value(r["p_value"]),
                p_value(r.get("holm_p")),
            ]
            for r in rates
        ]
    else:
        parts.append(
            "<p>Another player count plays other games, so the rule sets are compared as "
            "independent samples (z-test, Fisher's exact test; Holm-adjusted).</p>"
        )
        header = [*COMPARED, "p (z)", "p (Fisher)", "p (Holm)"]
        rows = [
            [
                *_compared(r),
                p_value(r["p_value"]),
                p_value(r.get("fisher_p")),
                p_value(r.get("holm_p")),
            ]
            for r in rates
        ]
    parts.append(_table(header, rows, [_significant(r.get("holm_p")) for r in rates]))
    lengths = [
        [
            key,
            number(v["base_mean"], 1),
            number(v["vs_mean"], 1),
            f"{v['mean_difference']:+.1f}",
            f"{v['ci95'][0]:+.1f} to {v['ci95'][1]:+.1f}" if "ci95" in v else "-",
            p_value(v.get("wilcoxon_p", v["p_value"])),
            p_value(v.get("holm_p")),
        ]
        for key, v in comparison["length"].items()
    ]
    if lengths:
        parts.append(
            _table(
                [
                    "mean length",
                    "base",
                    "vs",
                    "difference",
                    "95% interval",
                    "p (Wilcoxon / Welch)",
                    "p (Holm)",
                ],
                lengths,
            )
        )
    return "\n".join(parts)


def _sweep_section(report: dict[str, Any]) -> str:
    sweep = report["sweep"]
    rows = []
    for point in sweep["points"]:
        v = report["variants"][point["variant"]]
        first = v["first_player"]
        turns = v["length"].get("turns") or v["length"]["steps"]
        rows.append(
            [
                ", ".join(f"{k}={val}" for k, val in point["setting"].items()),
                pct(v["outcomes"]["decisive"]["rate"]),
                pct(v["outcomes"]["draws"]["rate"]),
                pct(v["outcomes"]["capped"]["rate"]),
                f"{pct(first['rate'])} (fair {pct(first['expected'])})" if first else "-",
                number(turns["mean"], 1),
            ]
        )
    parts = [
        "<h2>Parameter sweep</h2>",
        _table(
            ["point", "won by the rules", "drawn", "capped", "first player wins", "mean length"],
            rows,
        ),
    ]
    for name, table in sweep["comparisons"].items():
        parts.append(
            _comparison_section(
                table,
                sweep_title(name, sweep["reference"]),
            )
        )
    return "\n".join(parts)


def _strategies_section(study: dict[str, Any]) -> str:
    entries = study["entries"]
    rows = [
        [
            f"{e['mode']} {e['kind']}",
            f"{pct(e['restricted']['rate'])} ({interval(e['restricted']['ci95'])})",
            f"{pct(e['unrestricted']['rate'])} ({interval(e['unrestricted']['ci95'])})",
            points(e["delta"]),
            f"{points(e['ci95'][0])} to {points(e['ci95'][1])}" if e["ci95"] else "-",
            p_value(e["p_value"]),
            p_value(e["holm_p"]),
            pct(e["identical"]["rate"]),
        ]
        for e in entries
    ]
    return (
        f"<h2>Restricted play: which actions matter ({escape(study['bot'])})</h2>"
        "<p>One seat (rotating) plays a bot that never takes the kind of action, or always "
        "prefers it, otherwise exactly the unrestricted bot; its result is paired with that "
        "seat's in the unrestricted games of the same seeds (exact sign test, Holm-adjusted). "
        "'identical': games the restriction did not change at all.</p>"
        + _table(
            [
                "restriction",
                "restricted seat wins",
                "unrestricted",
                "difference (points)",
                "95% interval",
                "p (exact)",
                "p (Holm)",
                "identical",
            ],
            rows,
            [_significant(e["holm_p"]) for e in entries],
        )
    )


def _skill_trace_section(trace: dict[str, Any]) -> str:
    rows = [
        [
            f"{e['strong']} vs {e['weak']}",
            f"{pct(e['stronger']['rate'])} ({interval(e['stronger']['ci95'])})",
            pct(e["fair"]),
            points(e["edge"]),
            p_value(e["p_value"]),
            number(e["mean_return"], 3),
        ]
        for e in trace["levels"]
    ]
    score = "-" if trace["score"] is None else f"{trace['score']:.3f}"
    return f"<h2>Skill trace (Ludii's SkillTrace with ISMCTS): score {score}</h2>" + _table(
        [
            "iterations (stronger vs others)",
            "stronger seat wins",
            "fair share",
            "edge (points)",
            "p",
            "mean return",
        ],
        rows,
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
