"""The history and log kept as a short tail after chunks that clones share (engine/folded.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from intrigue.engine import load
from intrigue.engine.folded import FOLD_AT, NOTHING_FOLDED, Folded

CHUNKS = st.lists(st.lists(st.integers(), max_size=5), max_size=5)


def _folded(chunks: list[list[int]]) -> tuple[Folded, list[int]]:
    """Every chunk but the last folded, the last one the tail; and the plain list of all."""
    folded = NOTHING_FOLDED
    for chunk in chunks[:-1]:
        folded = folded.fold(chunk)
    return folded, (chunks[-1] if chunks else [])


@given(CHUNKS, st.integers(0, 30), st.integers(0, 6))
def test_folded_items_read_like_one_flat_list(chunks, start, count) -> None:
    folded, tail = _folded(chunks)
    flat = [item for chunk in chunks for item in chunk]
    assert folded.length + len(tail) == len(flat)
    assert list(folded.items(tail, start)) == flat[start:]
    assert folded.at(tail, start, count) == flat[start : start + count]
    assert folded.last(tail, count) == (flat[-count:] if count else [])


def test_items_read_the_tail_as_it_was_when_asked() -> None:
    folded = NOTHING_FOLDED.fold([1, 2])
    for start in (0, 2):
        tail = [3, 4]
        items = folded.items(tail, start)
        tail.append(5)
        assert list(items) == [1, 2, 3, 4][start:]


def _random_game(seed: int, steps: int):
    state = load("masquerade-murder").new(5, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = rng.choice(state.to_move)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def _log_entries(state) -> list[tuple]:
    """Every log entry, lazy payloads built (two builders of one payload are not equal)."""
    entries = (state._log_entry(i) for i in range(state.log_length))
    return [(kind, data() if callable(data) else data, to) for kind, data, to in entries]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**16), st.lists(st.integers(1, 60), min_size=1, max_size=8))
def test_clones_fold_without_changing_what_the_state_reads(seed, legs) -> None:
    """A state cloned every few moves (each clone folds a long tail) reads exactly like the
    same game played without a clone: history, every seat's events from any point, each log
    entry, the step count and the last move."""
    state = load("masquerade-murder").new(5, seed)
    rng = random.Random(seed)
    for leg in legs:
        for _ in range(leg):
            if state.is_over:
                break
            seat = rng.choice(state.to_move)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        state = state.clone()
    plain = load("masquerade-murder").new(5, seed)
    for seat, action in state.history:
        plain.apply(seat, action)
    assert plain._log_folded is NOTHING_FOLDED
    assert state.actions_played == plain.actions_played == len(plain.history)
    assert state.log_length == plain.log_length
    assert _log_entries(state) == _log_entries(plain)
    assert state._last_played() == plain._last_played()
    for step in (0, 1, state.actions_played // 2, state.actions_played - 1, state.actions_played):
        assert state.history_since(step) == plain.history[step:]
    assert state.record() == plain.record()
    for seat in (None, 0, 3):
        for since in {0, state.log_length // 2, state.log_length - 1, state.log_length}:
            assert state.events(seat, since) == plain.events(seat, since)
    assert state.view(2) == plain.view(2)


def test_a_long_game_cloned_keeps_only_a_short_tail_of_its_own() -> None:
    state = _random_game(7, 200)
    log, history = state._log, state._history
    assert len(log) > FOLD_AT and len(history) > FOLD_AT
    copy = state.clone()
    assert not copy._log and not copy._history and copy._log_folded.length == len(log)
    # Cloning never changes its source (threads may clone one state at once) ...
    assert state._log is log and state._history is history and not state._log_folded.length
    # ... and the copies of a copy share its chunks instead of copying them.
    again = copy.clone()
    assert again._log_folded.chunks[0] is copy._log_folded.chunks[0]


def test_replacing_a_folded_log_entry_changes_only_that_state() -> None:
    """A determinizer rewrites a sample's log; the chunks it shares with its source and other
    clones must not change."""
    state = _random_game(11, 200)
    sample, other = state.clone(), state.clone()
    before = _log_entries(state)
    sample._replace_log_entry(1, "noted", {"by": "test"}, (0,))
    assert sample._log_entry(1) == ("noted", {"by": "test"}, (0,))
    assert _log_entries(sample)[2:] == before[2:] and sample._log_entry(0) == before[0]
    assert _log_entries(state) == before == _log_entries(other)
