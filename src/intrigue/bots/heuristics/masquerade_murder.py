"""A Masquerade Murder player that reasons from its own results, as the seed's strategy suggests.

Evidence comes only from the seat's view: its past targets and colours, and the public harms.
Each role reads its colour table backwards (a Duke's RED means "evil", a Constable's GREEN means
"Assassin or Seductress, or someone who was attacked", ...) into a score per seat: how likely the
seat is to be one the role wants to hit. The draft favours the Joker and late slots, which let
you sit next to a target who is already placed; placement sits next to the target when it can.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from itertools import accumulate
from typing import Any

from intrigue.engine import Action
from intrigue.games.masquerade_murder.belief import consistent_roles, determinize, night_targets
from intrigue.games.masquerade_murder.resolution import (
    ASSASSIN,
    DUKE,
    ROLE_NAMES,
    SEDUCTRESS,
    resolve,
)
from intrigue.games.masquerade_murder.rules import JOKER, PLAYERS, placement_moves

from ..base import RandomSource
from .valuation import per_seat_evaluation

# For each role: how much a GREEN / RED result on a seat says "this seat is worth targeting".
EVIDENCE = {
    "constable": (2.0, -2.0),  # GREEN: Assassin/Seductress (or attacked); RED: Thug/Duke
    "seductress": (2.0, -3.0),  # GREEN: Thug/Duke; RED: Assassin/Constable
    "assassin": (2.0, -2.0),  # GREEN: Constable/Duke; RED: Seductress/Thug
    "duke": (-1.0, -1.0),  # the Duke reads people he has not read yet
    "thug": (1.5, -0.5),  # GREEN: the target needed protection
}
DRAFT_PREFERENCE = ("joker", "king", "queen", "jack", "two", "ace")


def choose(view: dict[str, Any], legal_actions: list[Action], rng: RandomSource) -> Action:
    """The heuristic move for the phase the view is in."""
    phase = view["phase"]
    if phase == "target":
        return _choose_target(suspicion(view), legal_actions, rng)
    if phase == "draft":
        return _choose_card(legal_actions)
    me = view["you"]
    target = me["target"]
    table = view["table"]
    return _choose_seat(
        _neighbours(tuple(view["board"]["rows"])),
        table[target]["cell"] if target is not None else None,
        {row["cell"] for row in table if row["cell"] is not None},
        legal_actions,
        rng,
    )


def suspicion(view: dict[str, Any]) -> dict[int, float]:
    """A score per other seat in the game: higher means a better target for this role."""
    me = view["you"]
    results = [(r["target"], r["colour"]) for r in me["results"]]
    others = [row["seat"] for row in view["table"] if row["status"] == "in"]
    harmed = [night["distracted"] + night["poisoned"] for night in view["nights"]]
    return _scores(me["role"], view["seat"], others, results, harmed)


def _scores(
    role: str,
    seat: int,
    active: list[int],
    results: list[tuple[int, str]],
    harmed: list[list[int]],
) -> dict[int, float]:
    """Evidence per seat in the game but ``seat``: the role's colour table read backwards."""
    good, bad = EVIDENCE[role]
    scores = {p: 0.0 for p in active if p != seat}
    for target, colour in results:
        if target not in scores or colour == "GREY":
            continue
        scores[target] += good if colour == "GREEN" else bad
    if role == "thug":
        # Whoever was harmed in public is likely to be attacked again.
        for seats in harmed:
            for p in seats:
                if p in scores:
                    scores[p] += 0.5
    return scores


def _choose_target(scores: dict[int, float], legal: list[Action], rng: RandomSource) -> Action:
    best = max(scores[a.args[0]] for a in legal)  # type: ignore[index]
    top = [a for a in legal if scores[a.args[0]] == best]  # type: ignore[index]
    return top[rng.randrange(len(top))]


def _choose_card(legal: list[Action]) -> Action:
    by_card = {a.args[0]: a for a in legal}
    return next(by_card[c] for c in DRAFT_PREFERENCE if c in by_card)


def _choose_seat(
    neighbours: Mapping[str, AbstractSet[str]],
    target_cell: str | None,
    taken: AbstractSet[str],
    legal: list[Action],
    rng: RandomSource,
) -> Action:
    best = _best_seats(neighbours, target_cell, taken, legal)
    return best[rng.randrange(len(best))]


