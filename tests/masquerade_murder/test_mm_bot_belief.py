"""`hard`'s belief in Masquerade Murder: deals and past targets weighed by how well they
explain the public play of seats that play as `medium` (the heuristic's ``resample`` hook)."""

from __future__ import annotations

import math
import random

import pytest
from mm_helpers import IN_ORDER, new_game, place_all

from intrigue.bots import make_bot
from intrigue.bots.heuristics import masquerade_murder as heuristic
from intrigue.bots.ismcts import ISMCTSBot
from intrigue.bots.match import bot_move
from intrigue.engine import Rng
from intrigue.games.masquerade_murder.belief import consistent_roles
from intrigue.games.masquerade_murder.resolution import ASSASSIN, DUKE, SEDUCTRESS
from intrigue.games.masquerade_murder.rules import MurderState


def medium_ball(seed: int, nights: int) -> list[MurderState]:
    """A ball of five `medium` seats: a copy of the state at the start of every night from
    the second on (before anyone has chosen a target), up to ``nights`` of them."""
    state = new_game(None, seed=seed, first_cards=None, seating=None, max_turns=15)
    bot, rng, starts = make_bot("medium"), Rng(seed), []
    while not state.is_over and len(starts) < nights:
        if state.phase == "target" and state.night >= 2 and state.undecided == sum(state.active):
            starts.append(state.clone())
        seat = state.to_move[0]
        state.apply(seat, bot.choose(state.view(seat), state.legal_actions(seat), rng))
    return starts


def medium_positions(seed: int, every: int, moves: int) -> list[MurderState]:
    """Copies of a `medium` ball every ``every`` moves, in every phase, up to ``moves``."""
    state = new_game(None, seed=seed, first_cards=None, seating=None, max_turns=15)
    bot, rng, positions = make_bot("medium"), Rng(seed), []
    for move in range(moves):
        if state.is_over:
            break
        if move % every == every - 1:
            positions.append(state.clone())
        seat = state.to_move[0]
        state.apply(seat, bot.choose(state.view(seat), state.legal_actions(seat), rng))
    return positions


def test_each_nights_placements_are_read_in_order() -> None:
    state = new_game()
    for _ in range(2):
        for seat in range(5):
            state.apply(seat, f"target {(seat + 1) % 5}")
        while state.phase == "draft":
            (drawer,) = state.to_move
            state.apply(drawer, state.legal_actions(drawer)[0])
        place_all(state, {0: "a1", 1: "a3", 2: "e2", 3: "d4", 4: "c3"})
    nights = heuristic._placements(state)
    assert [len(night) for night in nights] == [5, 5]
    assert [actor for actor, _ in nights[0]] == [0, 1, 2, 3, 4]  # IN_ORDER: seats 0 to 4
    assert {str(action) for _, action in nights[1]} == {
        "place a1", "place a3", "place e2", "place d4", "place c3"
    }  # fmt: skip


def test_a_seat_placed_beside_a_seated_player_most_likely_aims_at_it() -> None:
    """Seat 1 placed second, on b1 beside seat 0's a1: `medium` sits beside its target when
    the target sits already, and takes a roomy seat (b1 is not) when it does not."""
    state = new_game(first_cards=IN_ORDER)
    for seat in range(5):
        state.apply(seat, f"target {(seat + 1) % 5}")
    place_all(state, {0: "a1", 1: "b1", 2: "e2", 3: "d4", 4: "c3"})
    night = state.nights[0]
    placed = heuristic._placements(state)[0]
    odds = heuristic._place_odds(state, night.cards, night.active, placed, 4)
    assert set(odds) == {0, 1, 2, 3}  # every seat but the observer's
    beside = (1 - heuristic.STRAY) / 2 + heuristic.STRAY / 15  # a2 or b1; 15 free seats
    assert odds[1][0] == pytest.approx(beside)
    for target in (2, 3, 4):
        assert odds[1][target] == pytest.approx(heuristic.STRAY / 15)
    # Seat 0 placed first: nobody sat yet, so its place says nothing of its target.
    assert len(set(odds[0].values())) == 1


