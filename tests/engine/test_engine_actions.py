"""Actions and action tables: text, JSON and repr round trips, immutability, errors."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import intrigue
from intrigue.engine import Action, ActionTable, InvalidAction, game_ids

# Verbs are lowercase identifiers (parsing lowercases the verb); a text argument must be one
# token that does not look like an integer, or it would read back as an int.
VERBS = st.from_regex(r"[a-z_][a-z0-9_]{0,11}", fullmatch=True)
TEXT_ARGS = st.from_regex(r"[A-Za-z_][A-Za-z0-9_.:+-]{0,11}", fullmatch=True)
ARGS = st.lists(st.one_of(st.integers(), TEXT_ARGS), max_size=4)


@given(VERBS, ARGS)
def test_any_action_round_trips_through_text_json_repr_and_pickle(verb, args) -> None:
    action = Action(verb, *args)
    assert Action.parse(str(action)) == action
    assert Action.parse(str(action)).args == action.args
    assert Action.from_json(action.to_json()) == action
    assert Action.from_json(json.loads(json.dumps(action.to_json()))).args == action.args
    assert Action.from_json(str(action)) == action
    assert eval(repr(action), {"Action": Action}) == action
    assert pickle.loads(pickle.dumps(action)) == action
    assert copy.deepcopy(action) == action


@given(VERBS, ARGS)
def test_equal_actions_hash_equal(verb, args) -> None:
    first, second = Action(verb, *args), Action(verb, *args)
    assert first == second and first is not second
    assert hash(first) == hash(second)
    assert len({first, second}) == 1


def test_text_form_is_the_verb_then_the_arguments() -> None:
    assert str(Action("swap", "c1", "e3")) == "swap c1 e3"
    assert str(Action("target", 3)) == "target 3"
    assert str(Action("pass")) == "pass"


def test_parse_ignores_spacing_and_verb_case_and_reads_integers() -> None:
    action = Action.parse("  TARGET \t 3 ")
    assert action.verb == "target"
    assert action.args == (3,)
    assert Action.parse("move -2").args == (-2,)
    assert Action.parse("place c1").args == ("c1",)


def test_different_actions_are_not_equal() -> None:
    assert Action("target", 3) != Action("target", 4)
    assert Action("target", 3) != Action("place", 3)
    assert Action("target", 3) != "target 3"


@pytest.mark.parametrize(
    "text", ["", "   ", "3 target", "no-such verb", "tar.get 1", "é!"], ids=repr
)
def test_malformed_text_is_an_invalid_action(text) -> None:
    with pytest.raises(InvalidAction):
        Action.parse(text)


@pytest.mark.parametrize("value", [None, 3, b"target 3", ["target", 3]], ids=repr)
def test_parse_rejects_non_text(value) -> None:
    with pytest.raises(InvalidAction):
        Action.parse(value)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"verb": 3},
        {"args": [1]},
        {"verb": "target", "args": 3},
        {"verb": "target", "args": [True]},
        {"verb": "target", "args": [1.5]},
        {"verb": "target", "args": [None]},
        {"verb": "bad verb", "args": []},
        ["target", 3],
        None,
    ],
    ids=repr,
)
def test_malformed_json_is_an_invalid_action(data) -> None:
    with pytest.raises(InvalidAction):
        Action.from_json(data)


@given(st.text(max_size=30))
def test_parse_of_any_text_gives_a_stable_action_or_a_value_error(text) -> None:
    # InvalidAction is a ValueError: nothing else may escape.
    try:
        action = Action.parse(text)
    except ValueError:
        return
    assert Action.parse(str(action)) == action


@pytest.mark.parametrize("text", ["target --3", "target ²"])
def test_integer_lookalikes_stay_text_and_name_no_game_action(text) -> None:
    action = Action.parse(text)
    assert all(isinstance(arg, str) for arg in action.args)
    with pytest.raises(InvalidAction):
        intrigue.load("masquerade-murder").parse_action(text)


def test_actions_cannot_be_changed() -> None:
    action = Action("target", 3)
    with pytest.raises(AttributeError):
        action.verb = "place"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        action.args = (4,)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        action.extra = 1  # type: ignore[attr-defined]
    assert str(action) == "target 3"


def test_action_attributes_cannot_be_deleted() -> None:
    action = Action("target", 3)
    with pytest.raises(AttributeError):
        del action.verb  # type: ignore[misc]


TABLE_ACTIONS = [Action("pass"), Action("target", 0), Action("target", 1), Action("swap", "a", "b")]


def test_action_table_indices_follow_the_given_order() -> None:
    table = ActionTable(TABLE_ACTIONS)
    assert len(table) == len(TABLE_ACTIONS)
    assert list(table) == TABLE_ACTIONS
    for i, action in enumerate(TABLE_ACTIONS):
        assert table.index(action) == i
        assert table.index(Action.parse(str(action))) == i
        assert table.action(i) == action
        assert Action.parse(str(action)) in table


def test_action_table_is_stable_across_rebuilds() -> None:
    first, second = ActionTable(TABLE_ACTIONS), ActionTable(list(TABLE_ACTIONS))
    assert [first.index(a) for a in TABLE_ACTIONS] == [second.index(a) for a in TABLE_ACTIONS]


def test_action_table_canonical_returns_its_own_instance() -> None:
    table = ActionTable(TABLE_ACTIONS)
    parsed = Action.parse("target 1")
    assert table.canonical(parsed) is TABLE_ACTIONS[2]


@pytest.mark.parametrize("index", [-1, 4, 100, "1", 1.0, None], ids=repr)
def test_action_table_index_out_of_range(index) -> None:
    with pytest.raises(InvalidAction):
        ActionTable(TABLE_ACTIONS).action(index)


def test_action_table_unknown_action() -> None:
    table = ActionTable(TABLE_ACTIONS)
    assert Action("target", 2) not in table
    with pytest.raises(InvalidAction, match="target 2"):
        table.index(Action("target", 2))


def test_action_table_rejects_duplicates() -> None:
    with pytest.raises(ValueError, match="duplicate"):
        ActionTable([Action("pass"), Action.parse("PASS")])


@pytest.mark.parametrize("game_id", game_ids())
def test_a_canonical_text_names_the_tables_own_action_as_any_spelling_does(game_id) -> None:
    """`parse_action` looks canonical texts up (`ActionTable.named`) and parses the rest: both
    give the table's own instance of the same action."""
    game = intrigue.load(game_id)
    for action in game.action_table:
        text = str(action)
        assert game.action_table.named(text) is action
        assert game.parse_action(text) is action
        spelled = "  " + text.upper().replace(" ", "   ") + " "
        assert game.action_table.named(spelled) is None
        assert game.parse_action(spelled) is action
