"""Plain loops of many seeded random games over every registered game.

These complement the hypothesis properties (test_conformance_properties.py) with volume: a
couple of thousand games per game, cheap checks at every step, strict checks at the end.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from conformance_support import (
    GAME_IDS,
    assert_same,
    check_event_payloads_are_fresh,
    check_event_streams,
    check_outcome,
    check_turn,
    config,
    first_difference,
    new_game,
    random_steps,
    seats,
    snapshot,
)

import intrigue
from intrigue.engine import IllegalAction, Rng, State


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_thousands_of_random_games_finish_cleanly(game_id: str) -> None:
    """Random legal play always ends; every step keeps to_move, legal actions and is_over agreed."""
    game = intrigue.load(game_id)
    cfg = config(game_id)
    endings: Counter[bool] = Counter()
    for i in range(cfg.random_games):
        rng = random.Random(i)
        state = new_game(game, rng.getrandbits(63), rng.choice, cfg.long_options)
        steps = 0
        for seat, action in random_steps(state, rng, cfg.max_steps):
            check_turn(state)
            assert action in state.legal_actions(seat)
            steps += 1
        assert len(state.history) == steps
        check_turn(state)
        check_outcome(state)
        endings[state.outcome.capped] += 1  # type: ignore[union-attr]
    assert sum(endings.values()) == cfg.random_games
    if cfg.natural_ends:
        assert endings[False] > 0, "no random game ended by the rules: the cap hides the endings"
        assert endings[True] > 0, "no random game reached max_turns"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_seat_still_to_move_after_another_moves_keeps_its_moves(game_id: str) -> None:
    """Where several seats choose at once, one seat's move leaves what the others still to
    move may do unchanged (the server tells such a seat of the move only with its next
    delayed update: docs/server.md, *Delayed updates*)."""
    game = intrigue.load(game_id)
    cfg = config(game_id)
    checked = 0
    for i in range(60):
        rng = random.Random(30_000 + i)
        state = new_game(game, rng.getrandbits(63), rng.choice, cfg.long_options)
        for mover, action in random_steps(state, rng, cfg.max_steps):
            others = {s: state.legal_actions(s) for s in state.to_move if s != mover}
            after = state.clone()  # `random_steps` applies the move to `state` after this body
            after.apply(mover, action)
            for seat, legal in others.items():
                if not after.is_over and seat in after.to_move:
                    assert after.legal_actions(seat) == legal, (seat, mover, action)
                    checked += 1
    if game_id == "masquerade-murder":
        assert checked > 0, "no simultaneous choice met: the check checked nothing"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_endings_are_consistent_at_the_end(game_id: str) -> None:
    """At the end: outcome, views and the two sorts of event streams agree."""
    game = intrigue.load(game_id)
    cfg = config(game_id)
    for i in range(40):
        rng = random.Random(10_000 + i)
        state = new_game(game, rng.getrandbits(63), rng.choice, cfg.long_options)
        for _ in random_steps(state, rng, cfg.max_steps):
            pass
        check_outcome(state)
        check_event_streams(state)
        assert state.events(None)[-1]["kind"] == "game_over"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_and_actions_give_the_same_game(game_id: str) -> None:
    game = intrigue.load(game_id)
    for i in range(20):
        rng = random.Random(20_000 + i)
        seed = rng.getrandbits(63)
        first = new_game(game, seed, random.Random(i).choice)
        second = new_game(game, seed, random.Random(i).choice)
        played = [(s, a) for s, a in random_steps(first, rng, config(game_id).max_steps)]
        for seat, action in played:
            second.apply(seat, action)
        difference = first_difference(snapshot(first), snapshot(second))
        assert difference is None, f"seed {seed}: games differ at {difference}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_hidden_setup_depends_on_the_seed(game_id: str) -> None:
    if not config(game_id).setup_is_random:
        pytest.skip("this game's set-up has no chance")
    game = intrigue.load(game_id)
    players = game.player_counts[0]
    setups = set()
    for seed in range(20):
        state = game.new(players=players, seed=seed, **config(game_id).options)
        setups.add(json.dumps([state.view(s) for s in range(players)], sort_keys=True))
    assert len(setups) > 1, "twenty seeds dealt the same hidden set-up"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_determinize_really_resamples_hidden_information(game_id: str) -> None:
    """Samples agree with the seat (checked in the properties) yet differ for others sometimes.

    Without this, the no-leak check "sample.view(seat) == state.view(seat)" would be vacuous
    for a determinizer that just cloned the state.
    """
    cfg = config(game_id)
    if not cfg.seat_secrets:
        pytest.skip("the seats of this game keep no secrets from each other")
    game = intrigue.load(game_id)
    samples = differing = 0
    for i in range(30):
        rng = random.Random(30_000 + i)
        state = new_game(game, rng.getrandbits(63), rng.choice)
        stop = rng.randrange(60)
        for step, _ in enumerate(random_steps(state, rng, cfg.max_steps)):
            if step == stop:
                break
        for seat in range(state.players):
            sample = state.determinize(seat, Rng(rng.getrandbits(64)))
            samples += 1
            assert sample.view(seat) == state.view(seat)
            others = [s for s in range(state.players) if s != seat]
            if any(sample.view(s) != state.view(s) for s in others):
                differing += 1
    assert differing > 0, f"none of {samples} samples changed any other seat's view"
    # Recorded in the test output (-rA) to show how often hidden information moved.
    print(f"{game_id}: {differing}/{samples} samples changed another seat's view")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_game_started_without_a_seed_replays(game_id: str) -> None:
    game = intrigue.load(game_id)
    rng = random.Random(7)
    state = game.new(players=game.player_counts[-1], **config(game_id).options)
    for _ in random_steps(state, rng, config(game_id).max_steps):
        pass
    again = intrigue.replay(state.record())
    assert [again.view(s) for s in seats(state)] == [state.view(s) for s in seats(state)]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_event_payloads_are_fresh_copies(game_id: str) -> None:
    """Editing anything inside returned events (e.g. sorting a list) leaves the log alone."""
    game = intrigue.load(game_id)
    rng = random.Random(3)
    state = new_game(game, rng.getrandbits(63), rng.choice)
    for step, _ in enumerate(random_steps(state, rng, config(game_id).max_steps)):
        check_event_payloads_are_fresh(state)
        if step > 30:
            break


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("seat", [None, "0", 1.0, True, False], ids=repr)
def test_seats_that_are_not_ints_are_illegal(game_id: str, seat: object) -> None:
    """A bool, float, text or None seat is refused even when the seat it equals may move."""
    game = intrigue.load(game_id)
    rng = random.Random(4)
    state = new_game(game, rng.getrandbits(63), rng.choice)
    for step, _ in enumerate(random_steps(state, rng, config(game_id).max_steps)):
        before = snapshot(state)
        for action in state.legal_actions(state.to_move[0]):
            with pytest.raises(IllegalAction):
                state.apply(seat, action)  # type: ignore[arg-type]
        assert_same(snapshot(state), before, "state after moves by a bad seat")
        if step > 30:
            break


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_shared_views_and_events_stay_as_handed_out_while_play_goes_on(game_id: str) -> None:
    """A server keeps the last `shared_view` it sent each connection and diffs the next one
    against it (patches), and bots and encoders compare views the same way: so what
    `shared_view` and `shared_events` hand out must never change afterwards, neither when the
    next position is played on a clone (as a live table does) nor when the state itself moves
    on (as a search or an environment does)."""
    game = intrigue.load(game_id)
    cfg = config(game_id)
    for i in range(6):
        rng = random.Random(40_000 + i)
        state = new_game(game, rng.getrandbits(63), rng.choice, cfg.long_options)
        handed_out: list[tuple[str, Any, Any]] = []
        step = 0
        while not state.is_over and step < 400:
            handed_out += _hand_out(state, step)
            seat = rng.choice(state.to_move)
            action = rng.choice(state.legal_actions(seat))
            if step % 2:  # a live table's way: the next position is a clone
                state = state.clone()
            state.apply(seat, action)
            step += 1
        handed_out += _hand_out(state, step)
        for what, value, kept in handed_out:
            difference = first_difference(json.loads(json.dumps(value)), kept)
            assert difference is None, f"{game_id} seed {i}, {what} changed at {difference}"


def _hand_out(position: State, step: int) -> list[tuple[str, Any, Any]]:
    """Every seat's shared view and latest shared events, each with a deep copy of it now."""
    handed = []
    for seat in seats(position):
        since = max(0, position.log_length - 6)
        for what, value in (
            ("view", position.shared_view(seat)),
            ("events", position.shared_events(seat, since=since)),
        ):
            kept = json.loads(json.dumps(value))
            handed.append((f"step {step}, seat {seat}: shared {what}", value, kept))
    return handed
