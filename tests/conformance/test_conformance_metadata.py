"""Metadata, options and the action table of every registered game."""

from __future__ import annotations

import json

import pytest
from conformance_support import GAME_IDS, check_action_forms, check_turn

import intrigue
from intrigue.engine import Action, InvalidAction, InvalidOption


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_metadata_is_complete_json(game_id: str) -> None:
    game = intrigue.load(game_id)
    info = json.loads(json.dumps(game.info()))
    assert info["id"] == game_id == game.id
    assert info["name"] and isinstance(info["name"], str)
    assert info["summary"] and isinstance(info["summary"], str)
    assert info["players"] and all(isinstance(n, int) and n >= 1 for n in info["players"])
    assert info["num_actions"] == game.num_actions > 0
    names = [opt["name"] for opt in info["options"]]
    assert len(names) == len(set(names))
    assert "max_turns" in names, "every game must accept max_turns"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_whole_action_table_round_trips(game_id: str) -> None:
    game = intrigue.load(game_id)
    table = list(game.action_table)
    assert len(table) == game.num_actions
    assert len({str(a) for a in table}) == len(table), "two actions share a text form"
    check_action_forms(game, table)
    for index, action in enumerate(table):
        assert game.action_index(action) == index
        assert eval(repr(action), {"Action": Action}) == action
        assert str(action) == str(action).strip() and "  " not in str(action)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_action_lookups_reject_what_is_not_in_the_table(game_id: str) -> None:
    game = intrigue.load(game_id)
    for index in (-1, game.num_actions, game.num_actions + 100):
        with pytest.raises(InvalidAction):
            game.action_at(index)
    for text in ("", "no_such_verb_anywhere 1 2 3", "x-y"):
        with pytest.raises(InvalidAction):
            game.parse_action(text)
    with pytest.raises(InvalidAction):
        game.action_index(Action("no_such_verb_anywhere"))
    with pytest.raises(InvalidAction):
        game.action_from_json({"verb": "no_such_verb_anywhere", "args": []})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_new_with_defaults_and_every_player_count(game_id: str) -> None:
    game = intrigue.load(game_id)
    assert game.new(seed=1).players == game.player_counts[0]
    for players in game.player_counts:
        state = game.new(players=players, seed=1)
        assert state.players == players
        check_turn(state)
        assert not state.is_over
        assert state.history == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_new_validates_players_seed_and_options(game_id: str) -> None:
    game = intrigue.load(game_id)
    unsupported = max(game.player_counts) + 1
    with pytest.raises(InvalidOption):
        game.new(players=unsupported, seed=1)
    with pytest.raises(InvalidOption):
        game.new(seed="1")  # type: ignore[arg-type]
    with pytest.raises(InvalidOption, match="max_turns"):
        game.new(seed=1, no_such_option=1)  # the message lists the known options
    with pytest.raises(InvalidOption):
        game.new(seed=1, max_turns=0)
    assert game.new(seed=1, max_turns="2").options["max_turns"] == 2


CHANCE_WORDS = ("random", "shuffle", "dealt", "coin flip", "drawn")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_options_that_fix_chance_are_declared(game_id: str) -> None:
    """Issue 18: an option that fixes what chance decides (a deal, roles, a deck's top, who
    starts) lets a table's creator rig hidden information, so every game declares such options
    (`Option.fixes`, in people's words) and the server marks tables using them. An option left
    unset by default is chance's to decide (max_turns aside), and so is one whose help says
    what chance does otherwise."""
    game = intrigue.load(game_id)
    for opt in game.options:
        if opt.name == "max_turns":
            assert opt.fixes is None
            continue
        by_chance = opt.default is None or any(w in opt.help.lower() for w in CHANCE_WORDS)
        assert (opt.fixes is not None) == by_chance, f"{game_id} option {opt.name}"
        if opt.fixes is not None:
            words = opt.fixes
            assert words == words.strip() and words[0].islower(), words
            assert "_" not in words and words != opt.name, f"not people's words: {words}"
            assert opt.to_json()["fixes"] == words
    fixing = [opt for opt in game.options if opt.fixes is not None]
    assert fixing, f"{game_id}: every game has something chance decides"
    sample = {opt.name: [] for opt in fixing}
    assert game.fixed_chance(sample) == [opt.fixes for opt in fixing]
    assert game.fixed_chance({}) == [] == game.fixed_chance({o.name: None for o in fixing})
    fair = game.without_fixed_chance({**sample, "max_turns": 3})
    assert fair == {**dict.fromkeys(sample), "max_turns": 3}
    assert game.fixed_chance(fair) == []
