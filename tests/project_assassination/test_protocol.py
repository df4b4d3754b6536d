"""Whole games through the public protocol: endings, replays, clones and determinization."""

import json
import random
from collections import Counter

from pa_helpers import P1, P2, new, play

import intrigue
from intrigue.engine import Rng
from intrigue.games.project_assassination import GAME


def random_game(seed, stop=None, **options):
    state = GAME.new(players=2, seed=seed, **options)
    rng = random.Random(seed)
    while not state.is_over and (stop is None or len(state.history) < stop):
        (seat,) = state.to_move
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_random_games_end_by_the_rules():
    reasons = Counter()
    for seed in range(150):
        state = random_game(seed)
        assert state.is_over and not state.outcome.capped
        reasons[state.outcome.reason.split(";")[0].split(" ", 2)[-1]] += 1
    assert reasons["died"] > 0


def test_replay_rebuilds_every_view():
    for seed in range(20):
        state = random_game(seed, stop=random.Random(seed).randrange(200))
        again = intrigue.replay(json.loads(json.dumps(state.record().to_json())))
        for seat in (0, 1, None):
            assert again.view(seat) == state.view(seat)
            assert again.events(seat) == state.events(seat)
        assert again.rng.state == state.rng.state


def test_clone_is_independent():
    state = next(s for s in (random_game(seed, stop=25) for seed in range(50)) if not s.is_over)
    before = state.view(None)
    clone = state.clone()
    rng = random.Random(1)
    while not clone.is_over:
        (seat,) = clone.to_move
        clone.apply(seat, rng.choice(clone.legal_actions(seat)))
    assert clone.is_over and state.view(None) == before and not state.is_over


def test_determinize_keeps_every_view_and_replays_exactly():
    for seed in range(25):
        state = random_game(seed, stop=random.Random(seed).randrange(150))
        for seat in (P1, P2):
            sample = state.determinize(seat, Rng(seed))
            for viewer in (0, 1, None):
                assert sample.view(viewer) == state.view(viewer)
                assert sample.events(viewer) == state.events(viewer)
            again = intrigue.replay(sample.record())
            assert again.view(None) == sample.view(None) and again.rng.state == sample.rng.state
            # both continue the same way from the same generator
            rng = random.Random(seed)
            for _ in range(30):
                if sample.is_over:
                    break
                (who,) = sample.to_move
                assert again.legal_actions(who) == sample.legal_actions(who)
                action = rng.choice(sample.legal_actions(who))
                sample.apply(who, action)
                again.apply(who, action)
            assert again.view(None) == sample.view(None)


def test_determinize_resamples_the_next_cards():
    state = new(item_deck=["strategy"], collectible_deck=["grenade"])
    play(state, "end")
    drawn = Counter()
    for i in range(40):
        sample = state.determinize(P2, Rng(i))
        sample.apply(P2, "draw collectible")
        drawn[sample.points[P2][0]] += 1
    assert len(drawn) > 3  # the fixed top card is unknown to the players
    state.apply(P2, "draw collectible")
    assert state.points[P2] == ["grenade"]


def test_determinize_keeps_known_cards_under_the_enemy_deck():
    state = new(enemy_deck=["boss", "heavy"])
    play(state, "end", "end")
    assert state.enemy_deck.bottom == ["boss"]
    for i in range(10):
        sample = state.determinize(P1, Rng(i))
        assert sample.enemy_deck.bottom == ["boss"]
        assert sorted(sample.enemy_deck.pool) == ["heavy", "medic", "medic"]
