"""``intrigue play`` driven through a real pseudo-terminal, checked against the engine."""

from __future__ import annotations

import json
import re

import pexpect
import pytest
from cli_driver import GAME_OVER, PASS, PROMPT, Spawn, plain, play_out

import intrigue

MM = "masquerade-murder"
ROLES = "constable,thug,seductress,assassin,duke"


def seats_in(text: str) -> set[int]:
    return {int(s) for s in re.findall(r"seat (\d)", text)}


def test_full_game_against_random_bots_reports_the_real_outcome(spawn: Spawn, tmp_path):
    save = tmp_path / "game.json"
    child = spawn("play", MM, "--seed", "11", "--option", "max_turns=3", "--save", str(save))
    out = play_out(child)
    assert child.exitstatus == 0
    text = plain(out.text)

    state = intrigue.replay(json.loads(save.read_text()))
    assert state.is_over
    outcome = state.outcome
    assert outcome is not None

    # Every prompt was for the human seat 0 and each answer became one of its moves.
    assert set(out.prompts) == {0}
    assert len(out.prompts) == sum(1 for seat, _ in state.history if seat == 0)

    final = text.split(GAME_OVER)[1]
    winners_line = re.search(r"Winners: (.*) wins?\.", final)
    assert winners_line is not None
    assert seats_in(winners_line.group(1)) == set(outcome.winners)
    assert f"Reason: {outcome.reason}." in final
    roles = ", ".join(f"seat {s} {state.role_of(s).capitalize()}" for s in range(5))
    assert f"Unmasked: {roles}." in final
    assert ("You won." if outcome.returns[0] > 0 else "You lost.") in final


def test_bad_input_gets_a_reason_and_a_new_prompt(spawn: Spawn, tmp_path):
    save = tmp_path / "game.json"
    child = spawn("play", MM, "--seed", "3", "--option", "max_turns=1", "--save", str(save))
    child.expect(PROMPT)
    attempts = [
        ("99", "There is no move number 99; choose 1 to 4."),
        ("target 9", "Not a move: Masquerade Murder has no action 'target 9'"),
        ("nonsense", "Not a move: Masquerade Murder has no action 'nonsense'"),
        ("target 0", "Not allowed: you cannot target yourself"),
        ("", "Type a move number"),
        ("help", "Type the number of a move"),
    ]
    for text, reply in attempts:
        child.sendline(text)
        child.expect_exact(reply)
        child.expect(PROMPT)
    child.sendline("target 2")  # the canonical text works as well as a number
    out = play_out(child)
    assert child.exitstatus == 0

    state = intrigue.replay(json.loads(save.read_text()))
    assert state.is_over
    mine = [action for seat, action in state.history if seat == 0]
    assert str(mine[0]) == "target 2"
    assert len(mine) == 1 + len(out.prompts)


def test_hot_seat_hides_each_seat_from_the_other(spawn: Spawn):
    child = spawn(
        "play", MM, "--seed", "8", "--hotseat", "0,1",
        "--option", "max_turns=2", "--option", f"roles={ROLES}",
    )  # fmt: skip
    out = play_out(child)
    assert child.exitstatus == 0
    # The final screen unmasks everyone on purpose; everything before it must stay private.
    text = plain(out.text).split("[spectator]")[0]
    parts = re.split(PASS, text)
    turns = list(zip(map(int, parts[1::2]), parts[2::2], strict=True))
    assert {seat for seat, _ in turns} == {0, 1}
    own = {0: "constable", 1: "thug"}
    for seat, screen in turns:
        other = own[1 - seat]
        assert other not in screen.lower(), f"seat {1 - seat}'s role shown to seat {seat}"
        assert f"You — seat {1 - seat}" not in screen
        assert {int(s) for s in re.findall(PROMPT, screen)} <= {seat}
        # After the move the screen is wiped (on a dumb terminal: scrolled out of sight).
        after_move = re.split(PROMPT, screen)[-1]
        assert re.search(r"\n{24,}", after_move)
    for seat, role in own.items():
        assert any(f"Role: {role.title()}" in screen for s, screen in turns if s == seat)


def test_end_of_input_leaves_cleanly_and_saves(spawn: Spawn, tmp_path):
    save = tmp_path / "partial.json"
    child = spawn("play", MM, "--seed", "4", "--save", str(save))
    child.expect(PROMPT)
    child.sendeof()
    child.expect_exact("Game abandoned: the input ended.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert "Traceback" not in child.before
    state = intrigue.replay(json.loads(save.read_text()))
    assert not state.is_over
    assert 0 in state.to_move


def test_quit_stops_the_game(spawn: Spawn):
    child = spawn("play", MM, "--seed", "4")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect_exact("Game abandoned: seat 0 left the game.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_chosen_seat_is_the_human_one(spawn: Spawn):
    child = spawn("play", MM, "--seed", "5", "--seat", "3", "--option", "max_turns=1")
    out = play_out(child)
    assert set(out.prompts) == {3}
    assert "Humans: seat 3." in plain(out.text)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "max_turns=zero"], "option max_turns"),
        (["--option", "roles=duke"], "option roles"),
        (["--option", "colour=red"], "unknown option(s) colour"),
        (["--option", "max_turns"], "--option takes NAME=VALUE"),
        (["--hotseat", "0,7"], "--hotseat"),
        (["--seat", "5"], "--seat 5"),
        (["--bots", "genius"], "no bot 'genius'"),
        (["--players", "4"], "not 4"),
    ],
)
def test_bad_arguments_exit_with_code_2(spawn: Spawn, args: list[str], message: str):
    child = spawn("play", MM, *args)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "error:" in child.before
    assert message in plain(child.before).replace("\n", " ")
    assert "Traceback" not in child.before


def test_unknown_game_exits_with_code_2(spawn: Spawn):
    child = spawn("play", "chess")
    child.expect_exact("no game 'chess'")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_terminal_bots_search_at_most_a_second_unless_given_their_own_time():
    """People wait on the bots of a terminal game: searches are capped as the server caps
    them; a bot whose name sets its own time budget keeps it."""
    from intrigue.cli.main import PLAY_MOVE_SECONDS, play_bots

    bots = play_bots({0: "hard", 1: "hard:seconds=3", 2: "medium", 3: "hard:cap=0.3"})
    assert bots[0].cap == PLAY_MOVE_SECONDS == 1.0
    assert bots[1].cap is None and bots[1].seconds == 3
    assert not hasattr(bots[2], "cap")
    assert bots[3].cap == 0.3
