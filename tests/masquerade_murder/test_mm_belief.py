"""determinize: samples of what a seat cannot see, consistent with everything it has seen."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from mm_helpers import (
    QUIET,
    SEATS,
    A,
    C,
    D,
    S,
    T,
    choose_targets,
    new_game,
    place_all,
    play_night,
    snapshot,
)

from intrigue.engine import Rng
from intrigue.games.masquerade_murder.belief import consistent_roles
from intrigue.games.masquerade_murder.resolution import ASSASSIN, DUKE, EVIL
from intrigue.games.masquerade_murder.rules import MurderState


def assert_sample_agrees(state: MurderState, seat: int, seed: int) -> MurderState:
    before = snapshot(state)
    sample = state.determinize(seat, Rng(seed))
    assert sample.view(seat) == state.view(seat)
    assert sample.events(seat) == state.events(seat)
    assert sample.view(None) == state.view(None)
    assert sorted(sample.to_move) == sorted(state.to_move)
    assert snapshot(state) == before  # the real game is untouched
    return sample


def scripted_game() -> Iterator[MurderState]:
    """A game with captures, distractions, poisons, a departure and an end; yields
    the state after every single action."""
    state = new_game(seating=(2, 0, 4, 1, 3), first_cards=("two", "ace", "joker", "king", "jack"))
    nights = [
        # (targets, cells): the Thug dies in night 3; in night 6 the Seductress is jailed
        # (the Constable's default target) and the Duke dies.
        ({C: S, A: T, S: D, D: S}, {C: "a1", S: "b1", A: "c3", T: "c4", D: "e1"}),
        ({A: T, S: D, D: C}, {A: "c3", T: "c4", S: "a1", D: "b1", C: "e2"}),
        ({A: T, T: D, C: A}, {A: "c3", T: "c4", D: "d4", C: "a3", S: "e1"}),
        ({A: D, D: S, C: S}, {A: "a1", D: "b1", S: "c1", C: "e3"}),
        ({A: D, S: C}, {A: "a1", D: "b1", S: "e2", C: "e3"}),
        ({A: D}, {A: "a1", D: "b1", S: "e2", C: "e3"}),
    ]
    yield state
    for targets, cells in nights:
        for seat, target in targets.items():
            if seat in state.to_move:
                state.apply(seat, f"target {target}")
                yield state
        while state.phase == "target":  # the others: their first legal target
            seat = state.to_move[0]
            state.apply(seat, state.legal_actions(seat)[0])
            yield state
        while state.phase == "draft":
            (drawer,) = state.to_move
            state.apply(drawer, state.legal_actions(drawer)[-1])
            yield state
        while state.phase == "placement":
            (placer,) = state.to_move
            state.apply(placer, f"place {cells[placer]}")
            yield state


def test_scripted_game_reaches_its_events() -> None:
    *_, state = scripted_game()
    nights = state.view(None)["nights"]
    assert any(n["captured"] for n in nights) and any(n["distracted"] for n in nights)
    departures = [left for n in nights for left in n["left"]]
    assert departures == [
        {"seat": T, "how": "dead"},
        {"seat": S, "how": "jailed"},
        {"seat": D, "how": "dead"},
    ]
    assert state.is_over and state.outcome.reason == "the Duke was killed"


def test_determinize_never_changes_what_the_seat_saw() -> None:
    for step, state in enumerate(scripted_game()):
        for seat in SEATS:
            assert_sample_agrees(state, seat, seed=step * 5 + seat)


@pytest.mark.parametrize("game_seed", range(6))
def test_determinize_agrees_in_random_crowded_games(game_seed: int) -> None:
    rng = random.Random(game_seed)
    state = new_game(None, seed=game_seed, first_cards=None, seating=None, max_turns=8)
    crowd = {"place a1", "place b1", "place c1", "place d1", "place e1", "place c2"}
    step = 0
    while not state.is_over:
        seat = rng.choice(state.to_move)
        actions = state.legal_actions(seat)
        near = [a for a in actions if str(a) in crowd or (a.verb == "swap" and rng.random() < 0.1)]
        state.apply(seat, rng.choice(near or actions))
        step += 1
        if step % 5 == 0 or state.is_over:
            for observer in SEATS:
                assert_sample_agrees(state, observer, rng.randrange(1 << 30))


def test_a_sample_with_the_roles_given_keeps_them_and_what_the_seat_saw() -> None:
    """The research hook of bench/murder_roles.py: the true deal handed in is the sample's,
    and the rest is drawn as always (the seat's view, events and the public view agree)."""
    from intrigue.games.masquerade_murder.belief import determinize

    for step, state in enumerate(scripted_game()):
        if step % 7:
            continue
        for seat in SEATS:
            if state.is_over:
                continue
            sample = determinize(state, seat, Rng(step + seat), roles=state.roles)
            assert sample.roles == state.roles
            assert sample.view(seat) == state.view(seat)
            assert sample.events(seat) == state.events(seat)
            assert sample.view(None) == state.view(None)


def test_role_deals_vary_among_the_consistent_ones() -> None:
    state = new_game()
    play_night(state, {C: S, D: C}, {C: "a1", S: "b1", D: "e1", A: "c3", T: "a3"})
    consistent = set(consistent_roles(state, C))
    assert 1 < len(consistent) < 24
    deals = {state.determinize(C, Rng(k)).roles for k in range(200)}
    assert deals <= consistent
    assert len(deals) == len(consistent)
    assert all(deal[C] == state.roles[C] for deal in deals)
    assert state.roles in consistent


def test_at_the_start_every_deal_of_the_others_is_possible(state: MurderState) -> None:
    assert len(consistent_roles(state, 2)) == 24
    deals = {state.determinize(2, Rng(k)).roles for k in range(300)}
    assert len(deals) == 24


def test_duke_reading_red_makes_the_target_evil_in_every_sample() -> None:
    state = new_game()
    play_night(state, {D: A, A: C}, {D: "a1", A: "b1", C: "e2", T: "a3", S: "d4"})
    assert state.view(D)["you"]["results"][-1]["colour"] == "RED"
    for k in range(100):
        sample = state.determinize(D, Rng(k))
        assert sample.roles[A] in EVIL
    # Another seat, who did not see the reading, may still think the Assassin is good.
    assert any(state.determinize(C, Rng(k)).roles[A] not in EVIL for k in range(100))


def test_departed_seat_is_never_duke_or_assassin_while_the_game_goes_on() -> None:
    """Regression: samples used to give a departed Thug the Duke's role, ending the game."""
    state = new_game()
    for _ in range(3):
        play_night(state, {A: T}, {A: "a1", T: "b1", C: "a3", S: "e2", D: "d4"})
    choose_targets(state, {C: A})
    for seat in (C, S, D):
        for k in range(40):
            sample = assert_sample_agrees(state, seat, k)
            assert sample.roles[T] not in (DUKE, ASSASSIN)
            assert not sample.is_over


def test_at_game_over_samples_have_the_true_roles_and_outcome() -> None:
    """Regression: the outcome's GREEN-count scores are public; samples must keep them."""
    state = new_game()
    for _ in range(3):  # the Duke reads the Thug (GREEN), unseen by the others, and dies
        play_night(state, {A: D, D: T, T: C}, {A: "a1", D: "b1", T: "c1", C: "e2", S: "d4"})
    assert state.is_over and state.outcome.scores == (0.0, 0.0, 0.0, 3.0, 3.0)
    for seat in SEATS:
        for k in range(10):
            sample = assert_sample_agrees(state, seat, k)
            assert sample.roles == state.roles
            assert sample.outcome == state.outcome


def _ended(thug_target: int) -> MurderState:
    """A one-night game (max_turns=1) in which the Thug targets ``thug_target``."""
    state = new_game(max_turns=1)
    choose_targets(state, {T: thug_target})
    place_all(state, QUIET)
    assert state.is_over
    return state


def test_at_game_over_the_secret_targets_are_resampled_alike() -> None:
    # The roles are public at the end, the targets are not: the Thug's choice, which changed
    # nothing anyone saw, must not show through the samples.
    twins = [_ended(target) for target in (C, S, A, D)]
    for seat in (C, S, A, D):
        assert all(t.view(seat) == twins[0].view(seat) for t in twins)
        for k in range(6):
            records = {json.dumps(t.determinize(seat, Rng(k)).record().to_json()) for t in twins}
            assert len(records) == 1
        thug = {twins[0].determinize(seat, Rng(k)).nights[0].targets[T] for k in range(30)}
        assert len(thug) > 1
        sample = twins[0].determinize(seat, Rng(1))
        assert sample.outcome == twins[0].outcome  # the GREEN counts add up to the scores


def _in_draft(second: str = "ace") -> MurderState:
    """Night 2's draft: seat 0 drew the king, seat 1 ``second``; seat 2 draws now."""
    state = new_game()
    play_night(state)
    choose_targets(state, {})
    state.apply(0, "draw king")
    state.apply(1, f"draw {second}")
    return state


def test_drawer_sample_keeps_what_he_saw_of_the_pile() -> None:
    # RULINGS 1.2: the drawer sees the pile; earlier drawers do not see later picks; a drawer
    # knows what the earlier ones took as a set (MM-14). Nobody else knows more.
    state = _in_draft()
    first_pile = state.view(0)["you"]["pile_seen"]
    later, piles0, piles3 = set(), set(), set()
    for k in range(40):
        for seat in (0, 2, 3):
            sample = assert_sample_agrees(state, seat, k)
            assert sample.cards[seat] == state.cards[seat]
        now = state.determinize(2, Rng(k))  # the drawer: the pile he sees, the picks as a set
        assert sorted(now.pile) == sorted(state.pile)
        assert {now.cards[0], now.cards[1]} == {"king", "ace"}
        first = state.determinize(0, Rng(k))  # drew first: his king, then any of the rest
        assert first.cards[0] == "king" and first.cards[1] in first_pile
        assert sorted(first.pile) == sorted(set(first_pile) - {"king", first.cards[1]})
        later.add(first.cards[1])
        piles0.add(tuple(sorted(first.pile)))
        piles3.add(tuple(sorted(state.determinize(3, Rng(k)).pile)))  # has not drawn yet
    assert len(later) == 5 and len(piles0) == 5  # not just the true "ace" and the true pile
    assert len(piles3) > 5


def test_a_pick_the_seat_did_not_see_does_not_change_its_samples() -> None:
    # Seat 1's pick (ace or queen) is hidden from seat 0 (drew before) and seat 3 (draws after).
    ace, queen = _in_draft("ace"), _in_draft("queen")
    for seat in (0, 3, 4):
        assert ace.view(seat) == queen.view(seat) and ace.events(seat) == queen.events(seat)
        for k in range(10):
            a, b = ace.determinize(seat, Rng(k)), queen.determinize(seat, Rng(k))
            assert a.record().to_json() == b.record().to_json()
