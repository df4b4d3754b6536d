"""The arena: reproducible by seed, seats rotated, every game counted for every seat."""

import json
from types import SimpleNamespace

from intrigue.cli.main import main
from intrigue.engine import Outcome
from intrigue.lab.arena import run_arena, seat_result


def test_arena_results_are_reproducible_by_seed():
    options = {"max_turns": 5}
    first = run_arena("masquerade-murder", ["heuristic", "random"], 12, seed=4, options=options)
    again = run_arena("masquerade-murder", ["heuristic", "random"], 12, seed=4, options=options)
    assert first.to_json() == again.to_json()
    other = run_arena("masquerade-murder", ["heuristic", "random"], 12, seed=5, options=options)
    assert other.to_json() != first.to_json()


def test_arena_rotates_seats_and_counts_every_seat_game():
    result = run_arena("masquerade-murder", ["heuristic", "random"], 10, options={"max_turns": 4})
    assert result.games == 10
    assert sum(t.games for t in result.by_bot.values()) == 50
    # Alternating rotation over 5 seats: 25 seat-games each.
    assert result.by_bot["heuristic"].games == 25 and result.by_bot["random"].games == 25
    assert all(t.games == 10 for t in result.by_seat.values())
    assert set(result.by_role) == {"constable", "thug", "seductress", "assassin", "duke"}
    # Exactly two teams: every game has between 2 and 3 winners among 5 seats.
    total_wins = sum(t.wins for t in result.by_seat.values())
    assert 20 <= total_wins <= 30


def test_arena_command_prints_tables_and_writes_json(tmp_path, capsys):
    out = tmp_path / "arena.json"
    code = main(
        [
            "arena",
            "masquerade-murder",
            "--bots",
            "heuristic,random",
            "--games",
            "6",
            "--seed",
            "2",
            "--option",
            "max_turns=4",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Win rate by bot" in printed and "95% interval" in printed
    data = json.loads(out.read_text())
    assert data["games"] == 6 and set(data["by_bot"]) == {"heuristic", "random"}
    assert data["by_bot"]["heuristic"]["ci95"][0] <= data["by_bot"]["heuristic"]["rate"]


def test_arena_command_rejects_unknown_bots(capsys):
    assert main(["arena", "masquerade-murder", "--bots", "genius", "--games", "1"]) == 2
    assert "genius" in capsys.readouterr().err


def test_a_seat_out_of_a_drawn_game_scores_a_loss():
    # A four-player ball cut off by its cap after seat 1 was conquered (ruling MB-54).
    state = SimpleNamespace(outcome=Outcome.draw_among(4, {0, 2, 3}, "cut off", capped=True))
    assert [seat_result(state, seat) for seat in range(4)] == [0.5, 0.0, 0.5, 0.5]
    everyone = SimpleNamespace(outcome=Outcome.win_loss(3, set(), "cut off", capped=True))
    assert [seat_result(everyone, seat) for seat in range(3)] == [0.5, 0.5, 0.5]
