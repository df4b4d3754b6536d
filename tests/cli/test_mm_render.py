"""Masquerade Murder's terminal rendering, on real views of real games."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console

import intrigue
from intrigue.engine import Action, State
from intrigue.games.masquerade_murder.render import describe_action, describe_event, render_view

GAME = intrigue.load("masquerade-murder")
ROLES = ["constable", "thug", "seductress", "assassin", "duke"]


def text_of(view: dict[str, Any], *, colour: bool = False) -> str:
    out = io.StringIO()
    console = Console(
        file=out,
        width=120,
        color_system="standard" if colour else None,
        force_terminal=colour,
        no_color=not colour,
    )
    console.print(render_view(view))
    return out.getvalue()


def new_game(**options: Any) -> State:
    return GAME.new(seed=17, roles=ROLES, **options)


def play_until(state: State, done: Any, seed: int = 0) -> State:
    """Random moves until ``done(state)`` holds."""
    rng = random.Random(seed)
    while not done(state):
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def cell_lines(text: str, cell: str) -> tuple[str, str]:
    """The board line naming ``cell`` and the line under it (where its cube is drawn)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if f"│  {cell}  │" in line:
            return line, lines[i + 1]
    raise AssertionError(f"cell {cell} not drawn")


def cube_at(text: str, cell: str) -> str:
    line, below = cell_lines(text, cell)
    col = line.index(f" {cell} ")
    return below[col : col + 4].strip()


@pytest.mark.parametrize("board", ["theta16", "ring12"])
def test_every_seat_of_the_board_is_drawn(board: str):
    state = new_game(board=board)
    text = text_of(state.view(0))
    for cell in state.board.seats:
        assert cube_at(text, cell) == "·"
    assert "▒▒▒▒" in text  # the tables
    assert f"Board {board}" in text


def test_cubes_are_drawn_on_their_cells_with_the_seat_number():
    state = play_until(new_game(), lambda s: s.phase == "placement" and s.slot == 3)
    placed = {row["cell"]: row["seat"] for row in state.view(None)["table"] if row["cell"]}
    assert len(placed) == 3
    viewer = state.to_move[0]
    text = text_of(state.view(viewer))
    for cell in state.board.seats:
        expected = str(placed[cell]) if cell in placed else "·"
        assert cube_at(text, cell).rstrip("*") == expected
    mine = [cell for cell, seat in placed.items() if seat == viewer]
    for cell in mine:
        assert cube_at(text, cell).endswith("*")


def test_spectator_view_has_no_you_panel_and_no_roles():
    state = play_until(new_game(), lambda s: s.night == 2)
    text = text_of(state.view(None))
    assert "[spectator]" in text
    assert "You —" not in text
    assert "Role:" not in text
    for role in ROLES:
        assert role.title() not in text
    assert "Past nights (public)" in text


@pytest.mark.parametrize("seat", range(5))
def test_private_information_appears_only_for_its_own_seat(seat: int):
    state = play_until(new_game(), lambda s: s.night == 2 and s.phase == "draft")
    text = text_of(state.view(seat))
    assert f"You — seat {seat}" in text
    assert f"Role: {ROLES[seat].title()}" in text
    for other, role in enumerate(ROLES):
        if other != seat:
            assert role.title() not in text
    (result,) = state.view(seat)["you"]["results"]
    assert result["colour"] in text


def test_own_target_shows_only_in_own_view():
    state = new_game()
    state.apply(0, "target 3")
    assert "Target this night: seat 3" in text_of(state.view(0))
    assert "Target this night: not chosen yet" in text_of(state.view(1))
    assert "Target this night" not in text_of(state.view(None))


def test_the_draft_pile_is_shown_to_the_drawer_only():
    state = play_until(new_game(), lambda s: s.phase == "draft")
    drawer = state.to_move[0]
    assert "The pile: Ace, Two, Jack, Queen, King, Joker" in text_of(state.view(drawer))
    others = [s for s in range(5) if s != drawer]
    for seat in [*others, None]:
        text = text_of(state.view(seat))
        assert "Order draft" in text
        assert "The pile:" not in text


def test_placement_order_names_the_extra_card_and_the_joker():
    # Seat 0 holds the Joker; the King is the extra card, so seat 0 plays the King's slot.
    state = new_game(first_cards=["joker", "ace", "two", "jack", "queen"])
    for seat in range(5):
        state.apply(seat, f"target {(seat + 1) % 5}")
    text = text_of(state.view(2))
    assert "Extra card: King" in text
    assert "King (extra card, played by the Joker)  seat 0" in text
    assert "In that slot the Joker (seat 0)" in text


def test_results_are_coloured_in_colour():
    state = play_until(new_game(), lambda s: s.night == 2)
    (result,) = state.view(0)["you"]["results"]
    line = next(
        ln for ln in text_of(state.view(0), colour=True).splitlines() if result["colour"] in ln
    )
    assert "\x1b[" in line
    assert "\x1b[" not in text_of(state.view(0))


def test_game_over_view_unmasks_the_roles():
    state = play_until(new_game(max_turns=1), lambda s: s.is_over)
    text = text_of(state.view(None))
    assert "the ball is over" in text
    for role in ROLES:
        assert role.title() in text


def test_describe_action_uses_the_view():
    state = new_game(first_cards=["joker", "ace", "two", "jack", "queen"])
    view = state.view(0)
    assert describe_action(Action("target", 3), view) == "Target seat 3"
    assert describe_action(Action("draw", "jack"), view) == "Take the Jack"
    assert describe_action(Action("place", "c1"), view) == "Sit at c1"
    for seat in range(5):
        state.apply(seat, f"target {(seat + 1) % 5}")
    for seat, cell in zip((1, 2, 3, 4), ("a1", "c1", "e1", "a2"), strict=True):
        state.apply(seat, f"place {cell}")
    view = state.view(0)
    assert Action("swap", "c1", "e3") in state.legal_actions(0)
    assert describe_action(Action("swap", "c1", "e3"), view) == (
        "Joker: take c1, move seat 2's cube to e3"
    )
    assert describe_action(Action("swap", "a2", "e4"), view) == (
        "Joker: take a2, move seat 4's cube to e4"
    )


def test_every_event_of_a_game_reads_as_a_sentence():
    state = play_until(GAME.new(seed=5), lambda s: s.is_over)
    kinds = set()
    for seat in [None, *range(5)]:
        view = state.view(seat)
        for event in state.events(seat):
            line = GAME.describe_event(event, view)
            assert isinstance(line, str) and line, event
            kinds.add(event["kind"])
    assert {"role", "targeted", "took", "result", "revelation", "unmasked"} <= kinds
    assert describe_event({"kind": "no-such-kind"}, state.view(None)) is None


def test_event_lines_never_name_a_hidden_role():
    state = new_game()
    view = state.view(2)
    lines = [describe_event(e, view) for e in state.events(2)]
    assert "Your role: Seductress." in lines
    joined = " ".join(line for line in lines if line)
    for role in ("Constable", "Thug", "Assassin", "Duke"):
        assert role not in joined
