"""Every game plays to the end in the real terminal program, against the heuristic bots."""

from __future__ import annotations

import json

import pytest
from cli_driver import GAME_OVER, plain, play_out

import intrigue

CASES = [
    ("masquerade-ball", 2, 6),
    ("masquerade-ball", 3, 6),
    ("masquerade-ball", 4, 8),
    ("project-assassination", 2, 6),
    ("shadows-over-japan", 3, 1),
]


@pytest.mark.parametrize(("game_id", "players", "max_turns"), CASES)
def test_a_short_game_against_heuristic_bots_to_the_end(
    spawn, tmp_path, game_id, players, max_turns
) -> None:
    save = tmp_path / "game.json"
    child = spawn(
        "play", game_id, "--players", str(players), "--seed", "8", "--bots", "medium",
        "--option", f"max_turns={max_turns}", "--save", str(save),
    )  # fmt: skip
    out = play_out(child)
    assert child.exitstatus == 0
    text = plain(out.text)
    state = intrigue.replay(json.loads(save.read_text()))
    assert state.is_over and state.players == players
    assert text.startswith(f"{state.game.name}, seed 8.")
    # Every prompt was seat 0's, and each answer became one of its moves.
    assert out.prompts and set(out.prompts) == {0}
    assert len(out.prompts) == sum(1 for seat, _ in state.history if seat == 0)
    assert f"Reason: {state.outcome.reason}." in text.split(GAME_OVER)[1]