def _best_seats(
    neighbours: Mapping[str, AbstractSet[str]],
    target_cell: str | None,
    taken: AbstractSet[str],
    legal: list[Action],
) -> list[Action]:
    """The placements `_choose_seat` picks among, all alike: beside the target if it sits
    already, else the seats with the most free neighbours."""
    places = [a for a in legal if a.verb == "place"]
    if target_cell is not None:
        beside = [a for a in places if a.args[0] in neighbours[target_cell]]
        if beside:
            return beside
        # The Joker may take a seat beside the target and move its occupant away.
        swaps = [a for a in legal if a.verb == "swap" and a.args[0] in neighbours[target_cell]]
        if swaps:
            return swaps
    # Target not placed yet: take a seat with the most free neighbours, so it can join us.
    room = [len(neighbours[a.args[0]] - taken) for a in places]  # type: ignore[index]
    most = max(room)
    return [a for a, free in zip(places, room, strict=True) if free == most]


@lru_cache(maxsize=8)
def _neighbours(rows: tuple[str, ...]) -> dict[str, set[str]]:
    cells = {
        f"{'abcdefghij'[c]}{r + 1}": (c, r)
        for r, line in enumerate(rows)
        for c, ch in enumerate(line)
        if ch == "."
    }
    at = {pos: name for name, pos in cells.items()}
    return {
        name: {
            at[(c + dc, r + dr)]
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if (c + dc, r + dr) in at
        }
        for name, (c, r) in cells.items()
    }


# -- reasons, for people (the hints of a First game: intrigue.bots.advice) ---------------------
def explain(view: dict[str, Any], legal: list[Action], action: Action) -> str | None:
    """Why `choose` picked ``action``, in a phrase for people (None: no clear reason)."""
    if action.verb == "target":
        score = suspicion(view).get(action.args[0], 0.0)  # type: ignore[call-overload]
        if score > 0:
            return "your results so far point to this seat"
        return None  # no evidence yet: any seat is as good a guess
    if action.verb == "draw":
        return "the Joker and the late slots let you sit next to a target already seated"
    me = view["you"]
    target = me["target"]
    cell = view["table"][target]["cell"] if target is not None else None
    if cell is not None and action.args[0] in _neighbours(tuple(view["board"]["rows"]))[cell]:
        return "it puts you next to your target"
    if action.verb == "place":
        return "a seat with free places around it, so your target can still sit beside you"
    return None


# -- search hooks -----------------------------------------------------------------------------
def rollout_policy(state: Any, seat: int, legal: list[Action], rng: RandomSource) -> Action:
    """`choose` for ``seat`` in a determinization, read straight from the state (the same
    facts its view shows: its role, target and results, the public harms and cells), which
    saves building the view on every move of a rollout."""
    phase = state.phase
    if phase == "target":
        results = [
            (night.targets[seat], night.result.colours[seat])
            for night in state.nights
            if night.active[seat]
        ]
        active = [p for p in range(len(state.active)) if state.active[p]]
        harmed = [_harmed(night.result) for night in state.nights]
        role = ROLE_NAMES[state.roles[seat]]
        return _choose_target(_scores(role, seat, active, results, harmed), legal, rng)
    if phase == "draft":
        return _choose_card(legal)
    target = state.targets[seat]
    cells = state.cells
    return _choose_seat(
        state.neighbours,
        cells[target] if target >= 0 else None,
        {c for c in cells if c is not None},
        legal,
        rng,
    )


def _harmed(result: Any) -> list[int]:
    return [p for p in (result.distracted, result.poisoned) if p >= 0]


# Fitted by bench/fit_values.py (heuristic self-play, epsilon 0.1, max_turns=15).
WEIGHTS = (0.2851, -0.2851, 3.159, -1.184, -0.2466, 0.9664, 0.1676, 1.41, -1.753, 3.768)
# Whole rollouts (depth 0): a ball is short and the state-read policy cheap (docs/bots.md).
SEARCH = {
    "depth": 0,
    "bias": 1.0,
    "epsilon": 0.1,
    "opponents": "policy",
    "margin": 0.0,
    "reuse": 4,
}
GOOD_SIGN = {"constable": 1.0, "duke": 1.0, "thug": 0.0, "seductress": -1.0, "assassin": -1.0}


def features(state: Any, seat: int) -> list[float]:
    """The seat's team (intercepts) and the counts that end the ball, signed for the team:
    poisons and captures on the Duke, captures on the Assassin and the Seductress, how much
    of the ball is left (at the cap Good wins); for the Thug, his own poisons and captures.

    ``state`` is a determinization: the roles read here are a sample of the hidden ones.
    """
    roles = state.roles
    role = ROLE_NAMES[roles[seat]]
    sign = GOOD_SIGN[role]
    thug = 1.0 if role == "thug" else 0.0
    duke, assassin, seductress = roles.index(DUKE), roles.index(ASSASSIN), roles.index(SEDUCTRESS)
    cap = state.options["max_turns"]
    progress = 0.0 if cap is None else min(state.night / cap, 1.0)
    return [
        1.0 if sign > 0 else 0.0,
        1.0 if sign < 0 else 0.0,
        thug,
        sign * state.poisons[duke],
        sign * state.captures[duke],
        sign * state.captures[assassin],
        sign * state.captures[seductress],
        sign * progress,
        thug * (state.poisons[seat] + state.captures[seat]),
        thug * progress,
    ]


