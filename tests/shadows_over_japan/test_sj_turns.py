"""The turn: seasons and Honour timing, spending gold, drawing, developing (SJ-4, SJ-5, SJ-17..20,
SJ-27, SJ-T11, SJ-T12), and the game-length cap."""

from __future__ import annotations

import pytest
from sj_helpers import clear, give_cards, legal, new_game, ninja, stack_deck
from sj_invariants import check_invariants

from intrigue.engine import IllegalAction
from intrigue.games.shadows_over_japan.data import HONOUR_INDEX, INDEX, KEYS
from intrigue.games.shadows_over_japan.rules import JapanState


def finish_turn(state: JapanState) -> None:
    """End the current player's actions and spending, discarding the first cards if asked."""
    seat = state.current
    for _ in range(2):
        if state.phase in ("actions", "spend") and state.current == seat:
            state.apply(seat, "end")
    while state.phase == "discard":
        state.apply(seat, str(state.legal_actions(seat)[0]))


def test_sj_t12_timeline_four_players() -> None:
    state = new_game(4, seed=11)
    log = []
    while not state.is_over:
        played = state.round + 1
        log.append((played, state.season, state.year, state.turn_i, state.honour_up))
        mark = state.log_length
        finish_turn(state)
        for event in state.events(None, since=mark):
            if event["kind"] in ("honour_revealed", "honour_awarded"):
                log.append((event["kind"], played))
    assert log[0] == (1, "summer", 1, 0, log[0][4]) and log[0][4] >= 0
    assert ("honour_awarded", 2) in log  # awarded in round 2 by the last player
    awards = [entry for entry in log if entry[0] == "honour_awarded"]
    reveals = [entry for entry in log if entry[0] == "honour_revealed"]
    assert len(awards) == 6 and len(reveals) == 5  # the first was revealed at set-up
    assert state.round == 11 and state.season == "winter" and state.year == 6
    assert [e["kind"] for e in state.events(None)[-3:]] == [
        "honour_awarded",
        "revealed",
        "game_over",
    ]
    assert not state.outcome.capped


def test_sj_4_the_first_turn_does_not_flip_the_season() -> None:
    state = new_game(2)
    assert state.season == "summer" and state.year == 1
    assert not [e for e in state.events(None) if e["kind"] == "season"]
    finish_turn(state)
    finish_turn(state)
    assert state.season == "winter" and state.year == 1
    finish_turn(state)
    finish_turn(state)
    assert state.season == "summer" and state.year == 2


def test_sj_5_the_last_player_skips_steps_4_to_6_after_the_final_award() -> None:
    state = new_game(4, seed=3)
    while state.round < 11 or state.turn_i < 3:
        finish_turn(state)
    last = state.current
    hand = len(state.hand[last])
    deck = len(state.deck)
    state.apply(last, "end")
    assert state.is_over and len(state.hand[last]) == hand and len(state.deck) == deck


def test_steps_5_and_6_draw_one_card_then_develop_three() -> None:
    state = clear(new_game(2))
    stack_deck(state, "musashi", "kaga", "noto", "etchu")
    hand = list(state.hand[0])
    dev = {k: state.dev[INDEX[k]] for k in ("kaga", "noto", "etchu")}
    finish_turn(state)
    assert state.hand[0] == [*hand, INDEX["musashi"]]
    for key, before in dev.items():
        assert state.dev[INDEX[key]] == before + 1 or before == 2
        assert INDEX[key] in state.discard
    developed = [e for e in state.events(None) if e["kind"] == "developed"][-1]
    assert [d["province"] for d in developed["provinces"]] == ["kaga", "noto", "etchu"]


def test_economic_boom_develops_a_fourth_province() -> None:
    state = new_game(2, honours=["economic-boom"])
    assert state.honour_up == HONOUR_INDEX["economic-boom"]
    finish_turn(state)
    developed = [e for e in state.events(None) if e["kind"] == "developed"][-1]
    assert len(developed["provinces"]) == 4


def test_sj_19_hand_limit_discard_after_drawing() -> None:
    state = clear(new_game(2))
    give_cards(state, 0, "kaga", "noto", "etchu", "hida", "mino", "omi")  # 6 cards
    state.apply(0, "end")
    state.apply(0, "end")  # step 5 draws a seventh card
    assert state.phase == "discard" and state.current == 0
    assert legal(state) == {f"discard {KEYS[c]}" for c in state.hand[0]}
    state.apply(0, "discard kaga")
    assert len(state.hand[0]) == 6 and INDEX["kaga"] in state.discard
    assert state.current == 1 and state.phase == "actions"
    assert state.view(1)["discard"][-4] == "kaga"  # discarded face up, then 3 developments


