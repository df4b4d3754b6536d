"""What `hard` adds to its search in Shadows over Japan: a shortlist of the heuristic's best
moves (the ``width`` setting) and a belief that reads the clans' public play as `medium` plays
(the ``resample`` hook), both computed from determinizations only."""

from __future__ import annotations

import math
import random

import pytest

import intrigue
from intrigue.bots.heuristic import search_hooks
from intrigue.bots.heuristics import shadows_over_japan as japan
from intrigue.bots.ismcts import ISMCTSBot, _Search
from intrigue.engine import Rng, State
from intrigue.games.shadows_over_japan.belief import consistent_nobles

GAME = "shadows-over-japan"


def medium_game(seed: int, moves: int, players: int = 2) -> State:
    """A seeded game of the heuristic against itself, ``moves`` moves in (or over)."""
    state = intrigue.load(GAME).new(players, seed, max_turns=200)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(seat, japan.rollout_policy(state, seat, state.legal_actions(seat), rng))
    return state


def heuristic_values(state: State, seat: int, legal: list) -> list[float]:
    board = japan.Board.from_state(state, seat)
    if state.phase == "discard":
        return [-w for w in japan._discard_worth(board, legal)]
    return [japan._value(board, state.phase, state.actions_left, a) for a in legal]


def test_the_shortlist_ranks_every_legal_move_best_first() -> None:
    state = intrigue.load(GAME).new(2, 3, max_turns=200)
    rng = random.Random(3)
    checked = 0
    while not state.is_over and checked < 60:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        if state.phase != "setup" and len(legal) > 1:
            ranked = japan.shortlist(state, seat, legal, random.Random(checked))
            assert sorted(map(str, ranked)) == sorted(map(str, legal))
            values = dict(zip(legal, heuristic_values(state, seat, legal), strict=True))
            assert [values[a] for a in ranked] == sorted(values.values(), reverse=True)
            # its first move is one the heuristic itself could play
            policy_move = japan.rollout_policy(state, seat, legal, random.Random(checked))
            assert values[ranked[0]] == values[policy_move]
            checked += 1
        state.apply(seat, japan.rollout_policy(state, seat, legal, rng))
    assert checked == 60


@pytest.mark.parametrize("width", [1, 3])
def test_a_width_keeps_our_decisions_on_the_shortlist(width: int) -> None:
    state = medium_game(5, 62)
    seat = state.to_move[0]
    assert state.phase == "actions" and len(state.legal_actions(seat)) > width
    search = _Search(ISMCTSBot(width=width), search_hooks(GAME), seat, random.Random(1))
    for n in range(40):
        search.iterate(state.determinize(seat, Rng(n)))
    hint, ranked = search.root_hint
    assert hint == ranked[0] and len(ranked) == len(state.legal_actions(seat))
    assert set(search.root.children) == set(ranked[:width])


def test_width_zero_searches_every_legal_move() -> None:
    state = medium_game(5, 62)
    seat = state.to_move[0]
    search = _Search(ISMCTSBot(width=0), search_hooks(GAME), seat, random.Random(1))
    for n in range(200):
        search.iterate(state.determinize(seat, Rng(n)))
    assert set(search.root.children) == set(state.legal_actions(seat))


def test_a_negative_width_is_refused() -> None:
    with pytest.raises(ValueError, match="width"):
        ISMCTSBot(width=-1)


def test_public_signs_count_what_each_clan_did_to_each_noble() -> None:
    state = medium_game(2, 400)
    tally = japan.public_signs(state)
    sabotage, toward, away = japan.AT["sabotage"], japan.AT["toward"], japan.AT["away"]
    sabotages = [0, 0]
    moves = [0, 0]
    for event in state.shared_events(None):
        if event["kind"] == "sabotaged":
            sabotages[event["seat"]] += 1
        if event["kind"] == "move":
            moves[event["seat"]] += 1
    for seat in range(2):
        own = state.nobles[seat]
        assert sum(tally[seat][sabotage]) == sabotages[seat] > 0
        assert tally[seat][sabotage][own] == 0  # the heuristic never harms its own Noble
        # every move is read for every Noble; the heuristic walks toward its own targets
        pairs = list(zip(tally[seat][toward], tally[seat][away], strict=True))
        assert all(t + a <= moves[seat] for t, a in pairs)
        net = [t - a for t, a in pairs]
        assert net[own] == max(net)