evaluate = per_seat_evaluation(WEIGHTS, features)


# -- belief: the public play read as `medium` plays it ----------------------------------------
# The chance that a seat picks its target, or its place, otherwise than `medium` would (people
# and other bots do): a deal of roles that explains a move badly grows less likely, it is not
# ruled out.
STRAY = 0.1
PATHS = 16  # target histories followed per deal of roles (`_follow`)


def resample(sample: Any, seat: int, rng: Any) -> Callable[[Any], Any]:
    """Determinizations drawn as `State.determinize` draws them, but with the deal of roles and
    the finished nights' targets weighed by how well they explain the public play of seats
    playing as `medium` does: each aims at whom its own results point to (`_scores`) and sits
    beside its target when it can (`_best_seats`).

    For each deal consistent with what ``seat`` saw, ``PATHS`` target histories are followed
    night by night (a particle filter): a night's targets are drawn among those that show
    ``seat`` what it saw, each in proportion to how likely every other seat's target and place
    were given its own results so far in that history; the deal weighs what the nights'
    likelihoods multiply to. A draw picks a deal by its weight and one of its histories, and
    the other seats' targets of the night in progress as `medium` would aim given that history,
    weighed by the places taken so far tonight (`_tonight`). ``sample`` is a determinization:
    only its public record and ``seat``'s own are read.
    """
    placements = _placements(sample)
    weighed = weigh_deals(sample, seat, rng, placements)
    bounds = list(accumulate(weight for _, weight, _ in weighed))
    tonight = _tonight(sample, seat, placements)

    def draw(rng: Any) -> Any:
        roles, _, followed = weighed[bisect_right(bounds, rng.random() * bounds[-1])]
        path, history = followed[rng.randrange(len(followed))]
        current = tonight(roles, history, rng)
        return determinize(sample, seat, rng, roles=roles, targets=list(path), current=current)

    return draw


def _tonight(
    sample: Any, seat: int, placements: list[list[tuple[int, Action]]]
) -> Callable[[tuple[int, ...], History, Any], dict[int, int]]:
    """A draw of the other seats' targets of the night in progress, given the deal and their
    results so far (a followed history): `medium`'s choice or astray, weighed by the places
    taken so far tonight (the last of ``placements``, `_placements`, if it is tonight's)."""
    placed = placements[len(sample.nights)] if len(placements) > len(sample.nights) else []
    places = _place_odds(sample, sample.cards, sample.active, placed, seat)
    in_game = [p for p in range(PLAYERS) if sample.active[p]]
    harmed = [_harmed(record.result) for record in sample.nights]

    def draw(roles: tuple[int, ...], history: History, rng: Any) -> dict[int, int]:
        current = {}
        for p in in_game:
            if p != seat:
                odds = _target_odds(roles[p], p, in_game, history[p], harmed, places.get(p))
                (current[p],) = rng.choices(list(odds), weights=list(odds.values()))
        return current

    return draw


def weigh_deals(
    sample: Any, seat: int, rng: Any, placements: list[list[tuple[int, Action]]] | None = None
) -> list[tuple[tuple[int, ...], float, Followed]]:
    """Every deal of roles consistent with what ``seat`` saw, with its chance under the
    `medium` reading of the public play (the chances add up to 1) and the target histories
    followed for it (`resample`); ``placements``: `_placements(sample)`, if already read."""
    deals = consistent_roles(sample, seat)
    if placements is None:
        placements = _placements(sample)
    followed = [_follow(sample, seat, roles, placements, rng) for roles in deals]
    top = max(fit for fit, _ in followed)
    weights = [math.exp(fit - top) for fit, _ in followed]
    total = sum(weights)
    return [
        (roles, weight / total, paths)
        for roles, weight, (_, paths) in zip(deals, weights, followed, strict=True)
    ]


def _placements(state: Any) -> list[list[tuple[int, Action]]]:
    """Each night's placements and swaps, in the order they were made (public)."""
    nights: list[list[tuple[int, Action]]] = []
    placing = False
    for actor, action in state.history:
        if action.verb in ("place", "swap"):
            if not placing:
                nights.append([])
                placing = True
            nights[-1].append((actor, action))
        else:
            placing = False
    return nights


# Per seat: its (target, colour) of every night so far, in one followed history.
History = tuple[tuple[tuple[int, str | None], ...], ...]
# The followed histories of a deal: every finished night's targets, and the History they give.
Followed = list[tuple[tuple[tuple[int, ...], ...], History]]