def test_the_deals_weights_add_up_and_cover_the_consistent_deals() -> None:
    state = medium_ball(3, 3)[-1]
    for seat in range(5):
        weighed = heuristic.weigh_deals(state, seat, random.Random(1))
        assert [roles for roles, _, _ in weighed] == consistent_roles(state, seat)
        assert sum(weight for _, weight, _ in weighed) == pytest.approx(1.0)
        for _, _, followed in weighed:
            assert len(followed) == heuristic.PATHS
            for path, history in followed:
                assert len(path) == len(state.nights)
                assert all(
                    len(history[p]) == sum(n.active[p] for n in state.nights) for p in range(5)
                )


def test_reading_medium_play_names_the_duke_more_surely_than_counting_deals() -> None:
    """At the start of nights of `medium` balls, the Evil seats' chance on the true Duke is
    higher, on average in logarithms, under the reading than with every deal alike."""
    plain, read = [], []
    for seed in (500, 501, 502, 503):
        for state in medium_ball(seed, 6):
            duke = state.roles.index(DUKE)
            for seat in range(5):
                if not state.active[seat] or state.roles[seat] not in (ASSASSIN, SEDUCTRESS):
                    continue
                deals = consistent_roles(state, seat)
                plain.append(math.log(sum(d[duke] == DUKE for d in deals) / len(deals)))
                weighed = heuristic.weigh_deals(state, seat, random.Random(seed))
                read.append(math.log(sum(w for d, w, _ in weighed if d[duke] == DUKE)))
    assert len(plain) >= 20
    assert sum(read) / len(read) > sum(plain) / len(plain) + 0.1


def test_resampled_games_agree_with_everything_the_seat_saw() -> None:
    for state in medium_positions(7, 7, 100):
        for seat in range(5):
            if not state.active[seat]:
                continue
            draw = heuristic.resample(state, seat, random.Random(seat))
            for k in range(3):
                sample = draw(random.Random(k))
                assert sample.view(seat) == state.view(seat)
                assert sample.events(seat) == state.events(seat)
                assert sample.view(None) == state.view(None)


def test_resampling_reads_nothing_the_seat_cannot_see() -> None:
    """Two states a seat cannot tell apart resample alike: the real one and a determinization
    of it, whose other roles and targets differ, at every phase of the night (tonight's
    places so far are read too)."""
    for state in medium_positions(11, 5, 100):
        for seat in range(5):
            if not state.active[seat]:
                continue
            twin = state.determinize(seat, Rng(seat + 40))
            a = heuristic.resample(state, seat, random.Random(2))(random.Random(3))
            b = heuristic.resample(twin, seat, random.Random(2))(random.Random(3))
            assert a.record().to_json() == b.record().to_json()


def test_belief_zero_searches_the_drivers_samples_as_they_come() -> None:
    state = medium_ball(5, 2)[-1]
    seat = state.to_move[0]
    for belief, asked in ((1, 1), (0, 30)):
        drawn = []

        def sampler(rng, drawn=drawn):
            drawn.append(1)
            return state.determinize(seat, rng)

        bot = ISMCTSBot(iterations=30, reuse=1, early=0, belief=belief)
        bot.choose(state.view(seat), state.legal_actions(seat), Rng(1), sampler=sampler)
        assert len(drawn) == asked  # with the belief: one, to read the public record from


def test_hard_with_its_belief_is_blind_to_hidden_information() -> None:
    for state in medium_positions(13, 6, 60):
        seat = state.to_move[0]
        twin = state.determinize(seat, Rng(77))
        bot = make_bot("hard:iterations=40")
        assert bot_move(bot, state, seat, Rng(9)) == bot_move(bot, twin, seat, Rng(9))


def test_tonights_places_so_far_tell_the_samples_tonights_targets() -> None:
    """Night 1, seats placing in the order 0 to 4: seat 1 sat on b1 beside seat 0, who sat
    first, so the samples of a seat still to place give seat 1 the target 0 nearly always
    (plain `determinize` would give each of its four targets a quarter)."""
    state = new_game(first_cards=IN_ORDER)
    for seat in range(5):
        state.apply(seat, f"target {(seat + 2) % 5}")
    state.apply(0, "place a1")
    state.apply(1, "place b1")
    draw = heuristic.resample(state, 4, random.Random(0))
    samples = [draw(random.Random(k)) for k in range(60)]
    assert all(sample.view(4) == state.view(4) for sample in samples)
    aims = [sample.targets[1] for sample in samples]
    assert aims.count(0) >= 50
    assert len({sample.targets[0] for sample in samples}) == 4  # seat 0's place says nothing
    plain = [state.determinize(4, Rng(k)).targets[1] for k in range(60)]
    assert plain.count(0) < 30
