"""Scoring at the end: powers, awards, honours and shames, tie-breaks (SJ-22, SJ-25, SJ-T13)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sj_helpers import army, clear, develop_to, new_game, random_game, samurai
from sj_invariants import check_invariants

from intrigue.games.shadows_over_japan.data import HOME, IS_CAPITAL
from intrigue.games.shadows_over_japan.rules import HONOURS, JapanState, _place_awards

ODA, TAKEDA, TOKUGAWA, DATE = range(4)


def sj_t13(state: JapanState) -> JapanState:
    """The table of SJ-T13, seats 0..3 backing Oda, Takeda, Tokugawa, Date."""
    # Oda: 3 armies (one occupying Takeda's Wakasa) + 4 samurai = 10; economy 14
    army(state, "omi", "oda")
    army(state, "mino", "oda")
    army(state, "wakasa", "oda", occupying=True)
    for key in ("omi", "mino", "ise", "owari"):
        samurai(state, key, "stone")
    for key in ("omi", "mino", "ise", "owari", "iga", "yamato", "kawachi"):
        develop_to(state, key, 2)
    # Tokugawa: 3 armies + 3 samurai = 9; economy 14
    for key in ("totomi", "suruga", "izu"):
        army(state, key, "tokugawa")
        samurai(state, key, "scissor")
    for key in ("totomi", "suruga", "izu", "mikawa", "shima", "kii", "awaji"):
        develop_to(state, key, 2)
    # Takeda: 3 armies + 3 samurai = 9; economy 10; lost Wakasa
    for key in ("kai", "shinano", "hida"):
        army(state, key, "takeda")
        samurai(state, key, "paper")
    for key in ("kai", "shinano", "hida", "kaga", "echizen"):
        develop_to(state, key, 2)
    # Date: 1 army + 2 samurai = 4; economy 6
    army(state, "dewa", "date")
    samurai(state, "dewa", "paper")
    samurai(state, "mutsu", "paper")
    for key in ("dewa", "mutsu", "rikuchu"):
        develop_to(state, key, 2)
    # Intelligence: Oda 2 + 1, Tokugawa 3 + 1, Takeda 1 + 0, Date 3 + 1
    state.intel_cap = [2, 1, 3, 3]
    state.intel_hand = [["INT-ODA-1"], [], ["INT-TAKEDA-1"], ["INT-TAKEDA-2"]]
    state.honours_won = [1, 1, 2, 2]
    return state


@pytest.fixture
def table() -> JapanState:
    return sj_t13(clear(new_game(4)))


def test_sj_t13_powers(table: JapanState) -> None:
    check_invariants(table)
    rows = {row["noble"]: row for row in table.scores()}
    assert [rows[n]["military"] for n in ("oda", "tokugawa", "takeda", "date")] == [10, 9, 9, 4]
    assert [rows[n]["economy"] for n in ("oda", "tokugawa", "takeda", "date")] == [14, 14, 10, 6]
    assert rows["oda"]["military_award"] == 3
    assert rows["tokugawa"]["military_award"] == rows["takeda"]["military_award"] == 1
    assert rows["oda"]["economy_award"] == rows["tokugawa"]["economy_award"] == 1
    assert rows["takeda"]["economy_award"] == rows["date"]["economy_award"] == 0
    assert (rows["oda"]["conquered"], rows["takeda"]["lost"], rows["takeda"]["shame"]) == (1, 1, 1)
    intel = [rows[n]["intelligence"] for n in ("oda", "tokugawa", "takeda", "date")]
    assert intel == [3, 4, 1, 4]
    political = [rows[n]["political"] for n in ("oda", "tokugawa", "takeda", "date")]
    assert political == [9, 8, 2, 6]


def test_sj_t13_oda_wins(table: JapanState) -> None:
    table._end_game(capped=False)
    assert table.outcome.winners == (0,)
    assert table.outcome.scores == (9.0, 2.0, 8.0, 6.0)
    final = table.view(3)["final"]
    assert final["nobles"] == ["oda", "takeda", "tokugawa", "date"]
    assert final["intelligence"][0] == ["INT-ODA-1"]
    assert [p["noble"] for p in table.view(3)["players"]] == ["oda", "takeda", "tokugawa", "date"]


def test_sj_t13_political_tie_goes_to_military(table: JapanState) -> None:
    table.honours_won[TOKUGAWA] = 3
    rows = {row["noble"]: row for row in table.scores()}
    assert rows["oda"]["political"] == rows["tokugawa"]["political"] == 9
    table._end_game(capped=False)
    assert table.outcome.winners == (0,)


def test_a_lost_capital_costs_three() -> None:
    state = clear(new_game(4))
    army(state, "dewa", "oda", occupying=True)
    rows = {row["noble"]: row for row in state.scores()}
    assert rows["date"]["lost"] == 1 and rows["date"]["shame"] == 3
    assert rows["oda"]["conquered"] == 1


def test_place_awards() -> None:
    assert _place_awards([10, 9, 9, 4]) == [3, 1, 1, 0]
    assert _place_awards([14, 14, 10, 6]) == [1, 1, 0, 0]
    assert _place_awards([5, 5, 5, 5]) == [1, 1, 1, 1]
    assert _place_awards([7, 0, 0, 0]) == [3, 1, 1, 1]


def test_gold_breaks_the_last_tie() -> None:
    state = clear(new_game(2))
    rows = {row["noble"]: row for row in state.scores()}
    assert rows["oda"]["political"] == rows["takeda"]["political"]
    state.gold[1], state.gold_supply = 1, 24
    state._end_game(capped=False)
    assert state.outcome.winners == (1,)


def test_a_complete_tie_is_shared() -> None:
    state = clear(new_game(2))
    state._end_game(capped=False)
    assert state.outcome.winners == (0, 1) and state.outcome.returns == (1.0, 1.0)


def test_military_breaks_a_political_tie_and_theft_swings_two() -> None:
    state = clear(new_game(2))
    develop_to(state, "kaga", 2)  # Takeda economy 2 ...
    army(state, "omi", "oda")  # ... Oda military 2
    state.honours_won[0] = 0
    rows = {row["noble"]: row for row in state.scores()}
    assert rows["oda"]["political"] == rows["takeda"]["political"]
    ended = state.clone()
    ended._end_game(capped=False)
    assert ended.outcome.winners == (0,)  # Oda's military 2 beats Takeda's 0
    state.intel_cap[0] -= 1
    state.intel_hand[1].append("INT-ODA-1")  # Takeda's supporter stole from Oda
    rows = {row["noble"]: row for row in state.scores()}
    assert rows["takeda"]["political"] == rows["oda"]["political"] + 2  # theft swings 2


def test_sj_25_only_backed_nobles_can_win() -> None:
    state = clear(new_game(2))
    state.honours_won[DATE] = 5  # unbacked Date tops the table
    state.honours_won[TAKEDA] = 1
    state._end_game(capped=False)
    assert state.outcome.winners == (1,)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), moves=st.integers(0, 400))
def test_scores_count_each_noble_as_its_measures_do(seed: int, players: int, moves: int) -> None:
    """`scores` (and the views) tally every Noble in one pass; each figure is what a count
    province by province gives, at random points of random games."""
    state = random_game(players, seed, moves)
    tallies = state.tallies()
    for n, row in enumerate(state.scores()):
        mine = [p for p in range(len(state.owner)) if state.owner[p] == n]
        lost = [p for p in range(len(state.owner)) if HOME[p] == n and state.owner[p] != n]
        assert tallies.provinces[n] == len(mine)
        assert row["economy"] == _measure_by_hand(state, "economy", n)
        assert row["military"] == _measure_by_hand(state, "military", n)
        assert row["conquered"] == _measure_by_hand(state, "conquered", n)
        assert row["lost"] == len(lost)
        assert row["shame"] == sum(3 if IS_CAPITAL[p] else 1 for p in lost)


def _measure_by_hand(state: Any, name: str, noble: int) -> int:
    """An Honour card's measure for one Noble, counted province by province (the oracle)."""
    provinces = [p for p in range(len(state.owner)) if state.owner[p] == noble]
    military = 2 * state.armies(noble) + sum(1 for p in provinces if state.sam[p] >= 0)
    economy = sum(state.dev[p] for p in provinces)
    return {
        "ninjas": sum(1 for p in provinces if state.nin[p] >= 0),
        "intelligence": state.intel_cap[noble],
        "armies": state.armies(noble),
        "samurai": sum(1 for p in provinces if state.sam[p] >= 0),
        "economy": economy,
        "military": military,
        "double": sum(1 for p in provinces if state.dev[p] >= 2),
        "power": economy + military,
        "discards": sum(1 for p in state.discard if HOME[p] == noble),
        "conquered": sum(1 for p in provinces if HOME[p] != noble),
    }[name]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), moves=st.integers(0, 400))
def test_every_honour_measure_counts_each_noble(seed: int, players: int, moves: int) -> None:
    """`measures` (all four Nobles from the map's tallies) agrees with a count province by
    province for every measure an Honour card names, at random points of random games."""
    state = random_game(players, seed, moves)
    for name in sorted({spec["measure"] for spec in HONOURS}):
        expected = [_measure_by_hand(state, name, n) for n in range(4)]
        assert state.measures(name) == expected, name
