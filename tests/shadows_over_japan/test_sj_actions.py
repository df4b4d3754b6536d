"""Ninja actions: moves, fights, infiltration, armies, theft, sabotage, Substitution, seppuku.

Seats 0..3 back Oda, Takeda, Tokugawa and Date and play in that order; seat 0 is to act with
six actions on an empty board laid out by each test.
"""

from __future__ import annotations

import pytest
from sj_helpers import (
    army,
    clear,
    develop_to,
    give_cards,
    legal,
    new_game,
    ninja,
    play,
    pv,
    samurai,
)
from sj_invariants import check_invariants

from intrigue.engine import IllegalAction, InvalidAction
from intrigue.games.shadows_over_japan.data import INDEX, NOBLE_INDEX, STYLE_INDEX
from intrigue.games.shadows_over_japan.rules import JapanState

ODA, TAKEDA, TOKUGAWA, DATE = range(4)


@pytest.fixture
def state() -> JapanState:
    return clear(new_game(4))


def at(key: str) -> int:
    return INDEX[key]


def give_gold(state: JapanState, seat: int, amount: int) -> None:
    state.gold[seat] += amount
    state.gold_supply -= amount


# -- moving ---------------------------------------------------------------------------------
def test_move_by_land_costs_one_action(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    play(state, 0, "move kaga hida")
    assert state.nin[at("hida")] == 0 and state.nin[at("kaga")] == -1
    assert state.actions_left == 5 and not state.nrev[at("hida")]
    check_invariants(state)


def test_move_across_one_water_region(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    moves = {a for a in legal(state) if a.startswith("move kaga")}
    assert moves == {f"move kaga {k}" for k in ("echizen", "hida", "etchu", "noto", "wakasa")}
    play(state, 0, "move kaga wakasa")  # W03, not by land
    assert state.nin[at("wakasa")] == 0 and state.actions_left == 5
    with pytest.raises(InvalidAction):
        play(state, 0, "move wakasa sado")  # Sado is not on W03 or W04: no such move


def test_ninjas_never_stack_even_friendly(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    ninja(state, "noto", 0, "paper")
    assert "move kaga noto" not in legal(state)
    with pytest.raises(IllegalAction, match="never stack"):
        play(state, 0, "move kaga noto")
    assert {"substitute kaga noto", "substitute kaga noto swap"} <= legal(state)


def test_a_move_needs_enough_actions_left(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    samurai(state, "hida", "scissor")
    state.actions_left = 1
    assert "move kaga hida" not in legal(state)
    with pytest.raises(IllegalAction, match="costs 2"):
        play(state, 0, "move kaga hida")


# -- fights (SJ-T04, SJ-T05, SJ-8, SJ-9) ---------------------------------------------------
def test_sj_t04_winning_a_fight_against_a_samurai(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    samurai(state, "hida", "scissor")
    give_cards(state, 0, "echizen")  # HRK-2 Echizen: Duel (Takeda)
    play(state, 0, "move kaga hida")
    assert state.actions_left == 4
    assert state.sam[at("hida")] == -1 and state.sam_supply[STYLE_INDEX["scissor"]] == 8
    assert state.nin[at("hida")] == 0 and state.nrev[at("hida")]
    assert "claim echizen" in legal(state)
    play(state, 0, "claim echizen")
    assert state.gold[0] == 1 and at("echizen") in state.discard
    check_invariants(state)


def test_sj_t05_a_tie_sends_the_mover_back_revealed(state: JapanState) -> None:
    ninja(state, "kaga", 0, "paper")
    samurai(state, "hida", "paper")
    play(state, 0, "move kaga hida")
    assert state.nin[at("kaga")] == 0 and state.nrev[at("kaga")]
    assert state.sam[at("hida")] == STYLE_INDEX["paper"] and state.actions_left == 4
    event = state.events(None)[-1]
    assert event["kind"] == "move" and event["result"] == "tie"


def test_losing_a_fight_returns_the_ninja_to_its_pool(state: JapanState) -> None:
    ninja(state, "kaga", 0, "scissor")
    samurai(state, "hida", "stone")
    play(state, 0, "move kaga hida")
    assert state.nin[at("kaga")] == -1 and state.nin[at("hida")] == -1
    assert state.pool[0][STYLE_INDEX["scissor"]] == 2 and state.ninjas[0] == []
    check_invariants(state)


def test_fighting_another_players_ninja(state: JapanState) -> None:
    ninja(state, "kaga", 0, "paper")
    ninja(state, "hida", 1, "stone")
    give_cards(state, 0, "tajima")  # SIN-3 Tajima: Assassinate (Takeda)
    play(state, 0, "move kaga hida")
    assert state.nin[at("hida")] == 0 and state.ninjas[1] == []
    assert state.pool[1][STYLE_INDEX["stone"]] == 2
    fight = state.events(None)[-1]["fights"][0]
    assert fight == {
        "against": "ninja",
        "enemy": 1,
        "style": "paper",
        "enemy_style": "stone",
        "result": "won",
    }
    assert "claim tajima" in legal(state)


def test_samurai_are_fought_first_then_the_ninja(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    samurai(state, "hida", "scissor")
    ninja(state, "hida", 1, "stone")
    play(state, 0, "move kaga hida")
    results = [f["result"] for f in state.events(None)[-1]["fights"]]
    assert results == ["won", "tie"]
    assert state.sam[at("hida")] == -1  # the samurai died before the tie
    assert state.nin[at("kaga")] == 0 and state.nin[at("hida")] == 1 and state.nrev[at("hida")]


def test_sj_9_samurai_of_your_own_noble_are_enemies_too(state: JapanState) -> None:
    ninja(state, "omi", 0, "stone")  # seat 0 backs Oda; Mino is Oda's
    samurai(state, "mino", "paper")
    play(state, 0, "move omi mino")
    assert state.nin[at("mino")] == -1 and state.pool[0][STYLE_INDEX["stone"]] == 2


def test_revealed_ninjas_stay_revealed_after_moving(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone", revealed=True)
    play(state, 0, "move kaga noto")
    assert state.nrev[at("noto")]
    assert pv(state.view(2), "noto")["ninja"]["style"] == "stone"


# -- infiltration (SJ-T06, SJ-7) ------------------------------------------------------------
def test_sj_t06_a_revealed_ninja_may_not_enter_an_army(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone", revealed=True)
    army(state, "hida", "takeda")
    assert "move kaga hida" not in legal(state)
    with pytest.raises(IllegalAction, match="revealed"):
        play(state, 0, "move kaga hida")


def test_sj_t06_concealed_ninja_fights_then_infiltrates(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    army(state, "hida", "takeda")
    samurai(state, "hida", "scissor")
    give_cards(state, 0, "iwami")  # SIN-7 Iwami: Infiltrate (Takeda)
    play(state, 0, "move kaga hida")
    assert state.actions_left == 4
    assert state.infil[at("hida")] and state.nrev[at("hida")]
    assert pv(state.view(None), "hida")["ninja"]["infiltrating"]
    assert "claim iwami" in legal(state)


def test_infiltration_alone_costs_two_actions(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    army(state, "hida", "oda")  # even your own lord's army
    play(state, 0, "move kaga hida")
    assert state.actions_left == 4 and state.infil[at("hida")] and not state.nrev[at("hida")]


def test_occupying_forces_are_not_infiltrated(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone", revealed=True)
    army(state, "hida", "date", occupying=True)
    play(state, 0, "move kaga hida")
    assert state.actions_left == 5 and not state.infil[at("hida")]


def test_per_interaction_cost_option() -> None:
    state = clear(new_game(4, interaction_cost="per_interaction"))
    ninja(state, "kaga", 0, "stone")
    army(state, "hida", "takeda")
    samurai(state, "hida", "scissor")
    play(state, 0, "move kaga hida")
    assert state.actions_left == 3


def test_defeating_the_infiltrator_takes_its_place(state: JapanState) -> None:
    ninja(state, "kaga", 0, "paper")
    army(state, "hida", "takeda")
    ninja(state, "hida", 1, "stone", infiltrating=True)
    play(state, 0, "move kaga hida")
    assert state.nin[at("hida")] == 0 and state.infil[at("hida")]


def test_a_bounced_infiltrator_keeps_its_army(state: JapanState) -> None:
    army(state, "kaga", "takeda")
    ninja(state, "kaga", 0, "paper", infiltrating=True)
    samurai(state, "hida", "paper")
    play(state, 0, "move kaga hida")
    assert state.nin[at("kaga")] == 0 and state.infil[at("kaga")] and state.nrev[at("kaga")]


# -- marching armies (SJ-T07, SJ-11, SJ-12) ---------------------------------------------------
def test_sj_t07_conquest_then_liberation(state: JapanState) -> None:
    army(state, "hida", "takeda")
    ninja(state, "hida", 0, "stone", infiltrating=True)
    develop_to(state, "etchu", 2)
    samurai(state, "etchu", "paper")
    ninja(state, "etchu", 3, "scissor")
    give_gold(state, 0, 1)
    give_cards(state, 0, "hoki")  # a Duel card: not matched by a march
    actions = state.actions_left
    play(state, 0, "march hida etchu")
    etchu = at("etchu")
    assert state.actions_left == actions and state.gold[0] == 0  # 1 gold, no action
    assert state.nin[etchu] == 0 and state.ninjas[3] == [] and state.sam[etchu] == -1
    assert state.dev[etchu] == 0 and state.occ[etchu] == TAKEDA and state.owner[etchu] == TAKEDA
    assert state.army[etchu] == -1 and not state.infil[etchu]
    assert state.tallies().conquered[TAKEDA] == 1 and state.tallies().lost[DATE] == 1
    assert not any(a.startswith("march") for a in legal(state))
    check_invariants(state)
    # later, a Date army from Echigo liberates Etchu
    play(state, 0, "move etchu noto")
    army(state, "echigo", "date")
    ninja(state, "echigo", 0, "paper", infiltrating=True)
    give_gold(state, 0, 1)
    play(state, 0, "march echigo etchu")
    assert state.occ[etchu] == -1 and state.owner[etchu] == DATE and state.army[etchu] == DATE
    assert state.army_supply[TAKEDA] == 5 and state.infil[etchu]
    assert state.tallies().conquered[TAKEDA] == 0 and state.tallies().lost[DATE] == 0
    check_invariants(state)


def test_a_third_noble_replaces_an_occupier(state: JapanState) -> None:
    army(state, "etchu", "takeda", occupying=True)
    army(state, "noto", "oda")
    ninja(state, "noto", 0, "stone", infiltrating=True)
    give_gold(state, 0, 1)
    give_cards(state, 0, "kawachi")
    play(state, 0, "march noto etchu")
    etchu = at("etchu")
    assert state.occ[etchu] == ODA and state.owner[etchu] == ODA
    assert state.army_supply[TAKEDA] == 5
    assert state.tallies().conquered[ODA] == 1 and state.tallies().lost[DATE] == 1


def test_conquest_mission_counts_against_the_owner_before_the_march(state: JapanState) -> None:
    army(state, "hida", "takeda")
    ninja(state, "hida", 0, "stone", infiltrating=True)
    give_gold(state, 0, 1)
    give_cards(state, 0, "sado")  # HRK-7 Sado: Conquest (Date)
    play(state, 0, "march hida etchu")
    assert "claim sado" in legal(state)


def test_an_army_moving_at_home_spares_its_own_samurai(state: JapanState) -> None:
    army(state, "hida", "takeda")
    ninja(state, "hida", 0, "stone", infiltrating=True)
    samurai(state, "kaga", "paper")
    develop_to(state, "kaga", 2)
    ninja(state, "kaga", 1, "stone")
    give_gold(state, 0, 1)
    play(state, 0, "march hida kaga")
    kaga = at("kaga")
    assert state.sam[kaga] == STYLE_INDEX["paper"] and state.dev[kaga] == 2
    assert state.nin[kaga] == 0 and state.ninjas[1] == []  # ninjas die even at home
    assert state.army[kaga] == TAKEDA and state.infil[kaga] and state.moved[kaga]
    assert not any(a.startswith("march kaga") for a in legal(state))  # once a season


def test_armies_may_not_enter_other_armies(state: JapanState) -> None:
    army(state, "hida", "takeda")
    ninja(state, "hida", 0, "stone", infiltrating=True)
    army(state, "kaga", "takeda")
    army(state, "etchu", "date")
    give_gold(state, 0, 1)
    marches = {a for a in legal(state) if a.startswith("march")}
    assert "march hida kaga" not in marches and "march hida etchu" not in marches
    assert "march hida mino" in marches
    with pytest.raises(IllegalAction, match="army already"):
        play(state, 0, "march hida etchu")


def test_armies_cross_water_only_along_lanes(state: JapanState) -> None:
    army(state, "iyo", "tokugawa")
    ninja(state, "iyo", 0, "stone", infiltrating=True)
    give_gold(state, 0, 1)
    marches = {a.split()[2] for a in legal(state) if a.startswith("march")}
    assert marches == {"sanuki", "awa-shikoku", "tosa", "bungo", "bingo"}
    with pytest.raises(InvalidAction):
        play(state, 0, "march iyo aki")  # across water but no lane: no such march


def test_marching_needs_gold_and_an_infiltrator(state: JapanState) -> None:
    army(state, "hida", "takeda")
    ninja(state, "hida", 0, "stone", infiltrating=False)  # standing there, not infiltrating
    give_gold(state, 0, 1)
    assert not any(a.startswith("march") for a in legal(state))
    state.infil[at("hida")] = True
    state.gold[0], state.gold_supply = 0, state.gold_supply + 1
    with pytest.raises(IllegalAction, match="gold"):
        play(state, 0, "march hida mino")


def test_army_moves_reset_each_season(state: JapanState) -> None:
    army(state, "hida", "takeda")
    ninja(state, "hida", 0, "stone", infiltrating=True)
    give_gold(state, 0, 2)
    play(state, 0, "march hida shinano")
    assert not any(a.startswith("march") for a in legal(state))
    play(state, 0, "end", "end")  # the spending step: still marked as moved
    for seat in (1, 2, 3):
        play(state, seat, "end", "end")
        while state.phase == "discard":
            state.apply(seat, str(state.legal_actions(seat)[0]))
    assert state.current == 0 and state.season == "winter"
    assert any(a.startswith("march shinano") for a in legal(state))


# -- stealing, sabotage, seppuku, extra actions ----------------------------------------------
def test_stealing_intelligence_from_an_undefended_capital(state: JapanState) -> None:
    ninja(state, "kai", 0, "paper")
    give_cards(state, 0, "kai")  # TKD-9 Kai: Espionage (Takeda)
    assert "steal kai" in legal(state)
    play(state, 0, "steal kai")
    assert state.intel_cap[TAKEDA] == 2 and state.intel_hand[0] == ["INT-TAKEDA-1"]
    assert state.nrev[at("kai")] and state.actions_left == 5
    assert "claim kai" in legal(state)
    assert "steal kai" not in legal(state)  # revealed now
    assert state.view(3)["players"][0]["intelligence"] == ["INT-TAKEDA-1"]
    check_invariants(state)


def test_a_defended_capital_cannot_be_robbed(state: JapanState) -> None:
    ninja(state, "kai", 0, "paper")
    samurai(state, "kai", "stone")
    assert "steal kai" not in legal(state)
    with pytest.raises(IllegalAction, match="defended"):
        play(state, 0, "steal kai")
    state.sam_supply[state.sam[at("kai")]] += 1
    state.sam[at("kai")] = -1
    army(state, "dewa", "date")
    ninja(state, "dewa", 0, "stone")
    assert "steal dewa" not in legal(state) and "steal kai" in legal(state)


def test_an_occupying_force_does_not_defend(state: JapanState) -> None:
    army(state, "dewa", "takeda", occupying=True)
    ninja(state, "dewa", 0, "stone")
    assert "steal dewa" in legal(state)
    play(state, 0, "steal dewa")
    assert state.intel_hand[0] == ["INT-DATE-1"]


def test_sabotage_an_undefended_development(state: JapanState) -> None:
    ninja(state, "musashi", 0, "stone", revealed=True)
    develop_to(state, "musashi", 2)
    give_cards(state, 0, "musashi")  # TKD-11 Musashi: Sabotage (Date)
    play(state, 0, "sabotage musashi")
    assert state.dev[at("musashi")] == 1 and state.dev_supply[DATE] == 20 - 1
    assert "claim musashi" in legal(state)
    samurai(state, "musashi", "paper")
    assert "sabotage musashi" not in legal(state)
    check_invariants(state)


def test_seppuku_returns_the_ninja_to_its_pool(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    play(state, 0, "seppuku kaga")
    assert state.ninjas[0] == [] and state.pool[0] == [2, 2, 2] and state.actions_left == 5


def test_buying_an_extra_action(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    give_gold(state, 0, 2)
    state.actions_left = 0
    assert "move kaga hida" not in legal(state) and "extra" in legal(state)
    play(state, 0, "extra", "extra")
    assert state.actions_left == 2 and state.gold[0] == 0 and state.gold_supply == 25
    play(state, 0, "move kaga hida")


# -- Substitution (SJ-T09, SJ-10) ----------------------------------------------------------
@pytest.mark.parametrize("swap", [False, True])
def test_sj_t09_substitution(state: JapanState, swap: bool) -> None:
    ninja(state, "kaga", 0, "stone")
    ninja(state, "noto", 0, "paper", revealed=True)
    army(state, "noto", "date")
    state.infil[at("noto")] = True
    play(state, 0, "substitute kaga noto" + (" swap" if swap else ""))
    kaga, noto = at("kaga"), at("noto")
    assert not state.nrev[kaga] and not state.nrev[noto] and state.actions_left == 5
    styles = (state.nsty[kaga], state.nsty[noto])
    assert styles == ((2, 0) if swap else (0, 2))
    assert state.infil[noto]  # the infiltrator stays in place
    public = state.view(1)
    assert pv(public, "kaga")["ninja"]["style"] is None
    assert pv(public, "noto")["ninja"]["style"] is None
    assert state.events(None)[-1] == {
        "kind": "substituted",
        "seat": 0,
        "frm": "kaga",
        "to": "noto",
    }


def test_substitution_needs_two_own_ninjas(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    ninja(state, "noto", 1, "paper")
    with pytest.raises(IllegalAction, match="own ninjas"):
        play(state, 0, "substitute kaga noto")


def test_noble_index_order() -> None:
    assert [NOBLE_INDEX[k] for k in ("oda", "takeda", "tokugawa", "date")] == [0, 1, 2, 3]
