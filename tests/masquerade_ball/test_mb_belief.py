"""Determinization (belief.py): samples depend only on what the seat knows, always exist, and
respect every rank the seat's observations pin down."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from mb_helpers import START, dealt, game_obj, play, play_randomly, position, three

import intrigue
from intrigue.engine import Rng
from intrigue.games.masquerade_ball import belief
from intrigue.games.masquerade_ball.belief import Csp, OutOfBudget, plan

EVEN = {"2", "4", "6", "8", "10"}


def _random_state(seed: int, steps: int, players: int, **options: object):
    if players == 3:
        state = three(seed=seed, max_turns=300, **options)
    else:
        state = game_obj().new(players, seed=seed, max_turns=300, **options)
    return play_randomly(state, seed, steps)


CASES = [
    (seed, players, steps, options)
    for seed, (players, steps, options) in enumerate(
        [
            (2, 30, {}),
            (2, 120, {}),
            (2, 260, {"eight": "B"}),
            (2, 400, {"memory": "concentration"}),
            (4, 60, {}),
            (4, 200, {}),
            (4, 400, {"release": "own"}),
            (2, 200, {"abilities": "interleaved"}),
        ]
    )
]


@pytest.mark.parametrize(
    ("seed", "players", "steps", "options"), [*CASES, (7, 3, 150, {}), (8, 3, 350, {})]
)
def test_determinize_depends_only_on_what_the_seat_knows(
    seed: int, players: int, steps: int, options: dict[str, object]
) -> None:
    """Two states a seat cannot tell apart give identical samples for the same generator."""
    state = _random_state(seed, steps, players, **options)
    for seat in range(players):
        twin = state.determinize(seat, Rng(seed + 100))
        assert twin.view(seat) == state.view(seat)
        a = state.determinize(seat, Rng(7))
        b = twin.determinize(seat, Rng(7))
        assert a.record().to_json() == b.record().to_json()
        c = state.determinize(seat, random.Random(11))
        d = twin.determinize(seat, random.Random(11))
        assert c.record().to_json() == d.record().to_json()


def test_hand_made_twins_differing_in_unseen_ranks_sample_alike() -> None:
    # South's c5 and d5 swap ranks; North never sees either card.
    other = "q-k-j-10-9-8-a-jk-7-6-5-3-4-2"
    moves = ["inspect c3", "move c3 b4", "end", "inspect b5", "end", "inspect b4", "move b4 c5"]
    one, two = dealt([START, START]), dealt([START, other])
    for state in (one, two):
        play(state, *moves)
    assert one.view(0) == two.view(0) and one.rank_at("c5") != two.rank_at("c5")
    for seed in range(5):
        a, b = one.determinize(0, Rng(seed)), two.determinize(0, Rng(seed))
        assert a.record().to_json() == b.record().to_json()


@pytest.mark.parametrize(("seed", "players", "steps", "options"), CASES)
def test_samples_always_exist_agree_with_the_seat_and_replay(
    seed: int, players: int, steps: int, options: dict[str, object]
) -> None:
    _assert_samples_agree_and_replay(_random_state(seed, steps, players, **options), draws=3)


def _assert_samples_agree_and_replay(state, draws: int) -> None:
    """Every seat's first ``draws`` samples show it what it sees, and replay to themselves."""
    players = state.players
    for seat in range(players):
        for k in range(draws):
            sample = state.determinize(seat, Rng(k))
            assert sample.view(seat) == state.view(seat)
            assert sample.events(seat) == state.events(seat)
            assert sample.view(None) == state.view(None)
            again = intrigue.replay(sample.record().to_json())
            assert [again.view(s) for s in range(players)] == [
                sample.view(s) for s in range(players)
            ]
            assert [again.events(s) for s in range(players)] == [
                sample.events(s) for s in range(players)
            ]


def _ranks(state, seat: int, square: str, count: int = 24) -> list[str | None]:
    return [state.determinize(seat, Rng(i)).rank_at(square) for i in range(count)]


