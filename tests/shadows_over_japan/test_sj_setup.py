"""Set-up of board and players, in the seed's order (SJ-T01, SJ-2, SJ-13, SJ-26)."""

from __future__ import annotations

import pytest
from sj_helpers import GAME, legal, new_game, pv
from sj_invariants import check_invariants

from intrigue.engine import IllegalAction, InvalidOption
from intrigue.games.shadows_over_japan.data import CAPITAL_OF, INDEX, IS_CAPITAL, KEYS


def test_sj_t01_four_player_setup() -> None:
    state = new_game(4, seed=123)
    for cap in CAPITAL_OF:
        assert state.dev[cap] == 2 and state.sam[cap] >= 0 and state.army[cap] == state.owner[cap]
        assert state.intel_cap[state.owner[cap]] == 3
    others = [p for p in range(72) if not IS_CAPITAL[p]]
    assert sum(1 for p in others if state.dev[p] == 1 and state.sam[p] < 0) == 12
    assert sum(1 for p in others if state.dev[p] == 2 and state.sam[p] >= 0) == 4
    assert sum(1 for p in others if state.dev[p] or state.sam[p] >= 0) == 16
    assert len(state.honour_deck) + (state.honour_up >= 0) == 6
    for seat in range(4):
        assert len(state.ninjas[seat]) == 3 and len(state.hand[seat]) == 3
    assert len(state.discard) == 4 + 12 + 4 + 12
    assert len(state.deck) == 72 - 32 - 12
    assert all(s is None or s in ("stone", "scissor", "paper") for s in _samurai(state))
    view = state.view(None)
    assert (view["season"], view["year"], view["round"]) == ("summer", 1, 1)
    check_invariants(state)


def _samurai(state):
    return [p["samurai"] for p in state.view(None)["provinces"]]


@pytest.mark.parametrize(("players", "size"), [(2, 12), (3, 9), (4, 6)])
def test_honour_deck_size_by_player_count(players: int, size: int) -> None:
    state = new_game(players)
    assert len(state.honour_deck) + 1 == size  # the first card is already face up
    assert state.view(None)["honours"]["deck_size"] == size - 1
    assert len(state.discard) == 4 + 12 + 4 + 3 * players


def test_the_deck_option_fixes_the_setup_deal_in_the_seed_order() -> None:
    single = ["yamato", "iga", "ise", "owari", "kawachi", "izumi"]
    single += ["settsu", "tamba", "harima", "bizen", "bingo", "aki"]
    double = ["sado", "oki", "iki", "tsushima"]
    ninjas = ["kaga", "noto", "etchu", "echigo", "hida", "shinano"]
    hands = ["izu", "suruga", "sagami", "musashi", "kazusa", "shimosa"]
    state = new_game(2, deck=single + double + ninjas + hands)
    assert all(state.dev[INDEX[k]] == 1 for k in single)
    assert all(state.dev[INDEX[k]] == 2 and state.sam[INDEX[k]] >= 0 for k in double)
    assert sorted(KEYS[p] for p in state.ninjas[0]) == sorted(ninjas[:3])
    assert sorted(KEYS[p] for p in state.ninjas[1]) == sorted(ninjas[3:])
    assert [KEYS[c] for c in state.hand[0]] == hands[:3]
    assert [KEYS[c] for c in state.hand[1]] == hands[3:]


def test_capitals_cannot_be_in_the_deck_option() -> None:
    with pytest.raises(InvalidOption):
        GAME.new(players=2, seed=1, deck=["kai"])


def test_each_player_chooses_his_three_styles_secretly() -> None:
    state = GAME.new(players=2, seed=5, nobles=["oda", "date"], markers=["1", "2"])
    assert state.phase == "setup" and state.to_move == (0,)
    assert legal(state) == {"style stone", "style scissor", "style paper"}
    state.apply(0, "style stone")
    state.apply(0, "style stone")
    assert legal(state) == {"style scissor", "style paper"}  # only two of each style
    with pytest.raises(IllegalAction):
        state.apply(0, "style stone")
    first = state.setup_cards[0][0]
    assert pv(state.view(1), KEYS[first])["ninja"] == {
        "seat": 0,
        "revealed": False,
        "style": None,
        "infiltrating": False,
    }
    assert pv(state.view(0), KEYS[first])["ninja"]["style"] == "stone"
    # the samurai are face down until every ninja is placed
    assert "hidden" in _samurai(state)
    assert state.view(1)["samurai_supply"] is None
    state.apply(0, "style paper")
    assert state.to_move == (1,)
    for style in ("stone", "scissor", "paper"):
        state.apply(1, f"style {style}")
    assert state.phase == "actions" and "hidden" not in _samurai(state)
    assert len(state.hand[0]) == 3 and len(state.hand[1]) == 3


def test_nobles_and_markers_are_dealt_at_random_without_options() -> None:
    seen_nobles, seen_markers = set(), set()
    for seed in range(30):
        state = GAME.new(players=3, seed=seed)
        assert len(set(state.nobles)) == 3
        assert sorted(state.markers) == [1, 2, 3]
        seen_nobles.add(state.nobles)
        seen_markers.add(tuple(state.markers))
    assert len(seen_nobles) > 5 and len(seen_markers) > 3


def test_turn_markers_are_public_and_nobles_secret() -> None:
    state = new_game(3, markers=["2", "3", "1"])
    view = state.view(0)
    assert [p["marker"] for p in view["players"]] == [2, 3, 1]
    assert view["order"] == [2, 0, 1] and view["current"] == 2
    assert view["you"]["noble"] == "oda"
    assert [p["noble"] for p in view["players"]] == ["oda", None, None]
    assert state.view(None)["you"] is None


def test_intelligence_cards_are_separate_from_the_72_territory_cards() -> None:
    state = new_game(4)
    cards = state.deck + state.discard + [c for h in state.hand for c in h]
    assert sorted(cards) == list(range(72))
    assert state.intel_cap == [3, 3, 3, 3]
