"""Terminal presentation: the board summary, menu texts and event lines, from views only."""

from __future__ import annotations

import random

from rich.console import Console
from sj_helpers import GAME, new_game


def rendered(view: dict) -> str:
    console = Console(width=140, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(GAME.render(view))
    return console.export_text()


def test_board_summary_shows_nobles_clans_and_provinces() -> None:
    state = new_game(4)
    text = rendered(state.view(0))
    for word in ("Oda", "Takeda", "Tokugawa", "Date", "Ōmi ★", "Honour face up", "You back"):
        assert word in text
    hidden = rendered(state.view(None))
    assert "You back" not in hidden


def test_the_render_never_shows_another_seat_s_secret() -> None:
    state = new_game(2)
    own = state.view(1)["you"]["hand"]
    text = rendered(state.view(0))
    for card in own:
        if card["card"] not in [c["card"] for c in state.view(0)["you"]["hand"]]:
            assert f"{card['card']} {card['name']} —" not in text


def test_every_legal_action_and_event_has_a_description() -> None:
    rng = random.Random(4)
    state = GAME.new(players=3, seed=9, max_turns=3)
    seen = set()
    while not state.is_over:
        seat = state.to_move[0]
        view = state.view(seat)
        for action in state.legal_actions(seat):
            text = GAME.describe_action(action, view)
            assert text and text != str(action)
            seen.add(action.verb)
        rendered(view)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert {"style", "move", "end", "seppuku"} <= seen
    for event in state.events(0):
        if event["kind"] != "game_over":
            assert GAME.describe_event(event, state.view(0)) is not None, event["kind"]
