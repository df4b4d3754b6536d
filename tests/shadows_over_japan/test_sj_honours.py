"""The twelve Honour cards, their ties and eligibility (SJ-21, SJ-23, SJ-24, SJ-T14, SJ-T15)."""

from __future__ import annotations

import pytest
from sj_helpers import army, clear, develop_to, new_game, ninja, samurai
from sj_invariants import check_invariants

from intrigue.games.shadows_over_japan.data import HONOUR_INDEX, HONOUR_KEYS, INDEX
from intrigue.games.shadows_over_japan.rules import NOBODY, JapanState

ODA, TAKEDA, TOKUGAWA, DATE = range(4)


@pytest.fixture
def state() -> JapanState:
    return clear(new_game(4))


def winner(state: JapanState, honour: str) -> int:
    return state.honour_winner(HONOUR_INDEX[honour])


def test_all_twelve_honours_exist() -> None:
    assert len(HONOUR_KEYS) == 12 == len(set(HONOUR_KEYS))


def test_safe_roads_fewest_ninjas_in_their_counties(state: JapanState) -> None:
    for key, seat in (("kaga", 0), ("omi", 1), ("totomi", 2), ("dewa", 3), ("mino", 0)):
        ninja(state, key, seat, "stone")
    develop_to(state, "musashi", 1)  # Date has the higher economy but is alone in last place
    ninja(state, "hida", 1, "paper")
    # ninjas in counties: Oda 2 (Omi, Mino), Takeda 2, Tokugawa 1, Date 1 -> tie Tok/Date
    assert winner(state, "safe-roads") == TOKUGAWA  # lower economy (0 < 1)


def test_scholarship_counts_intelligence_at_the_capital_only(state: JapanState) -> None:
    state.intel_cap = [3, 2, 2, 1]
    state.intel_hand[1] = ["INT-TAKEDA-1", "INT-TOKUGAWA-1", "INT-DATE-1"]
    assert winner(state, "scholarship") == ODA


def test_imperialist_most_armies_occupying_forces_included(state: JapanState) -> None:
    army(state, "kai", "takeda")
    army(state, "omi", "oda")
    army(state, "dewa", "takeda", occupying=True)
    assert winner(state, "imperialist") == TAKEDA


def test_bushido_most_samurai(state: JapanState) -> None:
    samurai(state, "izu", "stone")
    samurai(state, "kii", "stone")
    samurai(state, "kaga", "paper")
    assert winner(state, "bushido") == TOKUGAWA


def test_economic_boom_strongest_economy(state: JapanState) -> None:
    develop_to(state, "musashi", 2)
    develop_to(state, "mino", 1)
    assert winner(state, "economic-boom") == DATE


def test_arms_race_strongest_military(state: JapanState) -> None:
    army(state, "kai", "takeda")  # 2
    samurai(state, "mino", "stone")
    samurai(state, "omi", "stone")
    samurai(state, "ise", "stone")  # Oda 3
    assert winner(state, "arms-race") == ODA


def test_master_of_craft_most_double_developments(state: JapanState) -> None:
    develop_to(state, "kaga", 2)
    develop_to(state, "hida", 2)
    develop_to(state, "mino", 2)
    develop_to(state, "omi", 1)
    assert winner(state, "master-of-craft") == TAKEDA


def test_princess_hand_economy_plus_military(state: JapanState) -> None:
    develop_to(state, "kaga", 2)  # Takeda 2
    army(state, "dewa", "date")
    samurai(state, "dewa", "stone")  # Date 3
    assert winner(state, "princess-hand") == DATE


def test_champion_of_light_most_cards_in_the_discard_pile(state: JapanState) -> None:
    state.deck.extend(state.discard)
    state.discard = [INDEX[k] for k in ("kaga", "hida", "omi", "dewa", "shinano")]
    assert winner(state, "champion-of-light") == TAKEDA


