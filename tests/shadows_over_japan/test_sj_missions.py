"""Missions on territory cards (SJ-28, SJ-T10) and the 'Rival' variant (SJ-36)."""

from __future__ import annotations

import pytest
from sj_helpers import army, clear, develop_to, give_cards, legal, new_game, ninja, play, samurai

from intrigue.engine import IllegalAction
from intrigue.games.shadows_over_japan.data import INDEX
from intrigue.games.shadows_over_japan.rules import JapanState


@pytest.fixture
def state() -> JapanState:
    return clear(new_game(4))  # seat 0 backs Oda


def test_sj_t10_never_against_your_own_noble(state: JapanState) -> None:
    ninja(state, "yamato", 0, "stone")
    develop_to(state, "yamato", 1)
    give_cards(state, 0, "yamato")  # KIN-2 Yamato: Sabotage (Oda)
    play(state, 0, "sabotage yamato")
    assert state.claimable == () and "claim yamato" not in legal(state)
    with pytest.raises(IllegalAction):
        play(state, 0, "claim yamato")
    assert state.events(1)[-1]["kind"] == "sabotaged"  # nothing public about the refusal


def test_sj_t10_sabotage_mission_pays_one_gold(state: JapanState) -> None:
    ninja(state, "musashi", 0, "stone")
    develop_to(state, "musashi", 1)
    give_cards(state, 0, "musashi")  # TKD-11 Musashi: Sabotage (Date)
    play(state, 0, "sabotage musashi", "claim musashi")
    assert state.gold[0] == 1 and INDEX["musashi"] not in state.hand[0]
    assert state.discard[-1] == INDEX["musashi"]
    assert state.view(2)["players"][0]["ruled_out"] == ["date"]


def test_sj_t10_one_action_completes_one_mission(state: JapanState) -> None:
    ninja(state, "musashi", 0, "stone")
    develop_to(state, "musashi", 1)
    give_cards(state, 0, "musashi", "hitachi")  # both Sabotage (Date)
    play(state, 0, "sabotage musashi")
    assert {"claim musashi", "claim hitachi"} <= legal(state)
    play(state, 0, "claim hitachi")
    assert "claim musashi" not in legal(state) and state.gold[0] == 1


def test_scout_and_duel_from_one_move_pay_once(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    samurai(state, "hida", "scissor")
    give_cards(state, 0, "hida", "hoki")  # Scout Hida, Duel (Takeda)
    play(state, 0, "move kaga hida")
    assert {"claim hida", "claim hoki"} <= legal(state)
    play(state, 0, "claim hoki")
    assert state.claimable == ()


def test_a_claim_must_follow_the_action_at_once(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    give_cards(state, 0, "hida")
    play(state, 0, "move kaga hida")
    assert "claim hida" in legal(state)
    play(state, 0, "move hida kaga")
    assert "claim hida" not in legal(state)


def test_a_bounced_move_scouts_nothing(state: JapanState) -> None:
    ninja(state, "kaga", 0, "paper")
    samurai(state, "hida", "paper")
    give_cards(state, 0, "hida")
    play(state, 0, "move kaga hida")
    assert state.claimable == ()


def test_each_mission_type_is_recognised(state: JapanState) -> None:
    # Infiltrate (Takeda): Iwami; Conquest (Date): Sado; Espionage (Takeda): Kai
    ninja(state, "kaga", 0, "stone")
    army(state, "hida", "takeda")
    give_cards(state, 0, "iwami", "sado", "kai")
    play(state, 0, "move kaga hida")
    assert state.claimable == (INDEX["iwami"],)
    play(state, 0, "claim iwami")
    state.gold[0] += 1
    state.gold_supply -= 1
    play(state, 0, "march hida etchu")
    assert state.claimable == (INDEX["sado"],)
    ninja(state, "kai", 0, "scissor")
    play(state, 0, "steal kai")
    assert state.claimable == (INDEX["kai"],)


def test_missions_count_against_the_sticker_after_a_conquest(state: JapanState) -> None:
    army(state, "etchu", "takeda", occupying=True)
    ninja(state, "noto", 0, "stone")
    develop_to(state, "etchu", 1)
    give_cards(state, 0, "musashi")  # Sabotage (Date): Etchu is Takeda's now
    play(state, 0, "move noto etchu", "sabotage etchu")
    assert state.claimable == ()


def test_rival_missions_turn_against_the_rival() -> None:
    state = clear(new_game(4, missions="rival"))  # Oda's rival is Takeda
    ninja(state, "kaga", 0, "stone")
    develop_to(state, "kaga", 1)
    give_cards(state, 0, "yamato")  # Oda's card: Sabotage against Takeda
    play(state, 0, "move kaga noto", "move noto kaga", "sabotage kaga")
    assert "claim yamato" in legal(state)
    view = state.view(0)["you"]["hand"][0]
    assert (view["noble"], view["mission"], view["against"]) == ("oda", "sabotage", "takeda")


def test_rival_missions_forbid_claims_against_your_own_noble() -> None:
    state = clear(new_game(4, missions="rival"))
    ninja(state, "mino", 0, "stone")
    develop_to(state, "mino", 1)
    give_cards(state, 0, "kaga")  # Takeda's card: Scout Kaga, against Oda in this variant
    play(state, 0, "move mino hida", "move hida kaga")
    assert state.claimable == ()
