"""The development ladder with supply limits (SJ-T02, SJ-T03, SJ-20) and the open-neutral
variant (SJ-37)."""

from __future__ import annotations

import pytest
from sj_helpers import army, clear, develop_to, new_game, pv, samurai
from sj_invariants import check_invariants

from intrigue.games.shadows_over_japan.data import INDEX, STYLE_INDEX
from intrigue.games.shadows_over_japan.rules import JapanState

DATE, TAKEDA = 3, 1
P = INDEX["iwaki"]  # a Date province


@pytest.fixture
def state() -> JapanState:
    return clear(new_game(4, samurai=["paper"] * 30))


def rung(state: JapanState, p: int = P) -> tuple[int, bool, bool]:
    return (state.dev[p], state.sam[p] >= 0, state.army[p] >= 0)


def test_sj_t02_zero_to_one(state: JapanState) -> None:
    assert state.develop(P) == "development"
    assert rung(state) == (1, False, False) and state.dev_supply[DATE] == 19


def test_sj_t02_one_to_two_with_a_face_up_samurai(state: JapanState) -> None:
    supply = list(state.sam_supply)
    develop_to(state, "iwaki", 1)
    state.develop(P)
    assert rung(state) == (2, True, False)
    assert pv(state.view(None), "iwaki")["samurai"] in ("stone", "scissor", "paper")
    assert sum(state.sam_supply) == sum(supply) - 1


def test_sj_t02_two_gains_a_samurai(state: JapanState) -> None:
    develop_to(state, "iwaki", 2)
    state.develop(P)
    assert rung(state) == (2, True, False)


def test_sj_t02_two_and_samurai_gains_an_army_of_the_owner(state: JapanState) -> None:
    develop_to(state, "iwaki", 2)
    samurai(state, "iwaki", "stone")
    state.develop(P)
    assert rung(state) == (2, True, True) and state.army[P] == DATE
    assert state.army_supply[DATE] == 4


def test_sj_t02_two_and_army_gains_a_samurai(state: JapanState) -> None:
    develop_to(state, "iwaki", 2)
    army(state, "iwaki", "date")
    state.develop(P)
    assert rung(state) == (2, True, True)


def test_sj_t02_full_is_unchanged(state: JapanState) -> None:
    develop_to(state, "iwaki", 2)
    samurai(state, "iwaki", "stone")
    army(state, "iwaki", "date")
    before = (list(state.dev_supply), list(state.sam_supply), list(state.army_supply))
    assert state.develop(P) == "none"
    assert rung(state) == (2, True, True)
    assert (state.dev_supply, state.sam_supply, state.army_supply) == before


def test_sj_t03_no_army_in_supply_means_no_change(state: JapanState) -> None:
    mino = INDEX["mino"]
    develop_to(state, "mino", 2)
    samurai(state, "mino", "stone")
    for key in ("omi", "ise", "owari", "iga", "yamato"):
        army(state, key, "oda")
    assert state.army_supply[0] == 0
    assert state.develop(mino) == "none"
    assert rung(state, mino) == (2, True, False)
    check_invariants(state)


def test_sj_t03_no_samurai_in_supply_still_adds_the_development(state: JapanState) -> None:
    state.sam_supply = [0, 0, 0]
    develop_to(state, "iwaki", 1)
    assert state.develop(P) == "development"
    assert rung(state) == (2, False, False)


def test_no_development_token_left(state: JapanState) -> None:
    state.dev_supply[DATE] = 0
    develop_to(state, "iwaki", 0)
    assert state.develop(P) == "none" and state.dev[P] == 0


def test_a_sabotaged_province_with_a_samurai_climbs_back(state: JapanState) -> None:
    develop_to(state, "iwaki", 1)
    samurai(state, "iwaki", "stone")
    state.develop(P)
    assert rung(state) == (2, True, False) and state.sam[P] == STYLE_INDEX["stone"]


def test_sj_20_occupied_provinces_develop_for_the_occupier(state: JapanState) -> None:
    army(state, "iwaki", "takeda", occupying=True)
    develop_to(state, "iwaki", 2)
    samurai(state, "iwaki", "stone")
    state.develop(P)
    # the occupying force is not the rung's army: a normal Takeda army joins it
    assert state.army[P] == TAKEDA and state.occ[P] == TAKEDA and state.army_supply[TAKEDA] == 3
    check_invariants(state)


def test_samurai_option_fixes_the_drawn_styles() -> None:
    state = clear(new_game(2, samurai=["stone"] * 20 + ["scissor"]))
    develop_to(state, "iwaki", 1)
    state.develop(P)
    assert state.sam[P] in (0, 1)  # the option queue is partly used up by set-up


def test_open_neutral_variant_announces_and_freezes_unbacked_nobles() -> None:
    state = clear(new_game(3, neutral="open"))
    assert state.view(0)["unbacked"] == ["date"]
    assert state.develop(P) == "dormant" and state.dev[P] == 0
    assert state.develop(INDEX["kaga"]) == "development"
    assert {"kind": "neutral", "nobles": ["date"]} in state.events(None)


def test_hidden_neutral_is_the_default() -> None:
    state = new_game(3)
    assert state.view(0)["unbacked"] is None
