"""Rulings this implementation adds to RULINGS Part 4 (SJ-29 onward, see the game's doc)."""

from __future__ import annotations

import pytest
from sj_helpers import army, clear, give_cards, legal, new_game, ninja, play

from intrigue.engine import IllegalAction
from intrigue.games.shadows_over_japan.data import INDEX
from intrigue.games.shadows_over_japan.rules import JapanState


@pytest.fixture
def state() -> JapanState:
    return clear(new_game(4))  # seat 0 backs Oda and acts first


def fund(state: JapanState, seat: int = 0) -> None:
    state.gold[seat] += 1
    state.gold_supply -= 1


def test_sj_29_no_march_into_your_own_nobles_occupation(state: JapanState) -> None:
    army(state, "etchu", "takeda", occupying=True)
    army(state, "hida", "takeda")
    ninja(state, "hida", 0, "stone", infiltrating=True)
    fund(state)
    assert "march hida etchu" not in legal(state)
    with pytest.raises(IllegalAction, match="is already occupied by"):
        play(state, 0, "march hida etchu")


def test_sj_30_substitution_scouts_nothing(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    ninja(state, "hida", 0, "paper")
    give_cards(state, 0, "hida", "kaga")  # Scout Hida, Scout Kaga (Takeda)
    play(state, 0, "substitute kaga hida swap")
    assert state.claimable == ()


def test_sj_33_the_action_step_ends_only_when_the_player_says_so(state: JapanState) -> None:
    ninja(state, "kaga", 0, "stone")
    fund(state)
    state.actions_left = 0
    assert legal(state) == {"extra", "end"}
    play(state, 0, "end")
    assert state.phase == "spend" and state.current == 0


def test_sj_40_liberation_is_not_a_conquest(state: JapanState) -> None:
    army(state, "etchu", "takeda", occupying=True)
    army(state, "echigo", "date")
    ninja(state, "echigo", 0, "stone", infiltrating=True)
    give_cards(state, 0, "sado")  # Conquest (Date)
    fund(state)
    play(state, 0, "march echigo etchu")
    assert state.owner[INDEX["etchu"]] == 3 and state.claimable == ()


def test_sj_41_you_may_rob_your_own_nobles_capital(state: JapanState) -> None:
    ninja(state, "omi", 0, "stone")
    before = state.intelligence(0)
    play(state, 0, "steal omi")
    assert state.intel_hand[0] == ["INT-ODA-1"] and state.intelligence(0) == before
    assert state.claimable == ()


def test_sj_41_a_conquered_capital_keeps_its_nobles_intelligence(state: JapanState) -> None:
    army(state, "kai", "date", occupying=True)
    ninja(state, "kai", 0, "stone")
    play(state, 0, "steal kai")
    assert state.intel_hand[0] == ["INT-TAKEDA-1"] and state.intel_cap[1] == 2


def test_sj_44_recruits_are_concealed_and_their_style_private(state: JapanState) -> None:
    give_cards(state, 0, "kaga")
    fund(state)
    play(state, 0, "end", "recruit kaga scissor")
    public = [e for e in state.events(1) if e["kind"].startswith("recruited")]
    assert public == [{"kind": "recruited", "seat": 0, "at": "kaga"}]
    private = state.events(0)[-1]
    assert private == {"kind": "recruited_style", "at": "kaga", "style": "scissor", "private": True}


def test_sj_39_buying_cards_needs_a_card_to_draw(state: JapanState) -> None:
    fund(state)
    play(state, 0, "end")
    assert "draw" in legal(state)
    state.discard.extend(state.deck)
    state.deck.clear()
    state.discard.clear()
    assert "draw" not in legal(state)


def test_sj_45_the_final_award_beats_the_cap() -> None:
    state = new_game(4, max_turns=12)
    while not state.is_over:
        seat = state.current
        state.apply(seat, "end")
        if state.phase == "spend":
            state.apply(seat, "end")
        while state.phase == "discard":
            state.apply(seat, str(state.legal_actions(seat)[0]))
    assert not state.outcome.capped and len(state.honour_log) == 6
