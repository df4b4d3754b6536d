"""The balance report's measures of one variant, each a pure function of its games' rows.

Names follow Ludii's game metrics where they mean the same thing (see docs/balance.md):
*Completion* (games that end by the rules), *Drawishness* (natural draws), *Timeouts* (games
cut by the turn cap), *AdvantageP1*, *Balance*, *Duration*, *BranchingFactor*,
*DecisionMoves*, *PositionalRepetition*, *ScoreDifference*, *LeadChange*, *Stability*,
*Drama*, *ClarityVariance* and *ClarityNarrowness*. Ludii assumes everyone sees everything;
here win rates and their fairness are also given per role, seat and faction, and the
evaluation-based measures come from the real state (the referee's view) and from every seat's
own view (see `evaluation`).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from .stats import (
    Tally,
    balance_index,
    compare_tallies,
    fair_share_test,
    holm,
    homogeneity_test,
    one_proportion_z_test,
    summarize,
    wilson_interval,
)
from .trace import LOOP

# Per-seat score of the games whose final scores are a margin worth reporting (Ludii's
# ScoreDifference): Project Assassination's victory points, Shadows over Japan's Political
# Power. (Masquerade Murder's scores are tie-break counts of a team game.)
SCORE_NAMES = {"project-assassination": "VP", "shadows-over-japan": "Political Power"}
# Categories whose win rates are tested against their fair share.
FAIRNESS_CATEGORIES = ("seat", "role", "team", "faction")
# Progress bins of the evaluation trajectory plot.
TRAJECTORY_BINS = 10


def proportion(count: float, total: int) -> dict[str, Any]:
    low, high = wilson_interval(count, total)
    return {
        "count": count,
        "games": total,
        "rate": count / total if total else 0.0,
        "ci95": [low, high],
    }


def mean_summary(values: list[float]) -> dict[str, Any] | None:
    """Mean, its 95% interval (normal approximation), stdev and count; None when empty."""
    if not values:
        return None
    mean = statistics.fmean(values)
    stdev = statistics.stdev(values) if len(values) > 1 else 0.0
    margin = 1.959963984540054 * stdev / math.sqrt(len(values))
    return {
        "mean": mean,
        "ci95": [mean - margin, mean + margin],
        "stdev": stdev,
        "count": len(values),
    }


# -- how games end ------------------------------------------------------------------------------
def outcomes(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Every finished game in exactly one of: decisive (won by the rules), a natural draw,
    capped (cut off by ``max_turns``, whatever the cap then awards); completion = the first two."""
    capped = sum(bool(r["capped"]) for r in rows)
    draws = sum(bool(r["draw"]) and not r["capped"] for r in rows)
    decisive = len(rows) - capped - draws
    return {
        "decisive": proportion(decisive, len(rows)),
        "draws": proportion(draws, len(rows)),
        "capped": proportion(capped, len(rows)),
        "completion": proportion(decisive + draws, len(rows)),
    }