def test_buying_three_cards_then_discarding_the_excess() -> None:
    state = clear(new_game(2))
    give_cards(state, 0, "kaga", "noto", "etchu", "hida")
    state.gold[0], state.gold_supply = 1, 24
    state.apply(0, "end")
    assert "draw" in legal(state)
    state.apply(0, "draw")
    assert len(state.hand[0]) == 7 and state.phase == "discard"
    state.apply(0, str(state.legal_actions(0)[0]))
    assert state.phase == "spend" and state.gold == [0, 0]


def test_sj_t11_recruiting_a_ninja() -> None:
    state = clear(new_game(2))
    give_cards(state, 0, "kaga")
    state.gold[0], state.gold_supply = 1, 24
    with pytest.raises(IllegalAction):
        state.apply(0, "recruit kaga stone")  # only in the spending step
    state.apply(0, "end")
    assert {"recruit kaga stone", "recruit kaga scissor", "recruit kaga paper"} <= legal(state)
    state.apply(0, "recruit kaga paper")
    kaga = INDEX["kaga"]
    assert state.nin[kaga] == 0 and not state.nrev[kaga] and state.nsty[kaga] == 2
    assert kaga in state.discard and state.gold[0] == 0
    assert not any(a.startswith("move") for a in legal(state))  # it cannot act this turn
    check_invariants(state)


def test_recruiting_needs_an_empty_province_and_a_pooled_ninja() -> None:
    state = clear(new_game(2))
    give_cards(state, 0, "kaga", "noto")
    ninja(state, "kaga", 1, "stone")
    state.gold[0], state.gold_supply = 1, 24
    state.apply(0, "end")
    assert not any(a.startswith("recruit kaga") for a in legal(state))
    with pytest.raises(IllegalAction, match="already"):
        state.apply(0, "recruit kaga stone")
    for key in ("sado", "oki", "iki", "tsushima", "awaji", "izu"):
        ninja(state, key, 0, ["stone", "scissor", "paper"][len(state.ninjas[0]) % 3])
    assert len(state.ninjas[0]) == 6
    assert not any(a.startswith("recruit") for a in legal(state))  # at most 6 ninjas


def test_sj_27_taking_the_initiative() -> None:
    state = new_game(3, markers=["1", "2", "3"])
    finish_turn(state)
    finish_turn(state)
    state.gold[2], state.gold_supply = 1, 24
    state.apply(2, "end")
    assert {"initiative 0", "initiative 1"} <= legal(state)
    state.apply(2, "initiative 0")
    assert state.markers == [3, 2, 1] and state.gold[2] == 0
    assert state.current == 2 and state.phase == "spend"  # this round's order is unchanged
    finish_turn(state)
    assert state.order == (2, 1, 0) and state.current == 2


def test_initiative_only_toward_a_lower_number() -> None:
    state = new_game(2, markers=["1", "2"])
    state.gold[0], state.gold_supply = 1, 24
    state.apply(0, "end")
    assert "initiative 1" not in legal(state)
    with pytest.raises(IllegalAction, match="lower"):
        state.apply(0, "initiative 1")


def test_gold_comes_from_a_25_coin_supply() -> None:
    state = clear(new_game(2))
    state.gold[1], state.gold_supply = 25, 0
    ninja(state, "kaga", 0, "stone")
    give_cards(state, 0, "hida")  # Scout Hida
    state.apply(0, "move kaga hida")
    state.apply(0, "claim hida")
    assert state.gold[0] == 0  # the supply is empty: nothing is paid


def test_max_turns_caps_the_game_in_seasons() -> None:
    state = new_game(4, max_turns=2)
    while not state.is_over:
        finish_turn(state)
    assert state.outcome.capped and state.round == 2
    assert "season cap" in state.outcome.reason
    assert state.honours_won[0] + sum(state.honours_won[1:]) <= 1


def test_the_deck_is_reshuffled_from_the_discard_pile_when_empty() -> None:
    state = new_game(2)
    state.discard.extend(state.deck)
    state.deck.clear()
    finish_turn(state)
    assert [e for e in state.events(None) if e["kind"] == "reshuffled"]
    check_invariants(state)