def test_the_sign_walk_replays_the_game_it_reads() -> None:
    state = medium_game(4, 300, players=3)
    tally = [[[0] * 4 for _ in japan.SIGNS] for _ in range(3)]
    steps = [(step, replay.log_length) for step, replay in japan.sign_walk(state, tally)]
    assert [step for step, _ in steps] == list(range(len(state.history)))
    assert steps[-1][1] == state.log_length
    assert tally == japan.public_signs(state)


def test_the_odds_weigh_each_assignment_by_its_signs() -> None:
    state = medium_game(5, 40)  # three Nobles left by the claims
    assignments, odds = japan.noble_odds(state, 0)
    assert assignments == consistent_nobles(state, 0) and len(assignments) == 3
    assert sum(odds) == pytest.approx(1.0)
    assert min(odds) >= japan.STRAY / 3  # no assignment the claims allow is left out
    tally = japan.public_signs(state)
    even = japan.STRAY / 3
    read = [(o - even) / (1 - japan.STRAY) for o in odds]
    for a, b, odds_a, odds_b in zip(assignments, assignments[1:], read, read[1:], strict=False):
        ratio = sum(
            w * (tally[1][i][a[1]] - tally[1][i][b[1]]) for i, w in enumerate(japan.SIGN_WEIGHTS)
        )
        assert math.log(odds_a / odds_b) == pytest.approx(ratio)


def test_the_odds_read_nothing_the_seat_cannot_see() -> None:
    for players, moves in ((2, 120), (3, 250), (4, 330)):
        state = medium_game(players + 10, moves, players)
        truth = japan.noble_odds(state, 0)
        for n in range(3):
            assert japan.noble_odds(state.determinize(0, Rng(n)), 0) == truth


def test_reading_medium_play_names_the_nobles_more_surely_than_the_harms() -> None:
    """Over whole three-player games of `medium`, at every 10th step where the claims leave
    the seat to move a choice, the mean log-chance of the true Nobles under the shipped
    weights beats the harms alone (the reading before) by a clear margin (on bench's
    held-out games: -0.25 against -0.44)."""
    harm = math.log(japan.SELF_HARM)
    harms_only = [harm if sign in japan.HARMS else 0.0 for sign in japan.SIGNS]
    logs: dict[str, list[float]] = {"shipped": [], "harms": []}
    for seed in range(10):
        game = medium_game(seed + 30, 2000, players=3)
        tally = [[[0] * 4 for _ in japan.SIGNS] for _ in range(3)]
        for step, replay in japan.sign_walk(game, tally):
            if step % 10 or replay.phase in ("setup", "over") or replay.is_over:
                continue
            seat = replay.to_move[0]
            allowed = consistent_nobles(replay, seat)
            if len(allowed) < 2:
                continue
            truth = allowed.index(tuple(game.nobles))
            for name, weights in (("shipped", japan.SIGN_WEIGHTS), ("harms", harms_only)):
                scores = [
                    sum(
                        w * tally[s][i][n]
                        for s, n in enumerate(a)
                        if s != seat
                        for i, w in enumerate(weights)
                    )
                    for a in allowed
                ]
                top = max(scores)
                total = sum(math.exp(x - top) for x in scores)
                logs[name].append(scores[truth] - top - math.log(total))
    mean = {name: sum(values) / len(values) for name, values in logs.items()}
    assert len(logs["shipped"]) > 60
    assert mean["shipped"] > mean["harms"] + 0.1


def test_resampling_draws_the_true_nobles_more_often() -> None:
    state = medium_game(5, 40)
    seat = 0
    plain, rng = Rng(7), Rng(8)
    draw = japan.resample(state.determinize(seat, Rng(1)), seat, Rng(2))
    plainly = sum(state.determinize(seat, plain).nobles == state.nobles for _ in range(60))
    believing = sum(draw(rng).nobles == state.nobles for _ in range(60))
    assert len(consistent_nobles(state, seat)) == 3
    assert believing >= plainly + 10


def test_recruit_odds_favour_the_last_style_the_clan_has() -> None:
    stray = japan.STYLE_STRAY
    assert japan.recruit_odds((2, 2, 2)) == (stray, stray, 1.0)
    assert japan.recruit_odds((1, 1, 0)) == (stray, 1.0, stray)
    assert japan.recruit_odds((1, 0, 0)) == (1.0, stray, stray)


