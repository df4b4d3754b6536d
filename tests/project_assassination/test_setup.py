"""Set-up, the coin for the first player, deck shuffles and options (PA-T01)."""

from collections import Counter

import pytest
from pa_helpers import P1, P2, legal, new

from intrigue.engine import InvalidOption, Rng
from intrigue.games.project_assassination import GAME
from intrigue.games.project_assassination.board import (
    COLLECTIBLE_DECK,
    ENEMY_DECK,
    ITEM_DECK,
)


def test_pa_t01_new_game():
    state = new()
    view = state.view(None)
    assert view["decks"] == {"item": 15, "collectible": 30, "enemy": 5, "enemy_bottom": []}
    assert sorted(view["obstacles"]) == ["b5", "c3", "e5", "f3"]
    assert [(e["cell"], e["kind"], e["hp"]) for e in view["enemies"]] == [
        ("d3", "grunt", 2),
        ("d5", "grunt", 2),
    ]
    assert view["loose"] == {"b4": "uzi", "c6": "boot", "d4": "sniper", "e2": "boot", "f4": "uzi"}
    for player in view["players"]:
        assert (player["hp"], player["vp"], player["boots"]) == (10, 0, 0)
        assert player["weapons"] == [None, None]
        assert player["pistol"] == {
            "kind": "pistol",
            "sight": False,
            "muzzle": False,
            "usable": True,
        }
    assert view["turn"]["actions_left"] == 2
    assert [p["cell"] for p in view["players"]] == ["a7", "g1"]


def test_player_1_draws_nothing_on_the_first_turn_player_2_may():
    state = new()
    assert state.to_move == (P1,)
    assert not {"draw item", "draw collectible"} & legal(state)
    state.apply(P1, "end")
    assert state.to_move == (P2,)
    assert {"draw item", "draw collectible"} <= legal(state)
    state.apply(P2, "end")
    state.apply(state.to_move[0], state.legal_actions(state.to_move[0])[0])  # placement
    assert state.to_move == (P1,) and "draw item" in legal(state)


def test_coin_flip_decides_player_1_from_the_seed():
    firsts = Counter(GAME.new(players=2, seed=s).first for s in range(60))
    assert set(firsts) == {0, 1}
    for seed in range(10):
        a, b = GAME.new(players=2, seed=seed), GAME.new(players=2, seed=seed)
        assert a.first == b.first and a.to_move == (a.first,)
        # Player 1 starts on spawn 1 (a7) and owns rendezvous point 1 (a1)
        assert a.view(None)["players"][a.first]["cell"] == "a7"
        assert a.view(None)["players"][a.first]["point"] == "a1"


def test_seat_1_may_be_player_1():
    state = new(first=1)
    assert state.to_move == (1,)
    assert state.view(0)["players"][1]["number"] == 1
    assert state.view(0)["players"][0]["spawn"] == "g1"


def draw_all(state, deck):
    return [deck.draw(state.rng) for _ in range(len(deck))]


def test_decks_are_shuffled_from_the_seed_and_hold_their_contents():
    orders = set()
    for seed in range(8):
        state = GAME.new(players=2, seed=seed)
        order = tuple(draw_all(state, state.coll_deck))
        again = GAME.new(players=2, seed=seed)
        assert tuple(draw_all(again, again.coll_deck)) == order
        orders.add(order)
    assert len(orders) == 8
    state = GAME.new(players=2, seed=3)
    assert sorted(draw_all(state, state.item_deck)) == sorted(ITEM_DECK)
    assert sorted(draw_all(state, state.coll_deck)) == sorted(COLLECTIBLE_DECK)
    assert sorted(draw_all(state, state.enemy_deck)) == sorted(ENEMY_DECK)


def test_every_unseen_card_is_equally_likely_to_come_next():
    firsts = Counter(GAME.new(players=2, seed=s).enemy_deck.draw(Rng(s)) for s in range(3000))
    assert set(firsts) == {"heavy", "medic", "boss"}
    assert 500 < firsts["boss"] < 700  # 1 in 5 (expected 600; 5 sigma is about 110)
    assert 1080 < firsts["heavy"] < 1320  # 2 in 5


def test_deck_options_fix_the_order_top_card_first():
    state = new(item_deck=["ambush", "cover"])
    state.apply(P1, "end")
    state.apply(P2, "draw item")
    assert state.reserve[P2] == ["ambush"]


def test_deck_orders_are_hidden_from_every_view():
    state = new()
    text = str(state.view(0)) + str(state.view(1)) + str(state.view(None))
    assert "pool" not in text and "drawn" not in text
    assert state.view(0) == {**state.view(1), "seat": 0}
    assert state.view(None)["decks"]["item"] == 15


@pytest.mark.parametrize(
    "options",
    [
        {"item_deck": ["obstacle"] * 15},
        {"enemy_deck": ["boss", "boss"]},
        {"coins": ["heads", "edge"]},
        {"first_player": 2},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidOption):
        GAME.new(players=2, seed=1, **options)
