"""A Masquerade Murder player that reasons from its own results, as the seed's strategy suggests.

Evidence comes only from the seat's view: its past targets and colours, and the public harms.
Each role reads its colour table backwards (a Duke's RED means "evil", a Constable's GREEN means
"Assassin or Seductress, or someone who was attacked", ...) into a score per seat: how likely the
seat is to be one the role wants to hit. The draft favours the Joker and late slots, which let
you sit next to a target who is already placed; placement sits next to the target when it can.
"""

from __future__ import annotations

from typing import Any

from intrigue.engine import Action

from ..base import RandomSource

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
        return _choose_target(view, legal_actions, rng)
    if phase == "draft":
        by_card = {a.args[0]: a for a in legal_actions}
        return next(by_card[c] for c in DRAFT_PREFERENCE if c in by_card)
    return _choose_seat(view, legal_actions, rng)


def suspicion(view: dict[str, Any]) -> dict[int, float]:
    """A score per other seat in the game: higher means a better target for this role."""
    me = view["you"]
    good, bad = EVIDENCE[me["role"]]
    scores = {
        row["seat"]: 0.0
        for row in view["table"]
        if row["status"] == "in" and row["seat"] != view["seat"]
    }
    for result in me["results"]:
        target = result["target"]
        if target not in scores or result["colour"] == "GREY":
            continue
        scores[target] += good if result["colour"] == "GREEN" else bad
    if me["role"] == "thug":
        # Whoever was harmed in public is likely to be attacked again.
        for night in view["nights"]:
            for seat in night["distracted"] + night["poisoned"]:
                if seat in scores:
                    scores[seat] += 0.5
    return scores


def _choose_target(view: dict[str, Any], legal: list[Action], rng: RandomSource) -> Action:
    scores = suspicion(view)
    best = max(scores[a.args[0]] for a in legal)  # type: ignore[index]
    top = [a for a in legal if scores[a.args[0]] == best]  # type: ignore[index]
    return top[rng.randrange(len(top))]


def _choose_seat(view: dict[str, Any], legal: list[Action], rng: RandomSource) -> Action:
    me = view["you"]
    neighbours = _neighbours(view["board"]["rows"])
    target_cell = view["table"][me["target"]]["cell"] if me["target"] is not None else None
    places = [a for a in legal if a.verb == "place"]
    if target_cell is not None:
        beside = [a for a in places if a.args[0] in neighbours[target_cell]]
        if beside:
            return beside[rng.randrange(len(beside))]
        # The Joker may take a seat beside the target and move its occupant away.
        swaps = [a for a in legal if a.verb == "swap" and a.args[0] in neighbours[target_cell]]
        if swaps:
            return swaps[rng.randrange(len(swaps))]
    taken = {row["cell"] for row in view["table"] if row["cell"] is not None}
    # Target not placed yet: take a seat with the most free neighbours, so it can join us.
    room = {a: sum(1 for n in neighbours[a.args[0]] if n not in taken) for a in places}  # type: ignore[index]
    most = max(room.values())
    roomy = [a for a in places if room[a] == most]
    return roomy[rng.randrange(len(roomy))]


def _neighbours(rows: list[str]) -> dict[str, set[str]]:
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
