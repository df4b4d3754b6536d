"""The report's verdict: a few sentences, in words, of what is significant.

Each sentence comes from one measure of the report and says what it means for the design:
an edge for the first player, unfair roles, seats or factions, rules that never fire, games
that stall in loops, what a compared rule set changed, which restricted strategies win or
lose, how much skill matters. A finding is "significant" at the 5% level; within a table of
many tests, after Holm's correction.
"""

from __future__ import annotations

from typing import Any

ALPHA = 0.05
# Rules used in fewer games than this share are "rare".
RARE = 0.01
# Outcome shares above these are worth a sentence.
MANY_CAPPED = 0.05
MANY_DRAWS = 0.10
CATEGORY_WORDS = {"seat": "Seats", "role": "Roles", "team": "Teams", "faction": "Factions"}


def pct(value: float) -> str:
    return f"{value:.1%}"


def p_text(p: float | None) -> str:
    if p is None:
        return "p = -"
    if p < 0.0001:
        return "p < 0.0001"
    # Two significant figures below 0.1, so 0.045 does not read as 0.05.
    return f"p = {p:.2g}" if p < 0.1 else f"p = {p:.2f}"


def verdict(report: dict[str, Any]) -> list[dict[str, str]]:
    """The sentences, most important first; each {"topic", "level", "text"}, where level is
    "finding" (significant, or a fact a designer must act on) or "note"."""
    reference = report["variants"][report["reference"]]
    out: list[dict[str, str]] = []
    out += _errors(report)
    out += _outcomes(reference)
    out += _loops(reference)
    out += _first_player(reference)
    out += _fairness(reference)
    out += _rules(reference)
    out += _comparison(report)
    out += _vs_fairness(report)
    out += _sweep(report)
    out += _strategies(report)
    out += _skill(report, reference)
    order = {"finding": 0, "note": 1}
    return sorted(out, key=lambda s: order[s["level"]])


def _say(topic: str, text: str, finding: bool) -> dict[str, str]:
    return {"topic": topic, "level": "finding" if finding else "note", "text": text}


def _errors(report: dict[str, Any]) -> list[dict[str, str]]:
    if not report["errors"]:
        return []
    count = len(report["errors"])
    return [
        _say(
            "errors",
            f"{count} game{'s' if count > 1 else ''} crashed (listed at the end, with replay "
            "records): the figures leave them out.",
            True,
        )
    ]


def _outcomes(variant: dict[str, Any]) -> list[dict[str, str]]:
    o = variant["outcomes"]
    games = variant["finished"]
    text = (
        f"Of {games} games, {pct(o['decisive']['rate'])} were won by the rules, "
        f"{pct(o['draws']['rate'])} ended in a draw by the rules and "
        f"{pct(o['capped']['rate'])} were cut off by the turn cap "
        f"(max_turns={variant['options'].get('max_turns', '-')})."
    )
    finding = o["capped"]["rate"] > MANY_CAPPED or o["draws"]["rate"] > MANY_DRAWS
    return [_say("outcomes", text, finding)]


def _loops(variant: dict[str, Any]) -> list[dict[str, str]]:
    rep = variant.get("repetition")
    if not rep or not rep["loops"]["count"]:
        return []
    loops = rep["loops"]
    at = rep["at_repeats"]
    moves = ", ".join(list(rep["loop_moves"])[:4])
    most = rep["most_recurrences"] or {}
    text = (
        f"Loops: in {_games(loops['count'])} ({pct(loops['rate'])}) one public position came "
        f"round {rep['loop_threshold']} times or more (up to {most.get('max', 0):g} times); "
        f"{pct(rep['loops_in_capped']['rate'])} of the capped games had one."
    )
    if at["mean_legal"] is not None:
        forced = at["forced_share"] or 0.0
        if forced < 0.5:
            text += (
                f" At a repeated position the player to move had {at['mean_legal']:.1f} legal "
                f"moves on average and only {pct(forced)} of those decisions were forced: the "
                "rules leave a way out, the bots chose to go round again"
            )
        else:
            text += (
                f" {pct(forced)} of the decisions at repeated positions had a single legal "
                "move: the rules themselves force the loop"
            )
        text += f" (moves played there: {moves})." if moves else "."
    return [_say("loops", text, loops["rate"] > MANY_CAPPED)]


