"""The game registry: loading, listing and replaying registered games."""

from __future__ import annotations

import json

import pytest
from engine_toy import TOY

import intrigue
from intrigue.engine import IllegalAction, Record, UnknownGame, game_ids, load, registry


@pytest.fixture
def with_toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the toy game for one test only (the conformance suite must not see it)."""
    monkeypatch.setitem(registry._loaded, TOY.id, TOY)


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(UnknownGame) as info:
        load("no-such-game")
    message = str(info.value)
    assert "no-such-game" in message
    assert game_ids(), "no game is registered"
    for game_id in game_ids():
        assert game_id in message
    assert isinstance(info.value, KeyError)  # so dict-style callers can catch it too


def test_game_ids_are_sorted_and_loadable() -> None:
    ids = game_ids()
    assert ids == sorted(ids)
    for game_id in ids:
        game = load(game_id)
        assert game.id == game_id
        assert load(game_id) is game


def test_games_lists_metadata_of_every_game() -> None:
    listed = intrigue.games()
    assert [info["id"] for info in listed] == game_ids()
    json.dumps(listed)
    for info in listed:
        game = load(info["id"])
        assert info["name"] == game.name
        assert info["players"] == list(game.player_counts)
        assert info["num_actions"] == game.num_actions
        assert [opt["name"] for opt in info["options"]] == [opt.name for opt in game.options]
        assert set(info) >= {"id", "name", "summary", "players", "options", "num_actions"}


def test_engine_games_is_the_same_listing() -> None:
    assert intrigue.engine.games() == intrigue.games()


def test_register_makes_a_game_loadable(with_toy: None) -> None:
    assert load("toy-race") is TOY
    assert "toy-race" in game_ids()
    assert "toy-race" in [info["id"] for info in intrigue.games()]


def test_register_lazy_imports_on_first_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._lazy, TOY.id, "engine_toy:TOY")
    assert TOY.id not in registry._loaded
    assert TOY.id in game_ids()
    try:
        assert load(TOY.id) is TOY
        assert TOY.id in registry._loaded
    finally:
        registry._loaded.pop(TOY.id, None)


def test_replay_accepts_a_record_or_its_json(with_toy: None) -> None:
    state = TOY.new(players=3, seed=41, goal=6)
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    for record in (state.record(), state.record().to_json(), Record.loads(state.record().dumps())):
        again = intrigue.replay(record)
        assert again.history == state.history
        assert [again.view(s) for s in (0, 1, 2, None)] == [state.view(s) for s in (0, 1, 2, None)]
        assert again.outcome == state.outcome


def test_replay_raises_on_an_illegal_record(with_toy: None) -> None:
    state = TOY.new(players=2, seed=5)
    wrong = 1 - state.to_move[0]
    record = Record("toy-race", 2, 5, {}, [(wrong, "add 1")])
    with pytest.raises(IllegalAction):
        intrigue.replay(record)


def test_replay_of_an_unknown_game() -> None:
    with pytest.raises(UnknownGame):
        intrigue.replay(Record("no-such-game", 2, 1))
