"""Terminal rendering: the grid, the menus and the log lines, from a seat's view only."""

from __future__ import annotations

import random

from mb_helpers import dealt, game_obj, play, three
from rich.console import Console


def _text(renderable) -> str:
    console = Console(width=140, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_board_drawn_as_a_grid_with_known_cards_only() -> None:
    state = dealt()
    play(state, "inspect c3")
    game = game_obj()
    north = _text(game.render(state.view(0)))
    south = _text(game.render(state.view(1)))
    assert " 4♠" in north and " K♠" in north  # inspected card and own throne
    assert " 4♠" not in south and "??♠" in south
    for row in "1234567":
        assert f"│{row}│" in north


def test_every_menu_entry_and_event_has_a_sentence() -> None:
    game = game_obj()
    for players in (2, 3, 4):
        state = three(seed=5, max_turns=40) if players == 3 else game.new(players, 5, max_turns=40)
        rng = random.Random(5)
        while not state.is_over:
            seat = state.to_move[0]
            view = state.view(seat)
            for action in state.legal_actions(seat):
                assert game.describe_action(action, view)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for seat in range(players):
            view = state.view(seat)
            for event in state.events(seat):
                if event["kind"] != "game_over":
                    assert game.describe_event(event, view), event
            assert _text(game.render(view))
