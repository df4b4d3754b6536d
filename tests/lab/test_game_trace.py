"""What the lab records of each game: rule counts, decisions, repeated positions, evaluations."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from intrigue.bots import RandomBot, make_bot
from intrigue.bots.heuristic import search_hooks
from intrigue.bots.match import play_match
from intrigue.engine import load
from intrigue.lab.evaluation import evaluation_trace, moments
from intrigue.lab.runner import GameTask, play_one
from intrigue.lab.trace import LOOP, detailed_verbs, public_position


def replayed(row, game):
    """The finished game of a lab row, replayed from its seed and the bots' moves."""
    bots = [make_bot(name) for name in row["bots"]]
    return play_match(game, bots, row["seed"], row["players"], {"max_turns": row["max_turns"]})


@pytest.mark.parametrize(
    ("game", "players", "cap"),
    [("masquerade-murder", 5, 6), ("project-assassination", 2, 60), ("shadows-over-japan", 3, 3)],
)
def test_counts_are_the_games_actions_and_public_events(game, players, cap):
    task = GameTask(game, "base", 0, 21, players, ("heuristic",) * players, {"max_turns": cap})
    row = play_one(task)
    state = replayed({**row, "max_turns": cap}, game)
    counts = row["counts"]
    # Every action, per seat, under its verb; the last entry (no seat) is empty for actions.
    expected = Counter((seat, a.verb) for seat, a in state.history)
    for (seat, verb), n in expected.items():
        assert counts[f"action:{verb}"][seat] == n
    assert sum(sum(v) for k, v in counts.items() if k.count(":") == 1 and " " not in k
               and k.startswith("action:")) == len(state.history)  # fmt: skip
    # Verbs naming cards or kinds are counted per action too (Masquerade Murder: draw jack).
    for seat, action in state.history:
        if action.verb in detailed_verbs(state.game):
            assert counts[f"action:{action}"][seat] >= 1
    # Public events by kind: the seat they name, or the last entry.
    events = Counter(e["kind"] for e in state.events(None) if e["kind"] != "game_over")
    assert {k: sum(counts[f"event:{k}"]) for k in events} == dict(events)
    assert not any(e.get("private") for e in state.events(None))
    # One branching entry per decision; a real choice has two or more legal moves.
    assert sum(cell[0] for cell in row["branching"].values()) == row["steps"]
    assert all(
        cell[3] <= cell[0] and cell[2] * cell[0] >= cell[1] for cell in row["branching"].values()
    )


def test_masquerade_murder_counts_each_drawn_card():
    row = play_one(
        GameTask("masquerade-murder", "base", 0, 4, 5, ("heuristic",) * 5, {"max_turns": 5})
    )
    assert "draw" in detailed_verbs(load("masquerade-murder"))
    drawn = {k for k in row["counts"] if k.startswith("action:draw ")}
    assert drawn and drawn <= {
        f"action:draw {c}" for c in ("ace", "two", "jack", "queen", "king", "joker")
    }
    # Place and swap name squares: counted by verb only.
    assert not any(k.startswith("action:place ") for k in row["counts"])


def test_public_position_ignores_counters_only():
    view = {"turn": 3, "step": 40, "board": {"a1": 1}, "prompt": "x", "side_to_play": 0}
    assert public_position(view) == public_position({**view, "turn": 9, "step": 77, "prompt": "y"})
    assert public_position(view) != public_position({**view, "board": {"a1": 2}})
    assert public_position(view) != public_position({**view, "side_to_play": 1})


def test_a_stalled_ball_shows_its_loop():
    # Seed 266 of two heuristic players reaches the 200-turn cap going round in circles (1 of
    # seeds 0-299 does, now that they steer away from positions seen before, keep an enemy
    # throne they hold and leave a known card on an enemy throne alone:
    # docs/games/masquerade-ball.md).
    row = play_one(
        GameTask("masquerade-ball", "base", 0, 266, 2, ("heuristic",) * 2, {"max_turns": "200"})
    )
    assert row["capped"]
    rep = row["repetition"]
    assert rep["most"] >= LOOP and rep["distinct"] < rep["positions"]
    # A position per turn (when the seat to move changes), two hundred turns.
    assert rep["positions"] == row["turns"] == 200
    assert rep["decisions"] > 0 and rep["forced"] < rep["decisions"]
    assert rep["legal"] >= rep["decisions"]
    assert sum(rep["moves"].values()) == rep["decisions"]
    # A decisive ball of the same bots repeats far less.
    short = play_one(
        GameTask("masquerade-ball", "base", 0, 7, 2, ("heuristic",) * 2, {"max_turns": "200"})
    )
    assert not short["capped"] and short["repetition"]["most"] < rep["most"]


@given(st.integers(0, 500), st.integers(0, 40))
def test_moments_are_evenly_spread_decisions(steps, points):
    found = moments(steps, points)
    assert found == sorted(set(found))
    assert all(0 <= m < steps for m in found)
    assert len(found) <= max(points, 0)
    if steps and points:
        assert found[0] == 0
        assert points == 1 or steps == 1 or found[-1] == steps - 1


def test_evaluation_trace_from_the_referee_and_from_each_seat():
    state = play_match("masquerade-murder", [make_bot("heuristic")] * 5, 9, 5, {"max_turns": 6})
    trace = evaluation_trace("masquerade-murder", 5, 9, {"max_turns": 6}, state.history, 6)
    assert trace["length"] == len(state.history)
    assert trace["steps"] == moments(len(state.history), 6)
    for truth, own in zip(trace["truth"], trace["own"], strict=True):
        assert len(truth) == len(own) == 5
        assert all(-1 <= v <= 1 for v in [*truth, *own])
    # The referee's values are the evaluation of the real state at that moment.
    evaluate = search_hooks("masquerade-murder").evaluate
    replay = load("masquerade-murder").new(5, 9, max_turns=6)
    for index, (seat, action) in enumerate(state.history):
        if index == trace["steps"][2]:
            assert trace["truth"][2] == pytest.approx([round(v, 4) for v in evaluate(replay)])
            break
        replay.apply(seat, action)
    # Roles are secret: a seat's own estimate is taken in a sample of the others' roles, so
    # it differs from the referee's somewhere.
    assert trace["own"] != trace["truth"]
    clarity = [c for c in trace["clarity"] if c is not None]
    assert clarity and all(c[0] >= 0 and 0 <= c[1] <= 1 and c[2] >= 2 for c in clarity)


def test_without_secrets_own_estimates_are_the_referees():
    # Project Assassination's evaluation reads public facts only.
    state = play_match("project-assassination", [RandomBot()] * 2, 3, 2, {"max_turns": 20})
    trace = evaluation_trace("project-assassination", 2, 3, {"max_turns": 20}, state.history, 5)
    assert trace["own"] == trace["truth"]


def test_lab_rows_keep_the_evaluation_only_when_asked():
    task = GameTask("project-assassination", "base", 0, 3, 2, ("random",) * 2, {"max_turns": 20})
    assert "eval" not in play_one(task)
    row = play_one(GameTask(**{**task.__dict__, "eval_points": 4}))
    assert len(row["eval"]["steps"]) == 4
