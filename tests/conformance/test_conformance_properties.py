"""Hypothesis properties every registered game must have.

Hypothesis draws the seed, the player count, the options that have a fixed set of choices, and
every move (`st.data()` choosing among the legal actions), so a failure shrinks to a short game.
Each property runs `GameConfig.examples` examples per game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from conformance_support import (
    GAME_IDS,
    assert_same,
    check_action_forms,
    check_event_payloads_are_fresh,
    check_event_streams,
    check_illegal_moves_rejected,
    check_json,
    check_legal_moves_accepted,
    check_no_seed_in_views,
    check_outcome,
    check_turn,
    check_views_are_fresh,
    config,
    is_pure_json,
    new_game,
    random_steps,
    rejected,
    replay_matches,
    seats,
    snapshot,
)
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import intrigue
from intrigue.engine import Action, Rng, State

# Seeds long enough that their decimal form cannot turn up in a view by chance.
SEEDS = st.integers(min_value=10**12, max_value=2**63 - 1)


def run_property(
    game_id: str, body: Callable[[Any, st.DataObject], None], scale: float = 1.0
) -> None:
    """Run ``body(game, data)`` as a hypothesis test: ``scale`` times the game's example budget."""
    game = intrigue.load(game_id)

    @settings(
        max_examples=max(1, round(config(game_id).examples * scale)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        body(game, data)

    run()


def draw_game(game: Any, data: st.DataObject) -> State:
    """A new game: drawn seed, player count, choice options and cap (up to the configured one)."""
    seed = data.draw(SEEDS, label="seed")
    options = dict(config(game.id).options)
    if options.get("max_turns") is not None:
        options["max_turns"] = data.draw(st.integers(1, options["max_turns"]), label="max_turns")
    return new_game(game, seed, lambda values: data.draw(st.sampled_from(values)), options)


def draw_move(state: State, data: st.DataObject) -> tuple[int, Action]:
    seat = data.draw(st.sampled_from(state.to_move), label="seat")
    action = data.draw(st.sampled_from(state.legal_actions(seat)), label="action")
    return seat, action


def play_drawn(state: State, data: st.DataObject, steps: int) -> list[tuple[int, Action]]:
    """Play up to ``steps`` drawn moves (fewer if the game ends)."""
    played = []
    for _ in range(steps):
        if state.is_over:
            break
        seat, action = draw_move(state, data)
        state.apply(seat, action)
        played.append((seat, action))
    return played


# -- the turn structure, legality and errors ----------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_step_follows_the_protocol(game_id: str) -> None:
    """At every step: who moves, what is legal, what is refused, JSON views, fresh copies.

    Every legal action is accepted (tried on a clone); every other action of the table is
    refused with IllegalAction/InvalidAction and leaves the state exactly as it was (record,
    generator, every seat's view and events); moves out of turn and garbage are refused too.
    """
    run_property(game_id, _protocol_body)


def _protocol_body(game: Any, data: st.DataObject) -> None:
    state = draw_game(game, data)
    seen: dict[int | None, list[dict[str, Any]]] = {seat: [] for seat in seats(state)}
    mark = 0  # events are checked as they arrive, so a step costs no more late in the game
    for _ in range(config(game.id).max_steps):
        _check_new_events(state, mark, seen)
        mark = state.log_length
        check_turn(state)
        if state.is_over:
            break
        seat = data.draw(st.sampled_from(state.to_move), label="seat")
        legal = state.legal_actions(seat)
        check_action_forms(game, legal)
        # Every event stream is compared in full at every 8th step; in between the log's
        # length stands for it (the log is append-only), which keeps long games cheap.
        full = len(state.history) % 8 == 0
        before = snapshot(state, events=full)
        check_illegal_moves_rejected(state, seat, legal)
        check_legal_moves_accepted(state, seat, legal)
        assert_same(snapshot(state, events=full), before, "state after refused and trial moves")
        check_json(state, events=False)
        check_views_are_fresh(state)
        action = data.draw(st.sampled_from(legal), label="action")
        as_text = data.draw(st.booleans(), label="as text")
        state.apply(seat, str(action) if as_text else action)
        assert state.history[-1] == (seat, action)
    else:
        pytest.fail(f"no end after {config(game.id).max_steps} steps")
    check_outcome(state)
    check_event_streams(state)
    check_json(state)
    check_event_payloads_are_fresh(state)
    for viewer in seats(state):  # the incremental reads add up to the whole stream
        assert seen[viewer] == state.events(viewer)
    after_end = snapshot(state)
    for seat in range(state.players):
        for action in list(game.action_table)[:5]:
            assert rejected(state, seat, action), "a move was accepted after the end"
    assert_same(snapshot(state), after_end, "finished state after refused moves")


def _check_new_events(
    state: State, since: int, seen: dict[int | None, list[dict[str, Any]]]
) -> None:
    """The events logged since ``since``: plain JSON, fresh copies, no seed; collect them."""
    check_no_seed_in_views(state, since)
    check_event_payloads_are_fresh(state, since)
    for viewer in seats(state):
        new = state.events(viewer, since=since)
        assert is_pure_json(new), f"new events of {viewer} are not plain JSON"
        seen[viewer] += new


# -- replays and clones --------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_replays_and_clones_are_exact(game_id: str) -> None:
    """A record rebuilds the game exactly; a clone is independent and continues identically.

    At a drawn midpoint: the replay of the record (through JSON text) equals the state; a new
    game with the same seed and the same actions equals it; a clone played to the end leaves
    the original untouched, and the original given the same actions ends equal to the clone.
    """
    run_property(game_id, _replay_clone_body, scale=4)


def _replay_clone_body(game: Any, data: st.DataObject) -> None:
    state = draw_game(game, data)
    opening = data.draw(st.integers(min_value=0, max_value=80), label="midpoint")
    play_drawn(state, data, opening)
    replay_matches(state)
    same = game.new(players=state.players, seed=state.seed, **state.options)
    for seat, action in state.history:
        same.apply(seat, action)
    assert_same(snapshot(same), snapshot(state), "same seed + same actions")

    at_midpoint = snapshot(state)
    clone = state.clone()
    assert_same(snapshot(clone), at_midpoint, "fresh clone")
    spare = state.clone()
    rest = play_drawn(clone, data, config(game.id).max_steps)
    assert clone.is_over
    assert_same(snapshot(state), at_midpoint, "original after playing its clone")
    for seat, action in rest:
        state.apply(seat, action)
    assert_same(snapshot(state), snapshot(clone), "original and clone after the same actions")
    assert_same(snapshot(spare), at_midpoint, "second clone after the original moved on")
    replay_matches(state)


# -- determinization -----------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_determinize_agrees_with_what_the_seat_saw(game_id: str) -> None:
    """Samples keep the seat's (and the spectator's) view and events, and are real games.

    At a few drawn points and at the end, for every seat: the sample shows the seat exactly what
    the state shows it (so the seat's information does not depend on the hidden information the
    sample changed: no leaks), its record replays to it, it can be played to the end, the same
    generator seed gives the same sample, and the original state is untouched.
    """
    run_property(game_id, _determinize_body, scale=2)


def _determinize_body(game: Any, data: st.DataObject) -> None:
    state = draw_game(game, data)
    points = data.draw(st.sets(st.integers(0, 60), min_size=1, max_size=3), label="points")
    step = 0
    while not state.is_over:
        if step in points:
            _check_samples(state, data)
        play_drawn(state, data, 1)
        step += 1
    _check_samples(state, data)


def _check_samples(state: State, data: st.DataObject) -> None:
    before = snapshot(state)
    chosen = data.draw(st.sampled_from(range(state.players)), label="seat rechecked")
    for seat in range(state.players):
        sample_seed = data.draw(st.integers(0, 2**64 - 1), label="sample seed")
        sample = state.determinize(seat, Rng(sample_seed))
        assert sample is not state
        assert sample.game is state.game and sample.players == state.players
        assert_same(sample.view(seat), state.view(seat), f"view({seat}) of a sample")
        assert_same(sample.events(seat), state.events(seat), f"events({seat}) of a sample")
        assert_same(sample.view(None), state.view(None), "spectator view of a sample")
        assert_same(sample.events(None), state.events(None), "public events of a sample")
        assert sample.to_move == state.to_move
        assert sample.rng.state != state.rng.state, "the sample's generator was not reseeded"
        if seat == chosen:
            again = state.determinize(seat, Rng(sample_seed))
            assert_same(snapshot(again), snapshot(sample), "two samples from the same seed")
            twin_a = state.determinize(seat, random.Random(sample_seed))
            twin_b = state.determinize(seat, random.Random(sample_seed))
            assert_same(snapshot(twin_a), snapshot(twin_b), "samples from random.Random")
            assert twin_a.view(seat) == state.view(seat)
        replay_matches(sample)
        for _ in random_steps(sample, random.Random(sample_seed), config(state.game.id).max_steps):
            check_turn(sample)
        check_outcome(sample)
    assert_same(snapshot(state), before, "state after determinize")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_determinize_is_blind_to_what_the_seat_cannot_see(game_id: str) -> None:
    """Two states a seat cannot tell apart give the same sample for the same generator.

    The drawn game is played alongside a twin the observing seat cannot tell from it: the twin
    starts as a sample for that seat (another hidden deal, roles or Nobles), every move of the
    observer is played in both, and every move of another seat is replaced in the twin by one
    drawn among those that leave the observer's view and events unchanged (another hidden pick,
    target or card); when no move does, the twin re-joins the game. At the checks its generator
    is also reseeded (future chance nobody sees). Then both must give the very same sample, so
    the sample's distribution depends only on what the seat has seen.
    """
    run_property(game_id, _blind_body)


def _blind_body(game: Any, data: st.DataObject) -> None:
    state = draw_game(game, data)
    seat = data.draw(st.sampled_from(range(state.players)), label="observer")
    twin = state.determinize(seat, Rng(data.draw(st.integers(0, 2**64 - 1), label="twin seed")))
    points = data.draw(st.sets(st.integers(0, 40), min_size=1, max_size=2), label="points")
    for step in range(max(points) + 1):
        if state.is_over:
            break
        if step in points:
            _check_blind(state, twin, seat, data)
        actor, action = draw_move(state, data)
        marks = (state.log_length, twin.log_length)
        state.apply(actor, action)
        twin = _twin_move(state, twin, seat, actor, action, marks, data)
    _check_blind(state, twin, seat, data)


def _twin_move(
    state: State,
    twin: State,
    seat: int,
    actor: int,
    action: Action,
    marks: tuple[int, int],
    data: st.DataObject,
) -> State:
    """The twin after the same step, played so that ``seat`` still cannot tell it apart."""
    legal = twin.legal_actions(actor) if actor in twin.to_move else []
    tries = [action]
    if actor != seat and legal:
        order = random.Random(data.draw(st.integers(0, 2**32), label="twin move order"))
        tries = order.sample(legal, min(6, len(legal))) + tries
    for move in tries:
        if move not in legal:
            continue
        trial = twin.clone()
        trial.apply(actor, move)
        if (
            trial.to_move == state.to_move
            and trial.view(seat) == state.view(seat)
            and trial.events(seat, marks[1]) == state.events(seat, marks[0])
        ):
            return trial
    return state.clone()  # no move keeps them alike: the twin re-joins the game


def _check_blind(state: State, twin: State, seat: int, data: st.DataObject) -> None:
    assert_same(twin.view(seat), state.view(seat), f"view({seat}) of the twin")
    unseen = twin.clone()
    unseen.rng = Rng(data.draw(st.integers(0, 2**64 - 1), label="twin future"))
    sample_seed = data.draw(st.integers(0, 2**64 - 1), label="sample seed")
    a = state.determinize(seat, Rng(sample_seed))
    b = unseen.determinize(seat, Rng(sample_seed))
    assert_same(
        [b.record().to_json(), b.rng.state],
        [a.record().to_json(), a.rng.state],
        f"samples for seat {seat} of two states it cannot tell apart",
    )
    others = [s for s in range(state.players) if s != seat]
    differ = any(twin.view(s) != state.view(s) for s in others)
    event("twins differ for another seat" if differ else "twins alike for every seat")
