"""Whole games through the public protocol: endings, replays, clones and determinization."""

import json
import random
from collections import Counter

from pa_helpers import P1, P2, new, play, stack

import intrigue
from intrigue.engine import Rng
from intrigue.games.project_assassination import GAME
from intrigue.games.project_assassination.board import COLLECTIBLE_DECK, ITEM_DECK


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


def fixed_deal(seed, **options):
    """A game whose every deck, coin and first player is fixed by options: only the seed
    (and so the generator's state) differs between two such games."""
    return GAME.new(
        players=2,
        seed=seed,
        first_player=0,
        item_deck=stack(ITEM_DECK, "cover", "ambush"),
        collectible_deck=stack(COLLECTIBLE_DECK, "grenade", "uzi", "health_pack"),
        enemy_deck=["heavy", "medic", "boss", "heavy", "medic"],
        coins=["heads", "tails"] * 30,
        **options,
    )


def test_the_generator_never_reaches_a_view_or_an_event():
    """Two games differing only in their seed look the same to everybody, step by step."""
    for game_seed in range(6):
        a, b = fixed_deal(1000 + game_seed), fixed_deal(2000 + game_seed)
        assert a.rng.state != b.rng.state
        rng = random.Random(game_seed)
        while not a.is_over:
            (seat,) = a.to_move
            assert b.to_move == (seat,) and b.legal_actions(seat) == a.legal_actions(seat)
            action = rng.choice(a.legal_actions(seat))
            a.apply(seat, action)
            b.apply(seat, action)
            for viewer in (0, 1, None):
                assert a.view(viewer) == b.view(viewer)
        for viewer in (0, 1, None):
            assert a.events(viewer) == b.events(viewer)
        assert b.is_over and a.outcome == b.outcome


def indistinguishable_pair():
    """Two games at Player 2's first turn after one Collectible draw: the drawn card (a
    Grenade) is the same, the unseen rest of every deck is ordered differently."""
    a = GAME.new(
        players=2,
        seed=5,
        first_player=0,
        collectible_deck=["grenade", "sight", "uzi"],
        item_deck=["cover"],
        enemy_deck=["boss"],
    )
    b = GAME.new(
        players=2,
        seed=77,
        first_player=0,
        collectible_deck=["grenade", "shotgun"],
        item_deck=["obstacle", "strategy"],
        enemy_deck=["medic", "heavy"],
    )
    for state in (a, b):
        play(state, "end", "draw collectible")
    return a, b


def test_deck_orders_the_seat_has_not_seen_do_not_change_its_view():
    a, b = indistinguishable_pair()
    assert a.coll_deck.top != b.coll_deck.top  # the next cards really differ
    for viewer in (0, 1, None):
        assert a.view(viewer) == b.view(viewer)
        assert a.events(viewer) == b.events(viewer)


def test_determinize_depends_only_on_what_the_seat_knows():
    """Same generator seed + two states the seat cannot tell apart => identical samples."""
    a, b = indistinguishable_pair()
    for seat in (P1, P2):
        for sample_seed in range(5):
            sa = a.determinize(seat, Rng(sample_seed))
            sb = b.determinize(seat, Rng(sample_seed))
            assert sa.record().to_json() == sb.record().to_json()
            # and they go on identically: every later draw comes from the fresh generator
            rng = random.Random(sample_seed)
            for _ in range(60):
                if sa.is_over:
                    break
                (who,) = sa.to_move
                action = rng.choice(sa.legal_actions(who))
                sa.apply(who, action)
                sb.apply(who, action)
                assert sa.view(None) == sb.view(None)
    for seed in range(8):
        state = random_game(seed, stop=20 + 9 * seed)
        for seat in (P1, P2):
            twin = state.determinize(seat, Rng(seed + 100))
            one = state.determinize(seat, Rng(7))
            two = twin.determinize(seat, Rng(7))
            assert one.record().to_json() == two.record().to_json()
            assert one.rng.state == two.rng.state != state.rng.state
