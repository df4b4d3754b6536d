"""The Shadows over Japan heuristic: legal, blind to what its seat cannot see, sensible, and
clearly stronger than random play."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import intrigue
from intrigue.bots import make_bot
from intrigue.bots.heuristic import HeuristicBot, policy_for
from intrigue.bots.heuristics.shadows_over_japan import choose
from intrigue.bots.match import bot_move, play_match
from intrigue.engine import Rng
from intrigue.lab.arena import run_arena

sys.path.insert(0, str(Path(__file__).parents[1] / "shadows_over_japan"))
from sj_helpers import army, clear, develop_to, give_cards, new_game, ninja, samurai

SJ = "shadows-over-japan"
GAME = intrigue.load(SJ)


def test_the_heuristic_is_registered() -> None:
    assert policy_for(SJ) is choose


@pytest.mark.parametrize("players", [2, 3, 4])
def test_only_legal_actions_over_whole_games(players: int) -> None:
    """Heuristic seats (and random ones) play whole games; every choice is legal."""
    names = ["heuristic", "random", "heuristic", "heuristic"][:players]
    bots = [make_bot(name) for name in names]
    state = GAME.new(players=players, seed=players, max_turns=2 * (16 - 3 * players))
    rng = Rng(players)
    steps = 0
    while not state.is_over:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        action = bot_move(bots[seat], state, seat, rng)
        assert action in legal
        state.apply(seat, action)
        steps += 1
    assert steps > 50 and state.outcome is not None


def test_a_full_game_between_heuristics_ends_by_the_last_honour() -> None:
    state = play_match(SJ, [HeuristicBot(), HeuristicBot()], seed=5, options={"max_turns": 40})
    assert state.is_over and not state.outcome.capped
    assert len(state.honour_log) == 12


def test_decisions_depend_only_on_the_view() -> None:
    """Scrambling what the seat cannot see (a determinization) changes no decision."""
    rng = random.Random(1)
    state = GAME.new(players=3, seed=8, max_turns=8)
    checked = 0
    while not state.is_over:
        seat = state.to_move[0]
        if rng.random() < 0.1:
            scrambled = state.determinize(seat, Rng(rng.getrandbits(32)))
            assert bot_move(HeuristicBot(), state, seat, Rng(3)) == bot_move(
                HeuristicBot(), scrambled, seat, Rng(3)
            )
            checked += 1
        state.apply(seat, bot_move(HeuristicBot(), state, seat, Rng(rng.getrandbits(32))))
    assert checked > 10


def decide(state) -> str:
    seat = state.current
    return str(choose(state.view(seat), state.legal_actions(seat), Rng(0)))


def test_it_claims_a_completed_mission() -> None:
    state = clear(new_game(4))  # seat 0 backs Oda
    ninja(state, "musashi", 0, "stone")
    develop_to(state, "musashi", 1)
    give_cards(state, 0, "musashi")  # Sabotage (Date)
    state.apply(0, "sabotage musashi")
    assert decide(state) == "claim musashi"


def test_it_steals_from_an_undefended_rival_capital_but_not_its_own() -> None:
    state = clear(new_game(4))
    ninja(state, "kai", 0, "paper")
    assert decide(state) == "steal kai"
    state = clear(new_game(4))
    ninja(state, "omi", 0, "paper")  # Oda's own capital: robbing it gains nothing
    assert decide(state) != "steal omi"


def test_it_sabotages_rivals_and_spares_its_own_noble() -> None:
    state = clear(new_game(4))
    ninja(state, "musashi", 0, "stone")
    develop_to(state, "musashi", 2)
    assert decide(state) == "sabotage musashi"
    state = clear(new_game(4))
    ninja(state, "mino", 0, "stone")
    develop_to(state, "mino", 2)
    assert not decide(state).startswith("sabotage")


def test_it_attacks_a_samurai_it_beats_and_avoids_one_that_beats_it() -> None:
    state = clear(new_game(4))
    ninja(state, "kaga", 0, "stone")
    samurai(state, "hida", "scissor")  # Takeda's: stone beats scissor
    assert decide(state) == "move kaga hida"
    state = clear(new_game(4))
    ninja(state, "kaga", 0, "scissor")
    samurai(state, "hida", "stone")
    assert decide(state) != "move kaga hida"


def test_it_marches_its_own_nobles_army_into_a_rival_province() -> None:
    state = clear(new_game(4))
    army(state, "mino", "oda")
    ninja(state, "mino", 0, "stone", infiltrating=True)
    develop_to(state, "hida", 2)
    state.gold[0], state.gold_supply = 1, 24
    assert decide(state) in {f"march mino {k}" for k in ("hida", "shinano", "echizen", "mikawa")}


def test_it_recruits_on_a_card_it_cannot_claim() -> None:
    state = clear(new_game(4))
    give_cards(state, 0, "mino", "kaga")  # Oda's own card (unclaimable) and a Takeda one
    state.gold[0], state.gold_supply = 1, 24
    state.apply(0, "end")
    assert decide(state).startswith("recruit mino")


def test_it_beats_the_random_bot_clearly() -> None:
    """30 seeded two-player games, seats alternating (measured: 27 wins of 30)."""
    result = run_arena(SJ, ["heuristic", "random"], 30, players=2, options={"max_turns": 8})
    wins = result.by_bot["heuristic"].wins
    assert result.games == 30 and wins >= 21, wins
    assert result.by_bot["heuristic"].to_json()["ci95"][0] > 0.5


@given(
    st.integers(0, 200),
    st.frozensets(st.integers(0, 200), max_size=30),
)
def test_distance_is_the_nearest_other_target(p: int, targets: frozenset[int]) -> None:
    """Walking out nearest first finds what the minimum over every other target gives
    (capped at FAR: no target, or none nearer)."""
    from intrigue.bots.heuristics.shadows_over_japan import DIST, FAR, NP, _distance

    p %= NP
    targets = frozenset(t % NP for t in targets)
    expected = min((DIST[p][t] for t in targets if t != p), default=FAR)
    assert _distance(p, targets) == expected