@pytest.mark.parametrize(("players", "moves"), [(2, 150), (3, 260), (4, 330)])
def test_resampled_games_agree_with_the_seat_and_read_nothing_else(
    players: int, moves: int
) -> None:
    state = medium_game(players + 20, moves, players)
    seat = state.to_move[0]
    scrambled = state.determinize(seat, Rng(5))
    draw = japan.resample(state.determinize(seat, Rng(1)), seat, Rng(2))
    other = japan.resample(scrambled.determinize(seat, Rng(3)), seat, Rng(2))
    for n in range(4):
        sample = draw(Rng(n))
        assert sample.view(seat) == state.view(seat)
        twin = other(Rng(n))
        assert twin.nobles == sample.nobles and twin.nsty == sample.nsty


def test_widening_adds_the_shortlist_moves_in_order_as_visits_grow() -> None:
    """``widen``: the root compares ``width + floor(widen * sqrt(visits))`` moves, the
    shortlist's best first; without it, ``width`` moves however many the visits."""
    state = medium_game(5, 62)
    seat = state.to_move[0]
    legal = state.legal_actions(seat)
    assert len(legal) > 6
    search = _Search(ISMCTSBot(width=2, widen=0.5), search_hooks(GAME), seat, random.Random(1))
    for n in range(16):  # after 16 passes: 2 + floor(0.5 * sqrt(15)) = 3 moves
        search.iterate(state.determinize(seat, Rng(n)))
    _, ranked = search.root_hint
    assert set(search.root.children) == set(ranked[:3])
    for n in range(16, 100):  # 2 + floor(0.5 * sqrt(99)) = 6
        search.iterate(state.determinize(seat, Rng(n)))
    assert set(search.root.children) == set(ranked[:6])
    narrow = _Search(ISMCTSBot(width=2), search_hooks(GAME), seat, random.Random(1))
    for n in range(100):
        narrow.iterate(state.determinize(seat, Rng(n)))
    assert set(narrow.root.children) == set(narrow.root_hint[1][:2])


def test_a_negative_widen_is_refused() -> None:
    with pytest.raises(ValueError, match="widen"):
        ISMCTSBot(widen=-1)


# -- the evaluation: every seat's chance as a Luce choice among the seats -------------------------
def test_with_two_players_the_evaluation_is_the_fitted_pairwise_model() -> None:
    """The weights were fitted on "mine minus my rival's" features: with two players the Luce
    choice between the two seats' rows is exactly that model, seat by seat."""
    from intrigue.bots.heuristics.valuation import per_seat_evaluation

    pairwise = per_seat_evaluation(japan.WEIGHTS, japan.features)
    checked = 0
    for seed in range(6):
        for moves in (0, 20, 60, 120):
            state = medium_game(seed, moves)
            if state.is_over:
                continue
            assert japan.evaluate(state) == pytest.approx(pairwise(state), abs=1e-12)
            checked += 1
    assert checked >= 20


def test_with_four_players_the_evaluation_stays_pairwise() -> None:
    """The Luce choice measured no better with four players (docs/bots.md)."""
    from intrigue.bots.heuristics.valuation import per_seat_evaluation

    pairwise = per_seat_evaluation(japan.WEIGHTS, japan.features)
    for seed in range(4):
        state = medium_game(seed, 40, 4)
        assert japan.evaluate(state) == pairwise(state)


def test_with_three_players_the_seats_chances_add_up_to_one() -> None:
    for seed in range(4):
        state = medium_game(seed, 40, 3)
        values = japan.evaluate(state)
        assert len(values) == 3
        assert sum((v + 1) / 2 for v in values) == pytest.approx(1.0)
        rows = japan.strengths(state)
        assert rows is not None
        strength = [sum(w * a for w, a in zip(japan.WEIGHTS, row, strict=True)) for row in rows]
        assert values.index(max(values)) == strength.index(max(strength))


def test_a_clan_gains_from_weakening_any_rival_not_only_the_strongest() -> None:
    """Three seats: taking Political Power from the weaker rival raises the seat's value,
    which the pairwise model (the lead over the strongest other Noble) does not see."""
    from intrigue.bots.heuristics.valuation import luce_evaluation

    weights = (1.0, 0.5)
    rows = {"mine": [5.0, 1.0], "leader": [8.0, 1.0], "weaker": [4.0, 1.0]}

    def evaluate(weaker: float) -> list[float]:
        table = [rows["mine"], rows["leader"], [weaker, 1.0]]
        return luce_evaluation(weights, lambda _state: table)(_Players(3))

    assert evaluate(2.0)[0] > evaluate(4.0)[0]
    assert evaluate(2.0)[1] > evaluate(4.0)[1]  # the leader gains too
    assert luce_evaluation(weights, lambda _state: None)(_Players(3)) == [0.0, 0.0, 0.0]


class _Players:
    def __init__(self, players: int) -> None:
        self.players = players