def _games(count: float) -> str:
    return f"{count:g} game" + ("" if count == 1 else "s")


def _first_player(variant: dict[str, Any]) -> list[dict[str, str]]:
    first = variant.get("first_player")
    if not first:
        return []
    significant = first["p_value"] < ALPHA
    if significant:
        edge = "an advantage" if first["advantage"] > 0 else "a disadvantage"
        text = (
            f"Moving first is {edge}: the first player wins {pct(first['rate'])} against a "
            f"fair {pct(first['expected'])} ({first['advantage'] * 100:+.1f} points, "
            f"{p_text(first['p_value'])}, {first['games']} games)."
        )
    else:
        text = (
            f"No significant first-player edge: {pct(first['rate'])} against a fair "
            f"{pct(first['expected'])} ({p_text(first['p_value'])})."
        )
    return [_say("first player", text, significant)]


def _fairness(variant: dict[str, Any]) -> list[dict[str, str]]:
    found_all = variant.get("fairness", {})
    teams = (found_all.get("team") or {}).get("members") or {}
    out = []
    for category, found in found_all.items():
        test = found["test"]
        if test is None:
            continue
        if category == "role" and teams:
            continue  # roles play in teams: the team sentence names them
        words = CATEGORY_WORDS.get(category, category.title())
        significant = test["p_value"] < ALPHA
        tested = (
            f"chi-square {test['chi2']:.1f}, {test['df']} df, {p_text(test['p_value'])}, "
            f"games as units"
        )
        if category == "team":
            text = _team_sentence(found, teams, tested, significant)
        elif significant:
            keys = sorted(found["keys"].items(), key=lambda item: -abs(item[1]["z"]))
            extremes = "; ".join(
                f"{_label(category, k)} wins {pct(v['rate'])} (z = {v['z']:+.1f})"
                for k, v in keys[:3]
                if abs(v["z"]) >= 2
            )
            text = (
                f"{words} are not balanced ({tested}) against a fair share of "
                f"{pct(found['fair'])}: {extremes or 'no single one stands out'}."
            )
        else:
            text = (
                f"{words} look balanced: no significant difference from the fair share of "
                f"{pct(found['fair'])} ({p_text(test['p_value'])}, games as units; Ludii "
                f"balance {found['balance']:.2f})."
            )
        out.append(_say(category, text, significant))
    return out


def _label(category: str, key: str) -> str:
    return f"seat {key}" if category == "seat" else key.title()


def _team_sentence(
    found: dict[str, Any], members: dict[str, list[str]], tested: str, significant: bool
) -> str:
    """Teams in words, each with its roles: "Good (Constable and Duke) wins 67.9% of games"."""
    keys = sorted(found["keys"].items(), key=lambda item: -item[1]["rate"])
    parts = []
    for team, v in keys:
        roles = [r.title() for r in members.get(team, [])]
        who = team.title()
        if len(roles) > 1:
            who += f" ({', '.join(roles[:-1])} and {roles[-1]})"
        elif roles and roles[0].lower() != team.lower():
            who += f" ({roles[0]})"
        parts.append(f"{who} wins {pct(v['rate'])} of games")
    listed = "; ".join(parts)
    if significant:
        return f"The teams are not balanced ({tested}): {listed}."
    return f"The teams look balanced ({p_text(found['test']['p_value'])}): {listed}."