def test_a_card_that_jumped_is_an_aristocrat_in_every_sample() -> None:
    south = "q-k-j-10-4-8-a-jk-7-6-5-9-3-2"  # South's 9 on c5
    state = dealt([START, south])
    play(state, "inspect b3", "move b3 a4", "end")
    play(state, "inspect c5", "move c5 b3", "end")  # a (2, 1) jump
    seen = _ranks(state, 0, "b3")
    assert set(seen) <= {"8", "9", "10"} and len(set(seen)) > 1


def test_an_even_card_that_stood_still_had_no_free_pip_square() -> None:
    state = dealt()
    play(state, "inspect c3", "move c3 d4", "end")
    play(state, "inspect b5", "end")  # b5 had empty pip squares (b4, a4, c4...) and stayed
    seen = _ranks(state, 0, "b5")
    assert not set(seen) & EVEN and len(set(seen)) > 1


def test_a_lost_attack_leaves_only_stronger_defenders() -> None:
    north = "q-k-j-10-4-8-a-jk-7-6-5-9-3-2"  # North's 9 on c3
    south = "3-k-j-10-9-8-a-jk-7-6-5-4-q-2"  # South's Queen on d5
    state = dealt([north, south])
    play(state, "inspect c3", "move c3 d5", "end")
    assert state.view(None)["sides"][1]["prison"]["count"] == 1  # the 9 lost
    seen = _ranks(state, 0, "d5")
    # a masked 9 attacking loses to Royalty, the Proletariat and the 10
    assert set(seen) <= {"Q", "K", "J", "A", "Joker", "10"} and len(set(seen)) > 1


def _hand_of_two(*south_moves: str):
    # North releases South's Queen and Priest; South then plays one of them from a hand of two.
    state = position("0:k@c3", "1:q@prison0", "1:3@prison0", "1:k@f7", "0:2@a1")
    play(state, "release 0", "release 0", "inspect c3", "move c3 c4", "end")
    assert state.view(0)["sides"][1]["hand"] == {"count": 2, "known": ["3", "Q"]}
    play(state, "inspect f7", *south_moves)
    return state


def test_which_card_of_a_hand_of_several_was_played_is_resampled() -> None:
    state = _hand_of_two("play 0", "place e6", "move e6 e5")  # a Queen move a Priest can make
    assert state.rank_at("e5") == "Q"
    seen = _ranks(state, 0, "e5")
    assert set(seen) == {"Q", "3"}  # the seat cannot tell: both occur
    for i in range(6):
        sample = state.determinize(0, Rng(i))
        left = {"Q", "3"} - {sample.rank_at("e5")}
        assert sample.view(1)["sides"][1]["hand"]["cards"] == sorted(left)


def test_a_hand_pick_is_pinned_by_how_the_card_moved() -> None:
    state = _hand_of_two("play 0", "place e6", "move e6 d5")  # diagonal: not the Priest
    assert state.rank_at("d5") == "Q"
    assert set(_ranks(state, 0, "d5")) == {"Q"}


def test_the_plan_is_built_once_per_state_and_seat() -> None:
    state = _random_state(3, 80, 2)
    seat = state.to_move[0]
    first = plan(state, seat)
    assert plan(state, seat) is first
    samples = {state.determinize(seat, Rng(i)).record().to_json()["seed"] for i in range(4)}
    assert len(samples) == 4 and plan(state, seat) is first
    state.apply(seat, state.legal_actions(seat)[0])
    assert plan(state, seat) is not first
    assert plan(state.clone(), seat) is not plan(state, seat)  # clones keep their own


def test_an_ability_before_a_card_moved_means_it_was_not_bound_to_move() -> None:
    # South plays its hidden hand card onto c6 (free pip squares all around), then its Spy on
    # f7 unmasks: abilities wait for every card bound to move (MB-52), so the played card is
    # no even rank, in every sample North draws.
    cards = ("1:5@f7", "1:k@hand", "1:4@a7", "1:j@e6", "1:8@b6", "0:k@c3", "0:q@a1")
    state = position(*cards, first=1)
    play(state, "inspect f7", "play 0", "place c6", "spy c3", "end")
    seen = set()
    for i in range(24):
        sample = state.determinize(0, Rng(i))
        seen.add(sample.rank_at("c6"))
        intrigue.replay(sample.record().to_json())  # the sample's story is legal
    assert seen <= {"K", "J"} and len(seen) == 2


