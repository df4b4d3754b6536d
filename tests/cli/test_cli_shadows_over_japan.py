"""``intrigue play shadows-over-japan`` driven through a real pseudo-terminal (pexpect)."""

from __future__ import annotations

import json
import re

from cli_driver import GAME_OVER, PROMPT, plain, play_out

import intrigue

SJ = "shadows-over-japan"


def test_a_one_season_game_against_a_bot_to_the_end(spawn, tmp_path) -> None:
    save = tmp_path / "game.json"
    child = spawn("play", SJ, "--seed", "3", "--option", "max_turns=1", "--save", str(save))
    out = play_out(child)
    assert child.exitstatus == 0
    text = plain(out.text)
    state = intrigue.replay(json.loads(save.read_text()))
    assert state.is_over and state.outcome.capped and state.round == 1
    # Every prompt was seat 0's, and each answer became one of its moves.
    assert set(out.prompts) == {0}
    assert len(out.prompts) == sum(1 for seat, _ in state.history if seat == 0)
    before, final = text.split(GAME_OVER)
    noble = state.noble_of(0)
    rival = state.noble_of(1)
    assert f"You back {noble.title()}." in before
    assert "Provinces with tokens" in before and "Your clan" in before
    assert "Noble cards revealed" in before.split("Your move")[-1]
    assert re.search(rf"Noble cards revealed: {noble.title()}, {rival.title()}", before)
    assert f"Reason: {state.outcome.reason}." in final
    winners = re.search(r"Winners: (.*) wins?\.", final)
    assert winners is not None
    assert {int(s) for s in re.findall(r"seat (\d)", winners.group(1))} == set(
        state.outcome.winners
    )
    assert ("You won." if state.outcome.returns[0] > 0 else "You lost.") in final


def test_typed_commands_and_refusals(spawn, tmp_path) -> None:
    save = tmp_path / "game.json"
    child = spawn("play", SJ, "--seed", "5", "--option", "max_turns=1", "--save", str(save))
    child.expect(PROMPT)
    child.sendline("style paper")  # the canonical text works as well as a number
    child.expect(PROMPT)
    child.sendline("style paper")
    child.expect(PROMPT)
    child.sendline("style paper")  # only two Paper Crane ninjas per clan
    child.expect_exact("Not allowed: you have no paper ninja left")
    child.expect(PROMPT)
    child.sendline("fly omi dewa")
    child.expect_exact("Not a move: Shadows over Japan has no action 'fly omi dewa'")
    child.expect(PROMPT)
    child.sendline("1")  # the first move of the menu: style stone
    play_out(child)
    assert child.exitstatus == 0
    state = intrigue.replay(json.loads(save.read_text()))
    mine = [str(action) for seat, action in state.history if seat == 0]
    assert mine[:3] == ["style paper", "style paper", "style stone"]