def _rules(variant: dict[str, Any]) -> list[dict[str, str]]:
    actions = [r for r in (variant.get("rules") or []) if r["kind"] == "action" and not r["detail"]]
    never = [r["rule"] for r in actions if r["games"]["count"] == 0]
    rare = [
        f"{r['rule']} ({r['games']['count']} of {r['games']['games']} games)"
        for r in actions
        if 0 < r["games"]["rate"] < RARE
    ]
    out = []
    if never:
        out.append(_say("rules", f"Never used by these bots: {', '.join(never)}.", True))
    if rare:
        out.append(_say("rules", f"Rarely used (under 1% of games): {', '.join(rare)}.", True))
    telling = [
        r
        for r in (variant.get("rules") or [])
        if not r["detail"] and r["given"] and (r["given"]["holm_p"] or 1) < ALPHA
    ]
    telling.sort(key=lambda r: -abs(r["given"]["delta"]))
    if telling:
        parts = [
            f"{r['rule']} ({r['kind']}) {pct(r['given']['fired']['rate'])} against "
            f"{pct(r['given']['not_fired']['rate'])}"
            for r in telling[:4]
        ]
        out.append(
            _say(
                "rules",
                "A seat that does these wins significantly more or less than one that does "
                f"not (Holm-adjusted): {'; '.join(parts)}.",
                False,
            )
        )
    return out


METRIC_WORDS = {
    "outcome/decisive": "won by the rules",
    "outcome/draws": "drawn by the rules",
    "outcome/capped": "cut off by the turn cap",
    "first_player/win": "first player wins",
    "first_player/advantage": "first-player advantage",
    "focus/win": "the focus seat wins",
}


def metric_label(metric: str) -> str:
    """A compared measure in words: "seat 2 wins", "Duke wins", "won by the rules"."""
    if metric in METRIC_WORDS:
        return METRIC_WORDS[metric]
    category, _, key = metric.partition("/")
    if category == "seat":
        return f"seat {key} wins"
    if category in ("bot", "bot_role"):
        return f"{key} (bot) wins"
    return f"{key.title()} wins"


def _changes(table: dict[str, Any]) -> list[str]:
    found = [r for r in table["rates"] if (r.get("holm_p") or 1) < ALPHA]
    found.sort(key=lambda r: -abs(r["delta"]))
    parts = [f"{metric_label(r['metric'])} {r['delta'] * 100:+.1f} points" for r in found[:5]]
    for key, length in table.get("length", {}).items():
        if (length.get("holm_p") or 1) < ALPHA:
            parts.append(f"mean length in {key} {length['mean_difference']:+.1f}")
    return parts


def _comparison(report: dict[str, Any]) -> list[dict[str, str]]:
    table = report.get("comparison")
    if not table:
        return []
    config = report["config"]
    what = (
        ", ".join(f"{k}={v}" for k, v in config["vs_options"].items())
        or f"{config['vs_players']} players"
    )
    text = f"The variant ({what})"
    if table.get("paired"):
        text += f" left {pct(table['identical']['rate'])} of paired games move for move identical;"
        text += " it"
    changes = _changes(table)
    if changes:
        text += f" significantly changed (Holm-adjusted): {'; '.join(changes)}."
    elif table.get("paired"):
        text += " changed no measure significantly after Holm's correction."
    else:
        text += ": no measure changed significantly after Holm's correction."
    return [_say("variant", text, bool(changes))]


def _vs_fairness(report: dict[str, Any]) -> list[dict[str, str]]:
    """The compared player count's own first-player edge and unfair seats, roles, teams or
    factions: another player count is another game (the three-player Masquerade Ball plays
    the palace without its West courtroom), with its own fair shares."""
    vs = report["variants"].get("vs")
    base = report["variants"][report["reference"]]
    # At the same count the pairs compare the two (`_comparison`); a second, unpaired look at
    # the variant's own fairness would only add untested chances of a false finding.
    if not vs or vs["players"] == base["players"]:
        return []
    prefix = f"With {vs['players']} players"
    found = [s for s in _first_player(vs) + _fairness(vs) if s["level"] == "finding"]
    return [
        _say(s["topic"], f"{prefix}: {s['text'][0].lower()}{s['text'][1:]}", True) for s in found
    ]


