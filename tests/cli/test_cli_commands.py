"""``intrigue games`` and ``intrigue replay``."""

from __future__ import annotations

import json

import pexpect
from cli_driver import GAME_OVER, Spawn, plain, play_out

import intrigue


def run_to_end(spawn: Spawn, *args: str) -> tuple[str, int]:
    child = spawn(*args)
    child.expect(pexpect.EOF)
    child.close()
    return plain(child.before), child.exitstatus


def test_games_lists_masquerade_murder_and_its_options(spawn: Spawn):
    text, code = run_to_end(spawn, "games")
    assert code == 0
    assert "masquerade-murder — Masquerade Murder (5 players)" in text
    for option in intrigue.load("masquerade-murder").options:
        assert f"  {option.name}  " in text
        assert option.help.split()[0] in text


def saved_game(spawn: Spawn, path) -> intrigue.State:
    child = spawn(
        "play", "masquerade-murder", "--seed", "21", "--option", "max_turns=2",
        "--option", "roles=duke,assassin,thug,constable,seductress", "--save", str(path),
    )  # fmt: skip
    play_out(child)
    return intrigue.replay(json.loads(path.read_text()))


def test_replay_retells_a_saved_game_from_one_seat(spawn: Spawn, tmp_path):
    path = tmp_path / "game.json"
    state = saved_game(spawn, path)
    assert state.is_over

    text, code = run_to_end(spawn, "replay", str(path), "--seat", "1")
    assert code == 0
    assert "as seat 1 saw it" in text
    assert "Your role: Assassin." in text
    assert "Your role: Duke." not in text
    assert GAME_OVER in text
    assert f"Reason: {state.outcome.reason}." in text
    # Every move of the record is retold at its step number.
    assert f"[{len(state.history):>3}]" in text


def test_replay_as_a_spectator_shows_no_private_events(spawn: Spawn, tmp_path):
    path = tmp_path / "game.json"
    saved_game(spawn, path)
    text, code = run_to_end(spawn, "replay", str(path))
    assert code == 0
    assert "as a spectator saw it" in text
    assert "Your role" not in text
    assert "You target" not in text
    assert "You —" not in text
    assert GAME_OVER in text


def test_replay_of_a_broken_record_is_an_error(spawn: Spawn, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"game": "masquerade-murder", "players": 5, "seed": 1, '
                    '"actions": [[0, "place a1"]]}')  # fmt: skip
    text, code = run_to_end(spawn, "replay", str(path))
    assert code == 2
    assert "error: step 1" in text
    missing, code = run_to_end(spawn, "replay", str(tmp_path / "missing.json"))
    assert code == 2
    assert "cannot read" in missing