# -- the ranks' search: restarted, and budgeted over hand picks ------------------------------
HEAVY_TAIL = Path(__file__).parent / "data" / "heavy_tail_four_players.json"


def _heavy_tail_csp() -> Csp:
    """North's constraints 247 moves into a four-player ball of `hard` against `medium`
    (seed 608), where one determinization took minutes before restarts."""
    state = intrigue.replay(json.loads(HEAVY_TAIL.read_text()))
    made = plan(state, 0)
    assert made.csp is not None
    return made.csp


def _outcomes(csp: Csp, seeds: range, budget: int) -> list[bool]:
    """Per generator seed: did ``solve`` answer within ``budget`` search nodes?"""
    out = []
    for seed in seeds:
        try:
            ranks = csp.copy().solve(random.Random(seed), budget)
        except OutOfBudget:
            out.append(False)
            continue
        assert ranks is not None  # this seat's constraints hold for the true deal
        out.append(True)
    return out


def test_one_unrestarted_search_has_a_heavy_tail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The regression case is a real one: a single backtracking run (the search before
    restarts) needs more than 20,000 nodes for most generator seeds."""
    monkeypatch.setattr(belief, "RESTART_NODES", 10**9)
    assert _outcomes(_heavy_tail_csp(), range(20), 20_000).count(False) >= 5


def test_restarts_answer_the_heavy_tailed_case_within_a_small_budget() -> None:
    assert all(_outcomes(_heavy_tail_csp(), range(100), 5_000))


def test_the_restarted_search_draws_ranks_that_keep_every_constraint() -> None:
    csp = _heavy_tail_csp()
    for seed in range(10):
        ranks = csp.copy().solve(random.Random(seed))
        assert ranks is not None
        for g, cids in enumerate(csp.groups):
            assert sorted(ranks[c] for c in cids) == sorted(belief._bits(csp.pools[g]))
            for c in cids:
                assert csp.dom[c] >> ranks[c] & 1
                for other, table in csp.adj[c]:
                    assert table[ranks[other]] >> ranks[c] & 1


def test_a_search_past_its_budget_leaves_the_question_open() -> None:
    with pytest.raises(OutOfBudget):
        _heavy_tail_csp().solve(random.Random(0), budget=1)


def test_the_runs_follow_the_luby_sequence() -> None:
    assert [belief._luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_hand_picks_left_open_by_the_first_budget_are_searched_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a first budget of one node per branch of hand picks, branches are left open and
    searched again with more: samples still exist, agree with the seat and replay."""
    monkeypatch.setattr(belief, "PICK_BUDGET", 1)
    solve, open_ = belief.Csp.solve, [0]

    def counting(self: Csp, rng: object, budget: int | None = None) -> list[int] | None:
        try:
            return solve(self, rng, budget)
        except OutOfBudget:
            open_[0] += 1
            raise

    monkeypatch.setattr(belief.Csp, "solve", counting)
    for seed, players, steps, options in (CASES[3], CASES[6]):
        _assert_samples_agree_and_replay(_random_state(seed, steps, players, **options), draws=2)
    assert open_[0] > 0


def test_replays_between_hand_picks_are_kept_for_the_next_samples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plan keeps the replay after each hand pick: later samples reuse them and draw
    exactly what samples replaying every branch again draw."""
    seed, players, steps, options = CASES[6]
    state = _random_state(seed, steps, players, **options)
    kept = {}
    for seat in range(players):
        assert plan(state, seat).prefix is not None  # this seat's story has hidden picks
        kept[seat] = [state.determinize(seat, Rng(k)).record().to_json() for k in range(4)]
        assert plan(state, seat).branches
    monkeypatch.setattr(belief, "BRANCHES_KEPT", 0)
    again = _random_state(seed, steps, players, **options)
    for seat in range(players):
        fresh = [again.determinize(seat, Rng(k)).record().to_json() for k in range(4)]
        assert fresh == kept[seat] and not plan(again, seat).branches
