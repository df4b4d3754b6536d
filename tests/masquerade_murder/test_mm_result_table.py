"""The result-indicator table: RULINGS MM-T01..MM-T32 and every row of the seed's section 3.6.

Each case is one night 1 played through the real referee. Roles are P1 = C, P2 = T, P3 = S,
P4 = A, P5 = D (seats 0..4); the involved players sit where the row says, everyone else on the
isolated seats a3, e2, d4, c3, and targets the next seat (touching nobody, so GREY). Checked:
the public captured/distracted/poisoned sets in every view's ``nights``, every seat's colour in
its own ``you.results`` (everyone not listed GREY), and the pure ``resolve`` agreeing.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest
from mm_helpers import (
    LETTER,
    ROLES,
    SEATS,
    choose_targets,
    colour,
    colours,
    harms,
    new_game,
    parse_setup,
    parse_targets,
    place_all,
    with_bystanders,
)

from intrigue.games.masquerade_murder.resolution import NOBODY, ROLE_INDEX, resolve
from intrigue.games.masquerade_murder.rules import BOARDS, MurderState


class Case(NamedTuple):
    """One row: seats and targets of the involved players, the public sets, the non-GREY
    colours. Sets and colours are written with role letters, e.g. captured="A",
    colours="C=GREEN S=RED"."""

    seats: str
    targets: str
    captured: str = ""
    distracted: str = ""
    poisoned: str = ""
    colours: str = ""


# RULINGS §1.6, the result-indicator table, row by row.
T_ROWS: dict[str, Case] = {
    "MM-T01": Case("C@a1 A@b1", "C>A A>C", captured="A", colours="C=GREEN"),
    "MM-T02": Case("C@a1 S@b1", "C>S S>C", captured="S", colours="C=GREEN"),
    "MM-T03": Case("C@a1 T@b1", "C>T T>C", captured="T", colours="C=RED"),
    "MM-T04": Case("C@a1 D@b1", "C>D D>T", captured="D", colours="C=RED"),
    "MM-T05": Case("C@a1 A@c1 D@b1", "C>D A>D D>T", captured="D", colours="C=GREEN A=GREEN"),
    "MM-T06": Case("C@a1 T@b1 S@c1", "C>T T>D S>T", captured="T", colours="C=GREEN S=GREEN"),
    "MM-T07": Case("C@a1 A@d1", "C>A A>C"),
    "MM-T08": Case("C@a1 T@b1 D@c1", "C>T T>D D>S", captured="T", colours="C=RED"),
    "MM-T09": Case("T@b1 S@a1 D@c1", "T>D S>T D>S", distracted="T", colours="S=GREEN"),
    "MM-T10": Case("T@a1 A@c1 D@b1", "T>D A>D D>S", colours="T=GREEN A=GREEN"),
    "MM-T11": Case("T@a1 D@b1", "T>D D>S", colours="T=RED"),
    "MM-T12": Case("C@a1 S@b1 D@c1", "C>S S>D D>T", captured="S", colours="C=GREEN"),
    "MM-T13": Case("T@b1 S@a1", "T>D S>T", distracted="T", colours="S=GREEN"),
    "MM-T14": Case("S@a1 D@b1", "S>D D>T", distracted="D", colours="S=GREEN"),
    "MM-T15": Case("S@a1 A@b1 D@c1", "S>A A>D D>T", distracted="A", colours="S=RED"),
    "MM-T16": Case("C@b1 S@a1 A@c1", "C>A S>C A>C", captured="A", colours="C=GREEN S=RED"),
    "MM-T17": Case("S@a1 A@b1", "S>A A>S", distracted="A", colours="S=GREEN"),
    "MM-T18": Case("C@a1 A@b1 D@c1", "C>A A>D D>T", captured="A", colours="C=GREEN"),
    "MM-T19": Case("S@a1 A@b1 D@c1", "S>A A>D D>T", distracted="A", colours="S=RED"),
    "MM-T20": Case("C@b1 A@a1", "C>D A>C", poisoned="C", colours="A=GREEN"),
    "MM-T21": Case("A@a1 D@b1", "A>D D>T", poisoned="D", colours="A=GREEN"),
    "MM-T22": Case("S@b1 A@a1", "S>D A>S", poisoned="S", colours="A=RED"),
    "MM-T23": Case("T@b1 A@a1", "T>C A>T", poisoned="T", colours="A=RED"),
    "MM-T24": Case("T@b1 A@c1 D@a1", "T>D A>T D>S", poisoned="T", colours="T=RED A=GREEN"),
    "MM-T25": Case("C@a1 D@b1", "C>D D>C", captured="D", colours="C=RED"),
    "MM-T26": Case("S@a1 D@b1", "S>D D>S", distracted="D", colours="S=GREEN"),
    "MM-T27": Case("C@b1 D@a1", "C>S D>C", colours="D=GREEN"),
    "MM-T28": Case("T@b1 D@a1", "T>C D>T", colours="D=GREEN"),
    "MM-T29": Case("A@b1 D@a1", "A>C D>A", colours="D=RED"),
    "MM-T30": Case("S@b1 D@a1", "S>T D>S", colours="D=RED"),
    "MM-T31": Case("C@a1 T@b1 D@c1", "C>T T>C D>T", captured="T", colours="C=RED D=GREEN"),
    "MM-T32": Case("T@a1 S@c1 D@b1", "T>D S>D D>T", colours="T=GREEN S=GREEN D=GREEN"),
}

# Seed rows the T-table does not spell out on its own (named SEED-*).
EXTRA_ROWS: dict[str, Case] = {
    # Thug GREEN for "ANY CHARACTER" who needed protection: here the Constable, from poison.
    "SEED-thug-guards-constable": Case("C@b1 T@a1 A@c1", "C>D T>C A>C", colours="T=GREEN A=GREEN"),
    # Thug GREEN guarding the Assassin from the Seductress ("by A. or S."; any character).
    "SEED-thug-guards-assassin": Case("T@a1 A@b1 S@c1", "T>A S>A A>C", colours="T=GREEN S=RED"),
    # The Seductress's GREY "NO ACTION TAKEN" when she does not touch her target (MM-2).
    "SEED-seductress-apart": Case("S@a1 D@c1", "S>D D>T"),
    # The Duke's GREY when he does not touch his target (MM-2).
    "SEED-duke-apart": Case("A@b1 D@d1", "A>C D>A"),
}

CASES = {**T_ROWS, **EXTRA_ROWS}


class SeedRow(NamedTuple):
    """One row of the seed's tables ([MM L191-228], cheat sheet [L246-252])."""

    role: str
    colour: str
    text: str
    cases: tuple[str, ...]


