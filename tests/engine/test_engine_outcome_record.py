"""Outcomes, records and events: the small value types of the protocol."""

from __future__ import annotations

import dataclasses
import json

import pytest

from intrigue.engine import Event, Outcome, Record


def test_win_loss_gives_winners_one_and_the_rest_minus_one() -> None:
    outcome = Outcome.win_loss(4, {3, 1}, "they won")
    assert outcome.winners == (1, 3)
    assert outcome.returns == (-1.0, 1.0, -1.0, 1.0)
    assert outcome.reason == "they won"
    assert not outcome.is_draw
    assert not outcome.capped
    assert outcome.scores is None


def test_win_loss_without_winners_is_a_draw() -> None:
    outcome = Outcome.win_loss(3, set(), "nobody", capped=True, scores=(1.0, 2.0, 0.0))
    assert outcome.is_draw
    assert outcome.returns == (0.0, 0.0, 0.0)
    assert outcome.capped
    assert outcome.scores == (1.0, 2.0, 0.0)


def test_a_draw_among_some_seats_leaves_the_others_lost() -> None:
    outcome = Outcome.draw_among(4, {0, 2, 3}, "cut off", capped=True)
    assert outcome.is_draw and outcome.winners == ()
    assert outcome.returns == (0.0, -1.0, 0.0, 0.0)
    assert outcome.capped and outcome.reason == "cut off"
    assert Outcome.draw_among(3, {0, 1, 2}, "all in") == Outcome.win_loss(3, set(), "all in")


def test_win_loss_everyone_wins() -> None:
    assert Outcome.win_loss(2, (0, 1), "all").returns == (1.0, 1.0)


def test_outcome_json() -> None:
    outcome = Outcome.win_loss(3, (2,), "why", scores=(0.0, 1.0, 2.0))
    data = json.loads(json.dumps(outcome.to_json()))
    assert data == {
        "winners": [2],
        "returns": [-1.0, -1.0, 1.0],
        "reason": "why",
        "capped": False,
        "scores": [0.0, 1.0, 2.0],
    }


def test_outcome_is_frozen() -> None:
    outcome = Outcome.win_loss(2, {0}, "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.reason = "y"  # type: ignore[misc]


RECORD = Record(
    "some-game", 5, 2**62 + 7, {"max_turns": 3, "roles": ["a", "b"]}, [(0, "target 3"), (4, "x")]
)


def test_record_json_round_trip() -> None:
    data = RECORD.to_json()
    assert data["actions"] == [[0, "target 3"], [4, "x"]]
    assert Record.from_json(json.loads(json.dumps(data))) == RECORD
    assert Record.loads(RECORD.dumps()) == RECORD


def test_record_from_minimal_json() -> None:
    record = Record.from_json({"game": "g", "players": "2", "seed": "9"})
    assert record == Record("g", 2, 9, {}, [])


def test_record_from_json_copies_its_input() -> None:
    data = {"game": "g", "players": 2, "seed": 9, "options": {"a": 1}, "actions": [[0, "x"]]}
    record = Record.from_json(data)
    data["options"]["a"] = 99
    data["actions"].append([1, "y"])
    assert record == Record("g", 2, 9, {"a": 1}, [(0, "x")])


def test_event_visibility_and_json() -> None:
    public = Event("night", {"night": 2})
    private = Event("role", {"role": "duke"}, (1, 3))
    assert public.visible_to(None) and public.visible_to(0)
    assert private.visible_to(1) and private.visible_to(3)
    assert not private.visible_to(0) and not private.visible_to(None)
    assert public.to_json() == {"kind": "night", "night": 2}
    assert private.to_json() == {"kind": "role", "role": "duke", "private": True}
