"""The game-independent pieces of the terminal front end, in-process."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from rich.console import Console

import intrigue
from intrigue.bots import make_bot
from intrigue.cli.output import event_lines, generic_event_text, outcome_lines
from intrigue.cli.play import QuitGame, TerminalPlay, bot_names_for, seat_list
from intrigue.games.masquerade_murder.render import describe_event

GAME = intrigue.load("masquerade-murder")


def quiet_console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system=None, no_color=True), out


def test_the_game_event_describer_is_used_and_unknown_kinds_fall_back():
    view = GAME.new(seed=1).view(None)
    assert GAME.describe_event({"kind": "night", "night": 4}, view) == describe_event(
        {"kind": "night", "night": 4}, view
    )
    events = [{"kind": "night", "night": 4}, {"kind": "mystery", "x": 1, "private": True}]
    assert event_lines(GAME, events, view) == ["── Night 4 ──", "mystery: x=1 (only you see this)"]
    assert generic_event_text({"kind": "ping"}) == "ping"


def test_outcome_lines_follow_the_outcome_and_the_unmasked_roles():
    state = GAME.new(seed=3, max_turns=1)
    rng = intrigue.engine.Rng(0)
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    view = state.view(None)
    lines = outcome_lines(view)
    winners = ", ".join(f"seat {s}" for s in state.outcome.winners)
    assert lines[0].replace(" and ", ", ").startswith(f"Winners: {winners} win")
    assert f"Reason: {state.outcome.reason}." in lines
    assert "(The game was cut off by its turn limit.)" in lines
    assert lines[-1].startswith("Unmasked: seat 0 " + state.role_of(0).capitalize())
    assert outcome_lines(GAME.new(seed=3).view(None)) == []


def test_a_draw_among_some_seats_names_them():
    # A four-player ball cut off after seat 1 was conquered (ruling MB-54).
    outcome = intrigue.engine.Outcome.draw_among(4, {0, 2, 3}, "cut off", capped=True)
    lines = outcome_lines({"outcome": outcome.to_json()})
    assert lines[0] == "The game is a draw among seat 0, seat 2 and seat 3."
    everyone = intrigue.engine.Outcome.win_loss(4, set(), "cut off", capped=True)
    assert outcome_lines({"outcome": everyone.to_json()})[0] == "The game is a draw."


def scripted(answers: list[str]) -> Iterator[str]:
    yield from answers
    raise EOFError


def test_the_play_loop_with_scripted_input_plays_a_whole_game():
    console, out = quiet_console()
    state = GAME.new(seed=12, max_turns=2)
    bots = {seat: make_bot("random") for seat in range(1, 5)}
    answers = iter(["abc", "0", *["1"] * 50])
    TerminalPlay(console, state, {0}, bots, read=lambda prompt: next(answers)).run()
    assert state.is_over
    text = out.getvalue()
    assert "Not a move: Masquerade Murder has no action 'abc'" in text
    assert "There is no move number 0; choose 1 to 4." in text
    assert text.count("Seat 0, your moves:") == sum(1 for seat, _ in state.history if seat == 0)
    assert "=== Game over ===" in text


def test_end_of_input_raises_quit_game_and_leaves_the_state_playable():
    console, _ = quiet_console()
    state = GAME.new(seed=12)
    answers = scripted([])
    play = TerminalPlay(console, state, {0, 1}, {}, read=lambda prompt: next(answers))
    with pytest.raises(QuitGame) as caught:
        play.run()
    assert caught.value.eof
    assert not state.is_over


def test_seat_lists_and_bot_assignment():
    assert seat_list("0, 2", 5) == {0, 2}
    with pytest.raises(ValueError, match="not a seat"):
        seat_list("0,5", 5)
    with pytest.raises(ValueError, match="at least one"):
        seat_list(",", 5)
    assert bot_names_for("random", [1, 2]) == {1: "random", 2: "random"}
    assert bot_names_for("easy,random", [1, 3]) == {1: "easy", 3: "random"}
    with pytest.raises(ValueError, match="one per bot seat"):
        bot_names_for("easy,random", [1, 2, 3])


def test_rules_at_the_prompt_prints_the_games_guide_and_asks_again():
    console, out = quiet_console()
    state = GAME.new(seed=12, max_turns=1)
    answers = iter(["rules", "1"])
    play = TerminalPlay(console, state, {0}, {}, read=lambda prompt: next(answers))
    play._human_turn(0)  # one turn: 'rules' does not move, '1' does
    text = out.getvalue()
    guide = GAME.guide()
    assert "How to play Masquerade Murder" in text
    assert guide.goal[:60] in text.replace("\n", " ")
    for entry in guide.section("Roles").entries:
        assert f"{entry.name}: " in text
    assert text.count("Seat 0, your moves:") == 2  # the menu again after the rules
    assert len(state.history) == 1
