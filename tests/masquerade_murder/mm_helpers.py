"""Helpers for the Masquerade Murder rule tests: set up a game and play whole nights.

Everything drives the real referee through ``game.new`` and ``state.apply``. Night 1 uses the
``first_cards`` option so the placement order is known in advance: the default deal
``IN_ORDER`` gives seat 0 the Ace, seat 1 the two, ... seat 4 the King, so seats place in
the order 0, 1, 2, 3, 4 and the Joker is the extra card.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

import intrigue
from intrigue.engine import IllegalAction
from intrigue.games.masquerade_murder.boards import BOARDS
from intrigue.games.masquerade_murder.rules import MurderState

GAME = intrigue.load("masquerade-murder")
SEATS = range(5)

# The roles of the RULINGS result-indicator table: P1 = C, P2 = T, P3 = S, P4 = A, P5 = D.
ROLES = ("constable", "thug", "seductress", "assassin", "duke")
C, T, S, A, D = SEATS  # the seat of each role under ROLES
LETTER = {"C": C, "T": T, "S": S, "A": A, "D": D}

IN_ORDER = ("ace", "two", "jack", "queen", "king")  # seats place 0..4; the Joker is the extra
ISOLATED = ("a3", "e2", "d4", "c3")  # bystander seats of the RULINGS table: touch nobody
# Five seats no two of which touch: a night placed like this changes nothing.
QUIET = {0: "a1", 1: "a3", 2: "e2", 3: "d4", 4: "c3"}


def new_game(
    roles: Iterable[str] | None = ROLES,
    *,
    seed: int = 0,
    first_cards: Iterable[str] | None = IN_ORDER,
    seating: Iterable[int] | None = (0, 1, 2, 3, 4),
    **options: Any,
) -> MurderState:
    """A game with fixed roles, night-1 cards and seating unless told otherwise (None: random)."""
    if roles is not None:
        options["roles"] = list(roles)
    if first_cards is not None:
        options["first_cards"] = list(first_cards)
    if seating is not None:
        options["seating"] = [str(s) for s in seating]
    state = GAME.new(5, seed, **options)
    assert isinstance(state, MurderState)
    return state


def active_seats(state: MurderState) -> list[int]:
    return [row["seat"] for row in state.view(None)["table"] if row["status"] == "in"]


def choose_targets(state: MurderState, targets: Mapping[int, int]) -> None:
    """Every active seat targets ``targets[seat]``, or else the next active seat."""
    seats = active_seats(state)
    for i, seat in enumerate(seats):
        target = targets.get(seat, seats[(i + 1) % len(seats)])
        state.apply(seat, f"target {target}")


def draft(state: MurderState, picks: Mapping[int, str] | None = None) -> list[int]:
    """Play the draft: each drawer takes ``picks[seat]`` or else the first card it sees.

    Returns the seats in the order they drew.
    """
    picks = picks or {}
    drawers = []
    while state.phase == "draft":
        (drawer,) = state.to_move
        pile = state.view(drawer)["draft"]["pile"]
        state.apply(drawer, f"draw {picks.get(drawer, pile[0])}")
        drawers.append(drawer)
    return drawers


def place_all(
    state: MurderState, cells: Mapping[int, str], swap: tuple[str, str] | None = None
) -> list[int]:
    """Every seat places on ``cells[seat]`` in slot order; the Joker holder plays ``swap`` if
    given. Returns the seats in the order they placed."""
    order = []
    while state.phase == "placement":
        (placer,) = state.to_move
        joker = state.view(None)["placement"]["joker"]
        if swap is not None and placer == joker:
            state.apply(placer, f"swap {swap[0]} {swap[1]}")
        else:
            state.apply(placer, f"place {cells[placer]}")
        order.append(placer)
    return order


def play_night(
    state: MurderState,
    targets: Mapping[int, int] | None = None,
    cells: Mapping[int, str] | None = None,
    picks: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """Play one whole night and return its public record (the last entry of view nights)."""
    night = state.night
    choose_targets(state, targets or {})
    draft(state, picks)
    place_all(state, QUIET if cells is None else cells)
    record = state.view(None)["nights"][-1]
    assert record["night"] == night
    return record


def quiet_nights(state: MurderState, count: int) -> None:
    """Nights where nobody touches anybody (everything GREY, nothing happens)."""
    for _ in range(count):
        play_night(state)


def parse_setup(spec: str) -> dict[int, str]:
    """'C@a1 A@b1' -> {seat of C: 'a1', seat of A: 'b1'} (roles as in ROLES)."""
    return {LETTER[item[0]]: item[2:] for item in spec.split()}


def parse_targets(spec: str) -> dict[int, int]:
    """'C>A A>C' -> {seat of C: seat of A, ...}."""
    return {LETTER[item[0]]: LETTER[item[2]] for item in spec.split()}


def with_bystanders(involved: Mapping[int, str]) -> dict[int, str]:
    """The involved seats where given; everyone else on the isolated seats a3, e2, d4, c3."""
    spare = iter(ISOLATED)
    cells = {seat: involved.get(seat) or next(spare) for seat in SEATS}
    neighbours = BOARDS["theta16"].neighbours
    for seat in set(SEATS) - set(involved):
        assert not neighbours[cells[seat]] & set(cells.values()), f"bystander {seat} touches"
    return cells


def colour(state: MurderState, seat: int) -> str:
    """The result colour ``seat`` saw for the last night it played (from its own view)."""
    return state.view(seat)["you"]["results"][-1]["colour"]


def colours(state: MurderState) -> dict[int, str]:
    return {seat: colour(state, seat) for seat in SEATS}


def harms(record: Mapping[str, Any]) -> tuple[set[int], set[int], set[int]]:
    """The public (captured, distracted, poisoned) sets of a night record."""
    return set(record["captured"]), set(record["distracted"]), set(record["poisoned"])


def snapshot(state: MurderState) -> str:
    """Everything observable about ``state``: its record and every view and log."""
    observers: list[int | None] = [None, *SEATS]
    return json.dumps(
        {
            "record": state.record().to_json(),
            "views": [state.view(s) for s in observers],
            "events": [state.events(s) for s in observers],
            "legal": [[str(a) for a in state.legal_actions(s)] for s in SEATS],
        },
        sort_keys=True,
    )


def assert_illegal(state: MurderState, seat: int, action: str, *words: str) -> IllegalAction:
    """``action`` raises IllegalAction with a reason naming ``words``; the state is unchanged."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        state.apply(seat, action)
    reason = caught.value.reason.lower()
    for word in words:
        assert word.lower() in reason, f"{word!r} not in reason {caught.value.reason!r}"
    assert caught.value.seat == seat
    assert str(caught.value.action) == action
    assert snapshot(state) == before
    return caught.value
