"""The shared `Game`/`State` code, exercised through a tiny test-only game (engine_toy)."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_toy import TOY, ToyState

from intrigue.engine import Action, IllegalAction, InvalidAction, InvalidOption
from intrigue.engine.game import SEED_BITS


def _play_to_end(state: ToyState, choose: int = 0) -> None:
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[choose])


# -- Game.new ---------------------------------------------------------------------------------
def test_new_defaults_to_the_first_player_count() -> None:
    assert TOY.new(seed=1).players == TOY.player_counts[0]


@pytest.mark.parametrize("players", [1, 4, 0, -2])
def test_new_rejects_unsupported_player_counts(players) -> None:
    with pytest.raises(InvalidOption, match="played by 2, 3 players"):
        TOY.new(players=players, seed=1)


@pytest.mark.parametrize("players", ["2", 2.0, True])
def test_new_rejects_non_integer_players(players) -> None:
    with pytest.raises(InvalidOption, match="players"):
        TOY.new(players=players, seed=1)


@pytest.mark.parametrize("seed", ["1", 1.0, True, [1]], ids=repr)
def test_new_rejects_non_integer_seeds(seed) -> None:
    with pytest.raises(InvalidOption, match="seed"):
        TOY.new(players=2, seed=seed)


def test_new_without_a_seed_draws_one_and_records_it() -> None:
    seeds = {TOY.new(players=2).seed for _ in range(5)}
    assert all(isinstance(s, int) and 0 <= s < 2**SEED_BITS for s in seeds)
    assert len(seeds) > 1
    state = TOY.new(players=2)
    assert state.record().seed == state.seed


def test_new_coerces_options_and_rejects_unknown_ones() -> None:
    state = TOY.new(players=2, seed=3, goal="7", loud="yes", tags="a,c")
    assert state.options == {
        "max_turns": None,
        "goal": 7,
        "mode": "plain",
        "loud": True,
        "tags": ["a", "c"],
    }
    with pytest.raises(InvalidOption, match="known options: goal, loud, max_turns, mode, tags"):
        TOY.new(players=2, seed=3, gaol=7)
    with pytest.raises(InvalidOption, match="goal"):
        TOY.new(players=2, seed=3, goal=1)


def test_same_seed_same_setup() -> None:
    first, second = TOY.new(players=3, seed=12), TOY.new(players=3, seed=12)
    assert [first.view(s) for s in range(3)] == [second.view(s) for s in range(3)]
    assert first.rng.state == second.rng.state


# -- apply ------------------------------------------------------------------------------------
def _snapshot(state: ToyState) -> tuple:
    seats = [*range(state.players), None]
    return (
        state.record().to_json(),
        state.rng.state,
        [state.view(s) for s in seats],
        [state.events(s) for s in seats],
    )


def test_apply_accepts_text_and_actions_alike() -> None:
    by_text, by_action = TOY.new(players=2, seed=8), TOY.new(players=2, seed=8)
    seat = by_text.to_move[0]
    by_text.apply(seat, "  ADD 2 ")
    by_action.apply(seat, Action("add", 2))
    assert _snapshot(by_text) == _snapshot(by_action)
    assert by_text.history == [(seat, Action("add", 2))]


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ("add 3", InvalidAction),
        ("fly", InvalidAction),
        ("", InvalidAction),
        (Action("add", 7), InvalidAction),
        (3, InvalidAction),
        (None, InvalidAction),
        ("pass", IllegalAction),  # in the table, refused by the game's own _apply
    ],
    ids=repr,
)
def test_apply_errors_leave_the_state_unchanged(action, error) -> None:
    state = TOY.new(players=2, seed=8)
    state.apply(state.to_move[0], "add 1")
    before = _snapshot(state)
    with pytest.raises(error):
        state.apply(state.to_move[0], action)
    assert _snapshot(state) == before


def test_apply_out_of_turn_names_the_seat_and_who_is_awaited() -> None:
    state = TOY.new(players=3, seed=8)
    mover = state.to_move[0]
    other = (mover + 1) % 3
    before = _snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(other, "add 1")
    assert info.value.seat == other
    assert info.value.action == Action("add", 1)
    assert f"waiting for {mover}" in info.value.reason
    assert _snapshot(state) == before


@pytest.mark.parametrize("seat", [-1, 3, 99, "0", None, True], ids=repr)
def test_apply_for_a_seat_that_does_not_exist(seat) -> None:
    state = TOY.new(players=3, seed=8)
    with pytest.raises(IllegalAction, match="no seat"):
        state.apply(seat, "add 1")


def test_apply_after_the_end() -> None:
    state = TOY.new(players=2, seed=8)
    _play_to_end(state)
    before = _snapshot(state)
    for seat in range(2):
        with pytest.raises(IllegalAction, match="over"):
            state.apply(seat, "add 1")
    assert _snapshot(state) == before


# -- end, views and events --------------------------------------------------------------------
def test_outcome_and_to_move_at_the_end() -> None:
    state = TOY.new(players=3, seed=2, goal=4)
    assert state.outcome is None and not state.is_over
    _play_to_end(state, choose=1)
    assert state.is_over and state.to_move == ()
    assert state.outcome is not None
    assert len(state.outcome.returns) == 3
    assert state.view(0)["outcome"] == state.outcome.to_json()
    assert state.events(None)[-1] == {"kind": "game_over", **state.outcome.to_json()}


def test_max_turns_caps_the_game() -> None:
    state = TOY.new(players=2, seed=2, goal=100, max_turns=3)
    _play_to_end(state)
    assert len(state.history) == 3
    assert state.outcome is not None and state.outcome.capped


def test_view_carries_the_engine_fields() -> None:
    state = TOY.new(players=3, seed=4)
    state.apply(state.to_move[0], "add 1")
    for seat in (0, 1, 2, None):
        view = state.view(seat)
        assert view["game"] == "toy-race"
        assert view["seat"] == seat
        assert view["players"] == 3
        assert view["step"] == 1
        assert view["to_move"] == list(state.to_move)
        assert view["is_over"] is False and view["outcome"] is None
    assert state.view(None)["secret"] is None


@pytest.mark.parametrize("seat", [-1, 3, "1", True], ids=repr)
def test_view_and_events_reject_unknown_seats(seat) -> None:
    state = TOY.new(players=3, seed=4)
    with pytest.raises(IllegalAction):
        state.view(seat)
    with pytest.raises(IllegalAction):
        state.events(seat)


def test_private_events_reach_only_their_seats() -> None:
    state = TOY.new(players=3, seed=4)
    secrets = [e for e in state.events(None) if e["kind"] == "secret"]
    assert secrets == []
    for seat in range(3):
        mine = [e for e in state.events(seat) if e["kind"] == "secret"]
        assert mine == [{"kind": "secret", "value": state.secrets[seat], "private": True}]
        public = [e for e in state.events(seat) if not e.get("private")]
        assert public == state.events(None)


def test_events_since_returns_the_tail() -> None:
    state = TOY.new(players=2, seed=4)
    start = state.log_length
    assert state.events(0, since=start) == []
    state.apply(state.to_move[0], "add 2")
    tail = state.events(0, since=start)
    assert [e["kind"] for e in tail] == ["added"]
    assert state.events(0) == state.events(0, since=0)
    assert state.events(0)[-len(tail) :] == tail


def test_events_since_counts_positions_in_the_full_log_not_in_the_seats_list() -> None:
    # Three private "secret" entries (one per seat) come before "start": each seat sees one of
    # them, so its own list is shorter than the log, and `since` indexes the log.
    state = TOY.new(players=3, seed=4)
    assert len(state.events(0)) < state.log_length
    assert [e["kind"] for e in state.events(0, since=3)] == ["start"]
    mine = state.events(2)
    assert [e["kind"] for e in mine] == ["secret", "start"]
    assert state.events(2, since=1) == mine != mine[1:]  # entry 1 is seat 1's secret
    text = (Path(__file__).resolve().parents[2] / "docs" / "engine.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `state.events("))
    assert "log_length" in row  # the docs say what `since` counts


# -- clone, history, record -------------------------------------------------------------------
def test_clone_is_independent_both_ways() -> None:
    state = TOY.new(players=2, seed=6, goal=9)
    state.apply(state.to_move[0], "add 1")
    before = _snapshot(state)
    copy = state.clone()
    assert _snapshot(copy) == before
    assert copy.rng is not state.rng and copy.rng.state == state.rng.state
    copy.apply(copy.to_move[0], "add 2")
    copy.rng.next64()
    copy.secrets[0] = -1
    assert _snapshot(state) == before
    state.apply(state.to_move[0], "add 1")
    assert copy.history[-1][1] == Action("add", 2)


def test_history_is_a_copy() -> None:
    state = TOY.new(players=2, seed=6)
    state.apply(state.to_move[0], "add 1")
    state.history.clear()
    assert len(state.history) == 1


def test_record_lists_the_actions_as_text() -> None:
    state = TOY.new(players=2, seed=6, goal=3)
    _play_to_end(state)
    record = state.record()
    assert (record.game, record.players, record.seed) == ("toy-race", 2, 6)
    assert record.options == state.options
    assert record.actions == [(seat, str(action)) for seat, action in state.history]


def test_editing_a_record_does_not_touch_the_state() -> None:
    state = TOY.new(players=2, seed=6, tags=["a"])
    state.record().to_json()["options"]["tags"].append("b")
    assert state.options["tags"] == ["a"]


# -- State._per_position ------------------------------------------------------------------------


def test_per_position_builds_once_per_position_and_never_for_a_changed_clone() -> None:
    state = TOY.new(2, 5)
    built: list[int] = []

    def build() -> int:
        built.append(state.total)
        return state.total

    assert state._per_position(build) == 0 and state._per_position(build) == 0
    assert built == [0]  # kept while the position stands
    state.apply(state.to_move[0], "add 2")
    assert state._per_position(build) == 2 and built == [0, 2]  # a new position builds anew
    clone = state.clone()
    clone.total = 7  # changed by other means than `apply`, as `determinize` does
    assert clone._per_position(lambda: clone.total) == 7
    assert state._per_position(build) == 2 and built == [0, 2]