SEED_ROWS: dict[str, SeedRow] = {
    "constable-GREEN": SeedRow(
        "C", "GREEN", "targeted Assassin / Seductress", ("MM-T01", "MM-T02")
    ),
    "constable-RED": SeedRow("C", "RED", "targeted Thug / Duke", ("MM-T03", "MM-T04")),
    "constable-GREEN-special": SeedRow(
        "C", "GREEN", "Thug / Duke targeted by A. or S., protected", ("MM-T05", "MM-T06")
    ),
    "constable-GREY-cheat-sheet": SeedRow("C", "GREY", "no action (cheat sheet)", ("MM-T07",)),
    "thug-GREY": SeedRow("T", "GREY", "captured or distracted", ("MM-T08", "MM-T09")),
    "thug-GREEN": SeedRow(
        "T",
        "GREEN",
        "any character who needed protection",
        ("MM-T10", "MM-T32", "SEED-thug-guards-constable", "SEED-thug-guards-assassin"),
    ),
    "thug-RED": SeedRow("T", "RED", "any character who did not", ("MM-T11", "MM-T24")),
    "seductress-GREY": SeedRow("S", "GREY", "captured", ("MM-T12", "SEED-seductress-apart")),
    "seductress-GREEN": SeedRow("S", "GREEN", "targeted Thug / Duke", ("MM-T13", "MM-T14")),
    "seductress-RED": SeedRow(
        "S", "RED", "targeted Assassin / Constable", ("MM-T15", "MM-T16", "MM-T19")
    ),
    "seductress-GREEN-special": SeedRow("S", "GREEN", "Assassin who targeted her", ("MM-T17",)),
    "assassin-GREY": SeedRow("A", "GREY", "captured or distracted", ("MM-T18", "MM-T19")),
    "assassin-GREEN": SeedRow("A", "GREEN", "targeted Constable / Duke", ("MM-T20", "MM-T21")),
    "assassin-RED": SeedRow("A", "RED", "targeted Seductress / Thug", ("MM-T22", "MM-T23")),
    "assassin-GREEN-special": SeedRow("A", "GREEN", "Thug who protected the Duke", ("MM-T24",)),
    "duke-GREY": SeedRow(
        "D", "GREY", "captured or distracted", ("MM-T25", "MM-T26", "SEED-duke-apart")
    ),
    "duke-GREEN": SeedRow("D", "GREEN", "targeted Constable / Thug", ("MM-T27", "MM-T28")),
    "duke-RED": SeedRow("D", "RED", "targeted Assassin / Seductress", ("MM-T29", "MM-T30")),
}


