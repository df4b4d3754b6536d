"""Terminal rendering: the board drawn from a view, menu texts and event lines."""

import random

from pa_helpers import P1, P2, arm, new, play, put
from rich.console import Console

from intrigue.games.project_assassination import GAME


def text_of(renderable, width=120):
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_board_is_drawn_with_every_feature():
    state = new()
    text = text_of(GAME.render(state.view(P1)))
    for token in ("R1", "R2", "P1", "P2", "Gr2", "SNPR", "uzi", "boot", "████", "tun"):
        assert token in text
    assert "P1 (you) to play: 2 action(s) left" in text


def test_views_of_every_phase_render_and_every_action_and_event_has_a_text():
    for seed in range(4):
        state = GAME.new(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            (seat,) = state.to_move
            view = state.view(seat)
            text_of(GAME.render(view))
            for action in state.legal_actions(seat):
                assert GAME.describe_action(action, view) != str(action)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        view = state.view(None)
        assert "Game over" in text_of(GAME.render(view))
        for event in state.events(None):
            if event["kind"] != "game_over":
                assert GAME.describe_event(event, view), event


def test_menu_texts_name_the_target_and_weapon():
    state = new()
    arm(state, P1, "uzi")
    put(state, P1, "d7")
    view = state.view(P1)
    texts = {str(a): GAME.describe_action(a, view) for a in state.legal_actions(P1)}
    assert texts["shoot 1 d5"] == "Shoot the grunt (2 HP) on D5 with the uzi"
    put(state, P1, "b7")
    view = state.view(P1)
    texts = {str(a): GAME.describe_action(a, view) for a in state.legal_actions(P1)}
    assert texts["move b6"] == "Move to B6 (tunnel to B2)"


def test_placement_and_prompts_are_explained():
    state = new(coins=["tails"])
    play(state, "end", "end")
    text = text_of(GAME.render(state.view(P2)))
    assert "Enemy placement: P2 (you) places a" in text