def sweep_title(name: str, reference: str) -> str:
    """ "b=2 against b=1": a sweep point against the first one."""
    return f"{name.removeprefix('sweep:')} against {reference.removeprefix('sweep:')}"


def _sweep(report: dict[str, Any]) -> list[dict[str, str]]:
    sweep = report.get("sweep")
    if not sweep:
        return []
    out = []
    for name, table in sweep["comparisons"].items():
        changes = _changes(table)
        if changes:
            out.append(
                _say(
                    "sweep",
                    f"{sweep_title(name, sweep['reference'])}: {'; '.join(changes)} "
                    "(Holm-adjusted).",
                    True,
                )
            )
    if not out:
        out.append(
            _say("sweep", "No point of the sweep differs significantly from the first.", False)
        )
    return out


def _strategies(report: dict[str, Any]) -> list[dict[str, str]]:
    study = report.get("strategies")
    if not study:
        return []
    found = [e for e in study["entries"] if e["holm_p"] is not None and e["holm_p"] < ALPHA]
    found.sort(key=lambda e: -abs(e["delta"] or 0))
    if not found:
        return [
            _say(
                "strategies",
                "No restriction changed the win rate significantly (Holm-adjusted): no action "
                "kind studied is indispensable or dominant for this bot.",
                False,
            )
        ]
    parts = []
    for e in found[:6]:
        mode = "never using" if e["mode"] == "never" else "always preferring"
        parts.append(
            f"{mode} {e['kind']}: {pct(e['restricted']['rate'])} against "
            f"{pct(e['unrestricted']['rate'])} ({e['delta'] * 100:+.1f} points"
            f"{_strongest_label(e)})"
        )
    return [
        _say(
            "strategies",
            "Restricted play changes the win rate significantly (Holm-adjusted): "
            + "; ".join(parts)
            + ". A kind whose forcing wins more may dominate; one whose removal costs "
            "nothing may be useless.",
            True,
        )
    ]


# A role or faction's own effect is named from this many focus games of it on.
LABEL_GAMES = 20


def _strongest_label(entry: dict[str, Any]) -> str:
    """ "; as the Assassin -60.0": the role or faction the restriction moved most, when the
    game has them."""
    cells = [
        (label, cell)
        for labels in (entry.get("by") or {}).values()
        for label, cell in labels.items()
        if cell["restricted"]["games"] >= LABEL_GAMES
    ]
    if len(cells) < 2:
        return ""
    label, cell = max(cells, key=lambda item: abs(item[1]["delta"]))
    return f"; as {label.title()} {cell['delta'] * 100:+.1f}"


def _skill(report: dict[str, Any], reference: dict[str, Any]) -> list[dict[str, str]]:
    trace = report.get("skill_trace")
    out = []
    if trace:
        parts = [
            f"{e['strong']} vs {e['weak']} iterations: {pct(e['stronger']['rate'])} "
            f"(fair {pct(e['fair'])})"
            for e in trace["levels"]
        ]
        score = trace["score"]
        out.append(
            _say(
                "skill",
                f"Skill trace (ISMCTS, doubled iterations): {'; '.join(parts)}; Ludii score "
                f"{score:.2f}."
                if score is not None
                else f"Skill trace: {'; '.join(parts)}.",
                False,
            )
        )
    skill = reference.get("skill")
    if skill:
        gap = skill["strongest_vs_weakest"]
        out.append(
            _say(
                "skill",
                f"Skill matters: {gap['stronger']} wins {gap['delta'] * 100:+.1f} points more "
                f"than {gap['weaker']} ({p_text(gap['p_value'])})."
                if gap["p_value"] < ALPHA
                else f"No significant gap between {gap['stronger']} and {gap['weaker']} "
                f"({p_text(gap['p_value'])}).",
                False,
            )
        )
    return out
