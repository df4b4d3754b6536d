"""determinize (SJ-38): samples depend only on what the seat knows, replay to themselves, and
resample what the seat has not seen."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from sj_helpers import GAME, play_randomly
from sj_invariants import check_invariants

import intrigue
from intrigue.engine import Rng
from intrigue.games.shadows_over_japan import belief
from intrigue.games.shadows_over_japan.rules import JapanState

VARIANTS: list[dict[str, Any]] = [
    {},
    {"honours": ["champion-of-light"]},  # reshuffles the deck with the discard pile at once
    {"honours": ["humble", "champion-of-light"], "missions": "rival"},
    {"neutral": "open", "interaction_cost": "per_interaction"},
]


def positions(players: int, games: int, stops: int = 3) -> Iterator[JapanState]:
    """Random positions of random games (each variant in turn), the last one finished."""
    for game in range(games):
        seed = 1000 * players + game
        rng = random.Random(seed)
        options = VARIANTS[game % len(VARIANTS)]
        state = GAME.new(players=players, seed=seed, max_turns=40, **options)
        assert isinstance(state, JapanState)
        points = set(rng.sample(range(500), stops))
        step = 0
        while not state.is_over:
            if step in points:
                yield state
            play_randomly(state, rng)
            step += 1
        yield state


def hidden_facts(state: JapanState, seat: int) -> Any:
    """What another seat knows and ``seat`` does not."""
    others = [s for s in range(state.players) if s != seat]
    return (
        [state.nobles[s] for s in others],
        [state.hand[s] for s in others],
        state.deck,
        [[(p, state.nsty[p]) for p in state.ninjas[s]] for s in others],
        [a for s, a in state.history if s != seat],
    )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_depends_only_on_what_the_seat_knows(players: int) -> None:
    """Two states a seat cannot tell apart give identical samples for the same generator."""
    checked = moved = 0
    for state in positions(players, games=12):
        for seat in range(players):
            twin = state.determinize(seat, Rng(checked + 100))
            assert twin.view(seat) == state.view(seat)
            assert twin.events(seat) == state.events(seat)
            moved += hidden_facts(twin, seat) != hidden_facts(state, seat)
            a = state.determinize(seat, Rng(7))
            b = twin.determinize(seat, Rng(7))
            assert a.record().to_json() == b.record().to_json()
            checked += 1
    # The twins really hid different facts (else the check above would prove nothing).
    assert moved > checked // 2, (moved, checked)


def public_snapshot(state: JapanState) -> dict[str, Any]:
    seats: list[int | None] = [*range(state.players), None]
    return {
        "record": state.record().to_json(),
        "rng": state.rng.state,
        "to_move": state.to_move,
        "views": [state.view(s) for s in seats],
        "events": [state.events(s) for s in seats],
        "legal": [[str(a) for a in state.legal_actions(s)] for s in range(state.players)],
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_samples_are_what_a_replay_of_their_record_gives(players: int) -> None:
    """After set-up a sample is an edited clone: it must equal the replay of its record."""
    for i, state in enumerate(positions(players, games=5)):
        for seat in range(players):
            sample = state.determinize(seat, Rng(i * 10 + seat))
            again = intrigue.replay(json.loads(json.dumps(sample.record().to_json())))
            assert public_snapshot(again) == public_snapshot(sample)
            assert sample.view(None) == state.view(None)
            check_invariants(sample)
            assert sample.rng.state != state.rng.state


def test_the_original_state_is_untouched_and_samples_are_reproducible() -> None:
    for state in positions(4, games=2):
        before = public_snapshot(state)
        for seat in range(4):
            first = state.determinize(seat, Rng(5)).record().to_json()
            assert state.determinize(seat, Rng(5)).record().to_json() == first
        assert public_snapshot(state) == before


def test_a_sample_can_be_played_on_independently() -> None:
    rng = random.Random(2)
    for state in positions(3, games=2, stops=2):
        if state.is_over:
            continue
        sample = state.determinize(state.to_move[0], Rng(1))
        mark = public_snapshot(state)
        for _ in range(60):
            if sample.is_over:
                break
            play_randomly(sample, rng)
            check_invariants(sample)
        assert public_snapshot(state) == mark


def test_hidden_set_up_styles_are_uniform_over_the_possible_choices() -> None:
    """Seat 1 placed three ninjas nobody has seen: 3^3 - 3 = 24 style sequences (at most two
    of a style) are equally likely."""
    state = GAME.new(players=2, seed=3, nobles=["oda", "date"], markers=["1", "2"])
    for _ in range(6):
        state.apply(state.current, str(state.legal_actions(state.current)[0]))
    model = belief._token_model(belief.token_ops(state, 1))
    rng = Rng(11)
    counts = Counter(tuple(model.sample(rng)[0]) for _ in range(2400))
    assert len(counts) == 24
    assert all(50 <= n <= 150 for n in counts.values()), counts


def test_a_swap_between_equal_styles_is_a_coin_flip() -> None:
    """Two choice sequences lead to the same board after a Substitution between two ninjas of
    the same style: the sampled swap flag is uniform, and the board is weighted accordingly."""
    ops: list[tuple[Any, ...]] = [("choose", 1), ("choose", 2), ("swap", 1, 2)]
    model = belief._token_model(ops)
    rng = Rng(4)
    flags = Counter()
    boards = Counter()
    for _ in range(3000):
        choices, (board, _) = model.sample(rng)
        flags[choices[2]] += 1
        boards[board] += 1
    assert 1300 < flags[0] < 1700
    # 9 style pairs, each reached by 2 sequences: 18 sequences, 1/9 per board.
    assert len(boards) == 9 and all(230 < n < 440 for n in boards.values()), boards


def test_recruits_weighed_by_a_readers_odds_set_up_placements_stay_uniform() -> None:
    """A search's belief may weigh the other seats' recruits (``recruits``, a chance for each
    style the pool has): with odds that favour each pool's last style ten to one and nothing
    seen, the set-up placement stays uniform and each recruit takes its pool's last style with
    chance 1/1.2 (1/1.1 with two styles left)."""
    ops: list[tuple[Any, ...]] = [
        ("choose", 1),
        ("choose", 2, belief.RECRUIT),
        ("choose", 3, belief.RECRUIT),
    ]

    def last_style(pool: tuple[int, int, int]) -> tuple[float, float, float]:
        best = max(s for s in range(3) if pool[s])
        return (1.0 if best == 0 else 0.1, 1.0 if best == 1 else 0.1, 1.0 if best == 2 else 0.1)

    plain, read = belief._token_model(ops), belief._token_model(ops, last_style)
    rng = Rng(5)
    placed, recruited = Counter(), Counter()
    for _ in range(3000):
        choices = read.sample(rng)[0]
        placed[choices[0]] += 1
        recruited[tuple(choices[1:])] += 1
    assert all(900 < placed[style] < 1100 for style in range(3)), placed
    # (2, 2): the first recruit takes style 2 (1/1.2); then, unless the placement took the
    # other 2 (1/3), style 2 again (1/1.2): 0.833 * (2/3 * 0.833) = 0.46 of the samples.
    assert 0.42 * 3000 < recruited[(2, 2)] < 0.50 * 3000, recruited
    # (2, 1): the placement took a 2 and the recruits the last style left (1/3 * 0.833 *
    # 0.909), or it did not and the second recruit strayed (2/3 * 0.833 * 0.1/1.2): 0.30.
    assert 0.27 * 3000 < recruited[(2, 1)] < 0.33 * 3000, recruited
    flat = Counter(tuple(plain.sample(rng)[0][1:]) for _ in range(3000))
    assert flat[(2, 2)] < 0.2 * 3000, flat


def test_a_card_shown_later_is_placed_in_that_hand_before_the_show() -> None:
    """Seat 1 discards a card it drew: in every sample that card went to seat 1 at one of its
    own draws before the discard, and cards seat 0 saw face up stay where they were seen."""
    state = GAME.new(players=2, seed=21, nobles=["oda", "date"], markers=["1", "2"])
    rng = random.Random(21)
    shown = []
    while len(shown) < 3 and not state.is_over:
        play_randomly(state, rng)
        shown = [(w, c) for k, w, c in state.timeline if k == 1 and w == 1]
    assert shown
    for i in range(20):
        sample = state.determinize(0, Rng(i))
        hand: list[int] = []
        for kind, who, card in sample.timeline:
            if kind == 0 and who == 1:
                hand.append(card)
            elif kind == 1 and who == 1:
                assert card in hand
                hand.remove(card)
        assert hand == sample.hand[1]
        face_up = [(w, c) for k, w, c in state.timeline if k == 0 and w in (-1, 0)]
        assert face_up == [(w, c) for k, w, c in sample.timeline if k == 0 and w in (-1, 0)]