def letters(spec: str) -> set[int]:
    return {LETTER[x] for x in spec}


def seat_set(seat: int) -> set[int]:
    """resolve() reports one seat or NOBODY (-1); as a set of seats."""
    return set() if seat == NOBODY else {seat}


def expected_colours(case: Case) -> dict[int, str]:
    wanted = dict.fromkeys(SEATS, "GREY")
    for item in case.colours.split():
        wanted[LETTER[item[0]]] = item[2:]
    return wanted


def play_case(case: Case) -> MurderState:
    """Night 1 of a fresh game, placed as the case says (in the order of seats 0..4)."""
    state = new_game()
    choose_targets(state, parse_targets(case.targets))
    place_all(state, with_bystanders(parse_setup(case.seats)))
    assert state.night == 2, "the night must have resolved"
    return state


@pytest.mark.parametrize("row_id", list(CASES))
def test_result_row(row_id: str) -> None:
    case = CASES[row_id]
    state = play_case(case)
    expected = (letters(case.captured), letters(case.distracted), letters(case.poisoned))
    for observer in [None, *SEATS]:
        assert harms(state.view(observer)["nights"][-1]) == expected
    assert colours(state) == expected_colours(case)


@pytest.mark.parametrize("row_id", list(CASES))
def test_result_row_resolve_agrees(row_id: str) -> None:
    """The pure resolve() gives the same sets and colours as the referee."""
    case = CASES[row_id]
    cells = with_bystanders(parse_setup(case.seats))
    targets = dict(parse_targets(case.targets))
    for seat in SEATS:
        targets.setdefault(seat, (seat + 1) % 5)
    result = resolve(
        [ROLE_INDEX[r] for r in ROLES],
        [True] * 5,
        [targets[s] for s in SEATS],
        [cells[s] for s in SEATS],
        BOARDS["theta16"].neighbours,
    )
    assert seat_set(result.captured) == letters(case.captured)
    assert seat_set(result.distracted) == letters(case.distracted)
    assert seat_set(result.poisoned) == letters(case.poisoned)
    assert dict(enumerate(result.colours)) == expected_colours(case)


@pytest.mark.parametrize("row_id", list(T_ROWS))
def test_result_row_private_events(row_id: str) -> None:
    """Each seat's private 'result' event matches its view; nobody sees another's result."""
    state = play_case(T_ROWS[row_id])
    for seat in SEATS:
        results = [e for e in state.events(seat) if e["kind"] == "result"]
        assert len(results) == 1
        assert results[0]["private"] is True
        assert results[0]["colour"] == state.view(seat)["you"]["results"][-1]["colour"]
    assert not [e for e in state.events(None) if e["kind"] == "result"]


@pytest.mark.parametrize("row_name", list(SEED_ROWS))
def test_seed_table_row(row_name: str) -> None:
    """Each row of the seed's result tables: the named role shows the row's colour."""
    row = SEED_ROWS[row_name]
    for case_id in row.cases:
        state = play_case(CASES[case_id])
        assert colour(state, LETTER[row.role]) == row.colour, case_id


def test_every_t_row_is_in_a_seed_row_or_a_ruling_row() -> None:
    """MM-T31 is a ruling row only (MM-5); every other T-row and extra case backs a seed row."""
    used = {case for row in SEED_ROWS.values() for case in row.cases}
    assert set(T_ROWS) - used == {"MM-T31"}
    assert set(EXTRA_ROWS) <= used