def _follow(
    state: Any,
    seat: int,
    roles: tuple[int, ...],
    placements: list[list[tuple[int, Action]]],
    rng: Any,
) -> tuple[float, Followed]:
    """The log-likelihood of the finished nights' public play under ``roles`` (as estimated by
    `PATHS` followed histories) and the target histories followed, night by night."""
    neighbours = state.neighbours
    fit = 0.0
    histories: list[History] = [((),) * PLAYERS] * PATHS
    paths: list[tuple[tuple[int, ...], ...]] = [()] * PATHS
    harmed: list[list[int]] = []
    for record, placed in zip(state.nights, placements, strict=False):
        choices = night_targets(state, roles, record, seat)
        in_game = [p for p in range(PLAYERS) if record.active[p]]
        others = [p for p in in_game if p != seat]
        places = _place_odds(state, record.cards, record.active, placed, seat)
        by_history: dict[History, tuple[list[float], float]] = {}
        for history in histories:
            if history not in by_history:
                odds = {
                    p: _target_odds(roles[p], p, in_game, history[p], harmed, places[p])
                    for p in others
                }
                row = []
                for choice in choices:
                    weight = 1.0
                    for p in others:
                        weight *= odds[p][choice[p]]
                    row.append(weight)
                by_history[history] = (row, sum(row))
        totals = [by_history[history][1] for history in histories]
        fit += math.log(sum(totals) / PATHS)
        picked = rng.choices(range(PATHS), weights=totals, k=PATHS)
        colours: dict[tuple[int, ...], tuple[str | None, ...]] = {}
        new_histories, new_paths = [], []
        for at in picked:
            history = histories[at]
            (choice,) = rng.choices(choices, weights=by_history[history][0])
            if choice not in colours:
                res = resolve(roles, record.active, choice, record.cells, neighbours)
                colours[choice] = res.colours
            shown = colours[choice]
            new_histories.append(
                tuple(
                    (*history[p], (choice[p], shown[p])) if record.active[p] else history[p]
                    for p in range(PLAYERS)
                )
            )
            new_paths.append((*paths[at], choice))
        histories, paths = new_histories, new_paths
        harmed.append(_harmed(record.result))
    return fit, list(zip(paths, histories, strict=True))


def _target_odds(
    role: int,
    seat: int,
    in_game: list[int],
    results: tuple[tuple[int, str | None], ...],
    harmed: list[list[int]],
    places: dict[int, float] | None,
) -> dict[int, float]:
    """How likely ``seat`` (holding ``role``) was to aim at each other seat in the game and
    then to sit where it sat (``places``; None: it has not sat yet): `medium`'s choice, or
    astray with chance `STRAY`."""
    scores = _scores(ROLE_NAMES[role], seat, in_game, list(results), harmed)
    best = max(scores.values())
    top = sum(1 for value in scores.values() if value == best)
    stray = STRAY / len(scores)
    return {
        target: (((1.0 - STRAY) / top if value == best else 0.0) + stray)
        * (1.0 if places is None else places[target])
        for target, value in scores.items()
    }


def _place_odds(
    state: Any,
    cards: Sequence[str | None],
    active: Sequence[bool],
    placed: list[tuple[int, Action]],
    seat: int,
) -> dict[int, dict[int, float]]:
    """For each seat but ``seat`` that placed (``placed``, in a night dealt ``cards`` with
    ``active`` seats in the game): how likely its place (or swap) was for each target it may
    have had, `medium`'s choice or astray (`STRAY`)."""
    neighbours, cells = state.neighbours, state.board.seats
    joker = cards.index(JOKER) if JOKER in cards else None
    occupant: dict[str, int] = {}
    odds: dict[int, dict[int, float]] = {}
    for actor, action in placed:
        if actor != seat:
            legal = placement_moves(cells, occupant, actor == joker)
            where = {p: cell for cell, p in occupant.items()}
            taken = set(occupant)
            by_cell: dict[str | None, float] = {}
            row = {}
            for target in range(PLAYERS):
                if target == actor or not active[target]:
                    continue
                cell = where.get(target)
                if cell not in by_cell:
                    best = _best_seats(neighbours, cell, taken, legal)
                    chosen = (1.0 - STRAY) / len(best) if action in best else 0.0
                    by_cell[cell] = chosen + STRAY / len(legal)
                row[target] = by_cell[cell]
            odds[actor] = row
        if action.verb == "place":
            occupant[action.args[0]] = actor  # type: ignore[index]
        else:
            into, away = action.args
            occupant[away] = occupant[into]  # type: ignore[index]
            occupant[into] = actor  # type: ignore[index]
    return odds