def test_champion_of_light_shuffles_the_discard_pile_into_the_deck_on_reveal() -> None:
    state = new_game(2, honours=["humble", "champion-of-light"])
    discards = len(state.discard)
    deck = len(state.deck)
    while state.honour_up != HONOUR_INDEX["champion-of-light"]:
        seat = state.current
        state.apply(seat, "end")
        state.apply(seat, "end")
        while state.phase == "discard":
            state.apply(seat, str(state.legal_actions(seat)[0]))
    assert state.discard == [] and len(state.deck) > deck
    assert discards > 0
    check_invariants(state)


def test_humble_weakest_economy_all_nobles_eligible(state: JapanState) -> None:
    for key in ("omi", "kai", "dewa"):
        develop_to(state, key, 1)
    assert winner(state, "humble") == TOKUGAWA


def test_show_of_force_most_conquests_then_fewest_losses(state: JapanState) -> None:
    army(state, "mino", "takeda", occupying=True)  # Takeda +1, Oda -1
    army(state, "kaga", "oda", occupying=True)  # Oda +1, Takeda -1
    army(state, "etchu", "oda", occupying=True)  # Oda +2
    assert winner(state, "show-of-force") == ODA
    army(state, "izu", "takeda", occupying=True)  # Takeda +2, Tokugawa -1
    # tied at 2 conquests: Oda lost 1, Takeda lost 1 -> lower economy (both 0) -> random
    assert winner(state, "show-of-force") in (ODA, TAKEDA)
    army(state, "noto", "date", occupying=True)
    army(state, "hida", "date", occupying=True)  # Takeda now lost 2
    assert winner(state, "show-of-force") in (ODA, DATE)


def test_monks_favour_weakest_military(state: JapanState) -> None:
    for key in ("omi", "kai", "totomi"):
        samurai(state, key, "stone")
    assert winner(state, "monks-favour") == DATE


def test_sj_t14_ties_go_to_the_lower_economy(state: JapanState) -> None:
    for key in ("totomi", "suruga", "izu"):
        army(state, key, "tokugawa")
    for key in ("totomi", "suruga", "izu"):
        samurai(state, key, "stone")
    for key in ("kai", "shinano", "hida"):
        army(state, key, "takeda")
    for key in ("kai", "shinano", "hida"):
        samurai(state, key, "stone")
    for key in ("totomi", "suruga", "izu", "mikawa", "shima", "kii", "awaji"):
        develop_to(state, key, 2)  # Tokugawa economy 14
    for key in ("kai", "shinano", "hida", "kaga", "echizen"):
        develop_to(state, key, 2)  # Takeda economy 10
    assert state.measures("military")[TOKUGAWA] == state.measures("military")[TAKEDA] == 9
    assert winner(state, "arms-race") == TAKEDA


def test_sj_t15_show_of_force_without_conquest_is_buried(state: JapanState) -> None:
    assert winner(state, "show-of-force") == NOBODY


def test_most_honours_need_a_value_above_zero(state: JapanState) -> None:
    for honour in ("imperialist", "bushido", "economic-boom", "arms-race", "master-of-craft"):
        assert winner(state, honour) == NOBODY


def test_a_full_tie_is_drawn_at_random_or_by_the_option() -> None:
    seen = set()
    for seed in range(12):
        state = clear(new_game(4, seed=seed))
        seen.add(winner(state, "humble"))
    assert seen == {ODA, TAKEDA, TOKUGAWA, DATE}
    state = clear(new_game(4, honour_ties=["date", "oda"]))
    assert winner(state, "humble") == DATE and winner(state, "monks-favour") == ODA
    assert state.tie_results == [DATE, ODA]


def test_an_awarded_honour_is_public_and_counted() -> None:
    state = new_game(2, honours=["humble"])
    for _ in range(4):
        seat = state.current
        state.apply(seat, "end")
        if state.phase == "spend":
            state.apply(seat, "end")
        while state.phase == "discard":
            state.apply(seat, str(state.legal_actions(seat)[0]))
    awarded = state.view(0)["honours"]["awarded"]
    assert len(awarded) == 1 and awarded[0]["honour"] == "humble"
    assert sum(state.honours_won) == 1
