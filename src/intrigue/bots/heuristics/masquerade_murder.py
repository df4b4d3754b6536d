"""A Masquerade Murder player that reasons from its own results, as the seed's strategy suggests.

Evidence comes only from the seat's view: its past targets and colours, and the public harms.
Each role reads its colour table backwards (a Duke's RED means "evil", a Constable's GREEN means
"Assassin or Seductress, or someone who was attacked", ...) into a score per seat: how likely the
seat is to be one the role wants to hit. The draft favours the Joker and late slots, which let
you sit next to a target who is already placed; placement sits next to the target when it can.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

from intrigue.engine import Action
from intrigue.games.masquerade_murder.resolution import ASSASSIN, DUKE, ROLE_NAMES, SEDUCTRESS

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
    places = [a for a in legal if a.verb == "place"]
    if target_cell is not None:
        beside = [a for a in places if a.args[0] in neighbours[target_cell]]
        if beside:
            return beside[rng.randrange(len(beside))]
        # The Joker may take a seat beside the target and move its occupant away.
        swaps = [a for a in legal if a.verb == "swap" and a.args[0] in neighbours[target_cell]]
        if swaps:
            return swaps[rng.randrange(len(swaps))]
    # Target not placed yet: take a seat with the most free neighbours, so it can join us.
    room = [len(neighbours[a.args[0]] - taken) for a in places]  # type: ignore[index]
    most = max(room)
    roomy = [a for a, free in zip(places, room, strict=True) if free == most]
    return roomy[rng.randrange(len(roomy))]


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