# -- fairness of seats, roles, teams and factions ---------------------------------------------
def fairness(win_rates: dict[str, dict[str, Tally]], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per category: the fair share (the mean result of that category's members), each key's
    score test against it, the omnibus test that every key gets its fair share — taking games
    as the units (`fair_share_test`), since a game's seats are tied — Pearson's chi-square on
    the key-rows for reference, and Ludii's *Balance* (1 - the largest gap between two
    rates). For teams, the roles in each team (``members``)."""
    by_game = results_by_game(rows)
    out = {}
    for category in FAIRNESS_CATEGORIES:
        tallies = win_rates.get(category)
        if not tallies or len(tallies) < 2:
            continue
        rows_test = homogeneity_test(list(tallies.values()))
        test = fair_share_test(by_game.get(category, []))
        fair = _pooled(tallies.values())
        keys = {}
        for key, tally in tallies.items():
            z, p = one_proportion_z_test(tally.wins, tally.games, fair)
            keys[str(key)] = {"rate": tally.rate, "games": tally.games, "z": z, "p_value": p}
        out[category] = {
            "fair": fair,
            "test": test,
            "pearson_rows": rows_test,
            "balance": balance_index([t.rate for t in tallies.values()]),
            "keys": keys,
        }
    if "team" in out:
        out["team"]["members"] = team_members(rows)
    return out


def results_by_game(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, float]]]:
    """Per category, per game: the result of every key present (a seat, its role or faction;
    a team's shared result). A key held by several seats of a game gets their mean."""
    out: dict[str, list[dict[str, float]]] = defaultdict(list)
    for row in rows:
        results = row["results"]
        labels = {"seat": [str(s) for s in range(len(results))], **(row.get("labels") or {})}
        for category, names in labels.items():
            if category not in FAIRNESS_CATEGORIES or len(names) != len(results):
                continue
            cells: dict[str, list[float]] = defaultdict(list)
            for name, result in zip(names, results, strict=True):
                cells[str(name)].append(result)
            out[category].append({k: statistics.fmean(v) for k, v in cells.items()})
    return out


def team_members(rows: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The roles seen in each team (Masquerade Murder: Good is the Constable and the Duke)."""
    members: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        labels = row.get("labels") or {}
        for team, role in zip(labels.get("team", []), labels.get("role", []), strict=False):
            members[team].add(role)
    return {team: sorted(roles) for team, roles in sorted(members.items())}


def _pooled(tallies: Iterable[Tally]) -> float:
    items = list(tallies)
    games = sum(t.games for t in items)
    return sum(t.wins for t in items) / games if games else 0.0


# -- which rules fired --------------------------------------------------------------------------
class _RuleCount:
    """One action or event kind's tallies, gathered in the single pass of `rules`."""

    __slots__ = ("attributed", "by_label", "fired", "games", "idle_wins", "total")

    def __init__(self) -> None:
        self.games = 0  # games in which it occurred
        self.total = 0  # occurrences
        self.fired = Tally()  # results of seats that did it
        self.idle_wins = 0.0  # wins of the seats that did not (their count follows)
        self.attributed = False  # did any seat do it (rather than only seatless events)?
        # (category, label) -> [times seats of that label did it, seats of that label]
        self.by_label: dict[tuple[str, str], list[int]] = {}


def rules(rows: list[dict[str, Any]], verbs: Iterable[str]) -> list[dict[str, Any]]:
    """How often each action and event kind (and each card, unit or result: the ``detail``
    names) occurred: in what share of games (with a Wilson interval), how many times per game,
    how often a seat of each role or faction did it, and — for those a seat did — the win rate
    of a seat that did it against one that did not, with Fisher's (or the z) test,
    Holm-adjusted over the table. Verbs of the game that never occurred are listed with zero
    counts. One pass over the games, touching only the kinds each game counted."""
    counts: dict[str, _RuleCount] = {f"action:{v}": _RuleCount() for v in verbs}
    seats = 0  # seat-rows in all games
    all_wins = 0.0
    label_seats: dict[tuple[str, str], int] = defaultdict(int)
    for row in rows:
        results = row["results"]
        players = len(results)
        seats += players
        all_wins += sum(results)
        labelled = [
            (category, labels)
            for category, labels in (row.get("labels") or {}).items()
            if category in ("role", "faction") and len(labels) == players
        ]
        for category, labels in labelled:
            for label in labels:
                label_seats[(category, label)] += 1
        for name, per_seat in (row.get("counts") or {}).items():
            count = counts.get(name)
            if count is None:
                count = counts[name] = _RuleCount()
            occurred = sum(per_seat)
            count.total += occurred
            count.games += occurred > 0
            for seat in range(players):
                done = per_seat[seat] if seat < len(per_seat) else 0
                if done:
                    count.attributed = True
                    count.fired.add(results[seat])
                    for category, labels in labelled:
                        cell = count.by_label.setdefault((category, labels[seat]), [0, 0])
                        cell[0] += done
    games = len(rows)
    entries = []
    for name in sorted(counts):
        count = counts[name]
        idle = Tally(all_wins - count.fired.wins, seats - count.fired.games)
        entries.append(_rule_entry(name, count, idle, games, label_seats))
    adjusted = holm([e["given"]["p_value"] if e["given"] else None for e in entries])
    for entry, p in zip(entries, adjusted, strict=True):
        if entry["given"] is not None:
            entry["given"]["holm_p"] = p
    return entries


def _rule_entry(
    name: str,
    count: _RuleCount,
    idle: Tally,
    games: int,
    label_seats: dict[tuple[str, str], int],
) -> dict[str, Any]:
    kind, _, rest = name.partition(":")
    given = None
    per_seat_by: dict[str, dict[str, float]] = {}
    if count.attributed:
        given = {
            "fired": count.fired.to_json(),
            "not_fired": idle.to_json(),
            **compare_tallies(idle, count.fired),
        }
        for (category, label), seats in sorted(label_seats.items()):
            done = count.by_label.get((category, label), [0])[0]
            per_seat_by.setdefault(category, {})[label] = done / seats
    return {
        "name": name,
        "kind": kind,
        "rule": rest,
        "detail": " " in rest,
        "games": proportion(count.games, games),
        "per_game": count.total / games if games else 0.0,
        "given": given,
        "per_seat_by": per_seat_by,
    }


# -- loops ---------------------------------------------------------------------------------------
def repetition(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Ludii's *PositionalRepetition* (mean share of public positions that were a repeat),
    games with a loop (a position seen ``LOOP`` times or more), loops among capped games, and
    what the player to move could do at a repeated position."""
    kept = [r for r in rows if r.get("repetition") and r["repetition"]["positions"]]
    if not kept:
        return None
    shares = [1 - r["repetition"]["distinct"] / r["repetition"]["positions"] for r in kept]
    looped = [r for r in kept if r["repetition"]["most"] >= LOOP]
    capped = [r for r in kept if r["capped"]]
    decisions = sum(r["repetition"]["decisions"] for r in kept)
    forced = sum(r["repetition"]["forced"] for r in kept)
    legal = sum(r["repetition"]["legal"] for r in kept)
    moves: dict[str, int] = defaultdict(int)
    for row in looped:
        for verb, count in row["repetition"]["moves"].items():
            moves[verb] += count
    most = [float(r["repetition"]["most"]) for r in looped]
    return {
        "positional_repetition": statistics.fmean(shares),
        "loop_threshold": LOOP,
        "loops": proportion(len(looped), len(kept)),
        "loops_in_capped": proportion(
            sum(r["repetition"]["most"] >= LOOP for r in capped), len(capped)
        ),
        "loops_in_uncapped": proportion(
            len(looped) - sum(r["repetition"]["most"] >= LOOP for r in capped),
            len(kept) - len(capped),
        ),
        "most_recurrences": summarize(most) if most else None,
        "at_repeats": {
            "decisions": decisions,
            "forced_share": forced / decisions if decisions else None,
            "mean_legal": legal / decisions if decisions else None,
        },
        "loop_moves": dict(sorted(moves.items(), key=lambda item: (-item[1], item[0]))),
    }


# -- decisions -----------------------------------------------------------------------------------
def branching(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Ludii's *BranchingFactor* (mean legal moves per decision) and *DecisionMoves* (share of
    decisions with more than one legal move), overall and by phase, with the most legal moves
    seen; and decisions per game."""
    phases: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    per_game = []
    for row in rows:
        decisions = 0
        for phase, (n, total, most, choices) in (row.get("branching") or {}).items():
            cell = phases[phase]
            cell[0] += n
            cell[1] += total
            cell[2] = max(cell[2], most)
            cell[3] += choices
            decisions += choices
        per_game.append(float(decisions))
    if not phases:
        return None

    def describe(n: int, total: int, most: int, choices: int) -> dict[str, Any]:
        return {
            "decisions": n,
            "branching_factor": total / n if n else 0.0,
            "max": most,
            "decision_moves": choices / n if n else 0.0,
        }

    overall = [sum(cell[i] for cell in phases.values()) for i in range(4)]
    overall[2] = max(cell[2] for cell in phases.values())
    return {
        **describe(*overall),
        "choices_per_game": summarize(per_game),
        "by_phase": {phase: describe(*cell) for phase, cell in sorted(phases.items())},
    }


# -- score margins -------------------------------------------------------------------------------
def score_margins(game_id: str, rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Ludii's *ScoreDifference* at the end: the top score minus the next, in games whose
    scores are a margin (`SCORE_NAMES`), and the winner's lead in games that had one."""
    unit = SCORE_NAMES.get(game_id)
    scored = [r for r in rows if r.get("scores")]
    if unit is None or not scored:
        return None
    gaps, leads = [], []
    for row in scored:
        scores = sorted(row["scores"], reverse=True)
        gaps.append(float(scores[0] - scores[1]) if len(scores) > 1 else 0.0)
        if row["winners"] and not row["capped"]:
            best_winner = max(row["scores"][s] for s in row["winners"])
            others = [v for s, v in enumerate(row["scores"]) if s not in row["winners"]]
            if others:
                leads.append(float(best_winner - max(others)))
    return {"unit": unit, "top_two_gap": summarize(gaps), "winner_lead": summarize(leads)}


# -- the evaluation over the game ----------------------------------------------------------------
def evaluation(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Lead changes, stability, drama, when the winner took the lead for good, clarity and —
    hidden information — how far each seat's own estimate is from the referee's, averaged over
    the evaluated games (see `evaluation`). Per seat label (role, faction) as well."""
    traced = [r for r in rows if r.get("eval")]
    if not traced:
        return None
    per_game: dict[str, list[float]] = defaultdict(list)
    misjudged: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    bins: dict[str, list[list[float]]] = {
        "winners": [[] for _ in range(TRAJECTORY_BINS)],
        "losers": [[] for _ in range(TRAJECTORY_BINS)],
    }
    for row in traced:
        for key, value in _game_evaluation(row).items():
            if value is not None:
                per_game[key].append(value)
        _misjudgement(row, misjudged)
        _trajectory(row, bins)
    summary = {key: mean_summary(values) for key, values in sorted(per_game.items())}
    return {
        "games": len(traced),
        **summary,
        "uncertainty_by": {
            category: {label: mean_summary(v) for label, v in sorted(labels.items())}
            for category, labels in misjudged.items()
        },
        "trajectory": {
            side: [statistics.fmean(b) if b else None for b in cells]
            for side, cells in bins.items()
        },
    }


def _leaders(values: list[float]) -> frozenset[int]:
    best = max(values)
    return frozenset(s for s, v in enumerate(values) if v >= best - 1e-9)


def _lead_changes(trace: list[list[float]]) -> float | None:
    if len(trace) < 2:
        return None
    leaders = [_leaders(values) for values in trace]
    return sum(a != b for a, b in itertools.pairwise(leaders)) / (len(trace) - 1)


def _game_evaluation(row: dict[str, Any]) -> dict[str, float | None]:
    trace = row["eval"]
    truth, own = trace["truth"], trace["own"]
    players = len(row["results"])
    stability = sum(statistics.pvariance([t[s] for t in truth]) for s in range(players))
    winners = row["winners"] if not row["draw"] else []
    drama = lead_for_good = None
    if winners and truth:
        drama = statistics.fmean(max(t) - statistics.fmean(t[w] for w in winners) for t in truth)
        lead_for_good = _lead_for_good(trace, winners)
    clarity = [c for c in trace["clarity"] if c is not None]
    uncertainty = [
        abs(o - t) for os, ts in zip(own, truth, strict=True) for o, t in zip(os, ts, strict=True)
    ]
    return {
        "lead_change": _lead_changes(truth),
        "lead_change_own": _lead_changes(own),
        "stability": stability,
        "drama": drama,
        "lead_for_good": lead_for_good,
        "clarity_variance": statistics.fmean(c[0] for c in clarity) if clarity else None,
        "clarity_narrowness": statistics.fmean(c[1] for c in clarity) if clarity else None,
        "uncertainty": statistics.fmean(uncertainty) if uncertainty else None,
    }


def _lead_for_good(trace: dict[str, Any], winners: list[int]) -> float:
    """The share of the game played before a winner led (by the referee's evaluation) at every
    later evaluated moment: 0 when a winner led throughout, 1 when never for good."""
    start = len(trace["truth"])
    for k in range(len(trace["truth"]) - 1, -1, -1):
        if any(w in _leaders(trace["truth"][k]) for w in winners):
            start = k
        else:
            break
    if start >= len(trace["truth"]):
        return 1.0
    return trace["steps"][start] / max(trace["length"], 1)


def _misjudgement(row: dict[str, Any], out: dict[str, dict[str, list[float]]]) -> None:
    trace = row["eval"]
    labels = {"seat": [str(s) for s in range(len(row["results"]))], **(row.get("labels") or {})}
    for seat in range(len(row["results"])):
        gaps = [abs(o[seat] - t[seat]) for o, t in zip(trace["own"], trace["truth"], strict=True)]
        if not gaps:
            continue
        for category, names in labels.items():
            if category in ("seat", "role", "faction"):
                out[category][names[seat]].append(statistics.fmean(gaps))


def _trajectory(row: dict[str, Any], bins: dict[str, list[list[float]]]) -> None:
    """The referee's value of winners and of losers, by tenth of the game."""
    if row["draw"] or not row["winners"]:
        return
    trace = row["eval"]
    length = max(trace["length"] - 1, 1)
    for step, values in zip(trace["steps"], trace["truth"], strict=True):
        cell = min(int(step / length * TRAJECTORY_BINS), TRAJECTORY_BINS - 1)
        for seat, value in enumerate(values):
            side = "winners" if seat in row["winners"] else "losers"
            bins[side][cell].append(value)
