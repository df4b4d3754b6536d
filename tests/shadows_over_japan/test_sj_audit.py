"""Gaps found in the audit against issue 5, RULINGS Part 4 and the seed, each with its rule."""

from __future__ import annotations

import re
from pathlib import Path

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

from intrigue.engine import IllegalAction
from intrigue.games.shadows_over_japan.data import (
    CARD_IDS,
    HOME,
    HONOUR_INDEX,
    INDEX,
    IS_CAPITAL,
    LAND,
    LANES,
    MISSION,
    MISSION_TYPES,
    NAMES,
    NOBLES,
    SEA,
    WATER,
)
from intrigue.games.shadows_over_japan.rules import NOBODY, JapanState

ODA, TAKEDA, TOKUGAWA, DATE = range(4)
DOC = Path(__file__).parents[2] / "docs" / "games" / "shadows-over-japan.md"


@pytest.fixture
def state() -> JapanState:
    return clear(new_game(4))  # seat 0 backs Oda and acts first


def fund(state: JapanState, seat: int = 0, amount: int = 1) -> None:
    state.gold[seat] += amount
    state.gold_supply -= amount


def finish_turn(state: JapanState) -> None:
    seat = state.current
    for _ in range(2):
        if state.phase in ("actions", "spend") and state.current == seat:
            state.apply(seat, "end")
    while state.phase == "discard":
        state.apply(seat, str(state.legal_actions(seat)[0]))


# -- the map and the cards, as the doc lists them -----------------------------------------------
def test_the_docs_map_table_is_the_data_file() -> None:
    """Every row of the doc's map table (issue 5: 'the map listed') matches data/map.json."""
    rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in DOC.read_text(encoding="utf-8").splitlines()
        if re.match(r"\| [A-Z]{3}-\d+ \|", line)
    ]
    assert len(rows) == 72
    for card, province, noble, capital, land, water, lanes, mission in rows:
        key = re.search(r"`([a-z-]+)`", province).group(1)  # type: ignore[union-attr]
        p = INDEX[key]
        assert CARD_IDS[p] == card and province.startswith(NAMES[p])
        assert NOBLES[HOME[p]] == noble.lower() and IS_CAPITAL[p] == (capital == "★")
        listed = [] if land == "—" else [k.strip() for k in land.split(",")]
        assert listed == [list(INDEX)[q] for q in LAND[p]]
        assert ([] if water == "—" else water.split(", ")) == list(SEA[p])
        assert ([] if lanes == "—" else lanes.split(", ")) == [list(INDEX)[q] for q in LANES[p]]
        assert MISSION_TYPES[MISSION[p]] == mission.lower()
    water_rows = [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in DOC.read_text(encoding="utf-8").splitlines()
        if re.match(r"\| W\d\d \|", line)
    ]
    assert [[w["id"], w["name"], ", ".join(w["provinces"])] for w in WATER] == water_rows


def test_oda_and_tokugawa_missions_follow_the_rulings_sequence() -> None:
    """RULINGS §4.4: non-capital cards in circuit order are S, Sab, S, D, S, Sab, A, S, D,
    Sab, I, S, D, Sab, A, S, C for Oda and for Tokugawa."""
    short = {"scout": "S", "sabotage": "Sab", "duel": "D", "assassinate": "A"}
    short |= {"infiltrate": "I", "conquest": "C"}
    expected = ["S", "Sab", "S", "D", "S", "Sab", "A", "S", "D", "Sab", "I", "S", "D"]
    expected += ["Sab", "A", "S", "C"]
    for noble in (ODA, TOKUGAWA):
        cards = [p for p in range(72) if HOME[p] == noble and not IS_CAPITAL[p]]
        assert [short[MISSION_TYPES[MISSION[p]]] for p in cards] == expected


# -- SJ-3: Intelligence is no territory card -----------------------------------------------------
def test_sj_3_intelligence_does_not_count_toward_the_hand_limit(state: JapanState) -> None:
    ninja(state, "kai", 0, "paper")
    play(state, 0, "steal kai")
    give_cards(state, 0, "kaga", "noto", "etchu", "hida", "mino", "iga")
    assert len(state.hand[0]) == 6 and state.intel_hand[0] == ["INT-TAKEDA-1"]
    play(state, 0, "end", "end")  # step 5 draws a seventh territory card
    assert state.phase == "discard"
    assert legal(state) == {f"discard {list(INDEX)[c]}" for c in state.hand[0]}
    state.apply(0, str(state.legal_actions(0)[0]))
    assert state.intel_hand[0] == ["INT-TAKEDA-1"] and len(state.hand[0]) == 6
    check_invariants(state)


def test_sj_3_intelligence_cannot_be_spent_on_recruits(state: JapanState) -> None:
    ninja(state, "kai", 0, "paper")
    play(state, 0, "steal kai", "seppuku kai")
    fund(state)
    play(state, 0, "end")
    assert not any(a.startswith("recruit") for a in legal(state))


# -- SJ-17: what gold buys when ------------------------------------------------------------------
def test_sj_17_extra_actions_only_in_the_action_step(state: JapanState) -> None:
    give_cards(state, 0, "kaga")
    fund(state, amount=3)
    acts = legal(state)
    assert "extra" in acts and not {"draw", "initiative 1"} & acts
    assert not any(a.startswith("recruit") for a in acts)
    with pytest.raises(IllegalAction):
        play(state, 0, "draw")
    play(state, 0, "end")
    assert "extra" not in legal(state) and "draw" in legal(state)
    with pytest.raises(IllegalAction):
        play(state, 0, "extra")


def test_actions_need_actions_left(state: JapanState) -> None:
    ninja(state, "kai", 0, "paper")
    develop_to(state, "kai", 1)
    state.actions_left = 0
    assert legal(state) == {"end"}
    for text in ("steal kai", "sabotage kai", "seppuku kai", "move kai shinano"):
        with pytest.raises(IllegalAction):
            play(state, 0, text)


# -- SJ-18: recruiting among guards ----------------------------------------------------------------
def test_sj_18_a_recruit_neither_fights_nor_infiltrates(state: JapanState) -> None:
    army(state, "kai", "takeda")
    samurai(state, "kai", "stone")
    give_cards(state, 0, "kai")
    fund(state)
    play(state, 0, "end", "recruit kai scissor")
    kai = INDEX["kai"]
    assert state.nin[kai] == 0 and state.sam[kai] >= 0 and state.army[kai] == TAKEDA
    assert not state.infil[kai] and not state.nrev[kai]
    check_invariants(state)


# -- SJ-12: liberation kills the samurai of the occupied province --------------------------------
def test_sj_12_liberation_kills_samurai_and_clears_developments(state: JapanState) -> None:
    army(state, "etchu", "takeda", occupying=True)
    develop_to(state, "etchu", 2)
    samurai(state, "etchu", "paper")
    army(state, "echigo", "date")
    ninja(state, "echigo", 0, "stone", infiltrating=True)
    fund(state)
    play(state, 0, "march echigo etchu")
    etchu = INDEX["etchu"]
    assert state.sam[etchu] == NOBODY and state.dev[etchu] == 0
    assert state.owner[etchu] == DATE and state.army[etchu] == DATE and state.occ[etchu] == NOBODY
    check_invariants(state)


# -- SJ-5 / SJ-24: a buried Honour card still counts as awarded -----------------------------------
def test_sj_5_a_buried_honour_counts_as_awarded() -> None:
    state = new_game(4, honours=["show-of-force", "humble"])
    for _ in range(8):  # Summer and Winter of year 1
        finish_turn(state)
    assert state.honour_log[0] == (HONOUR_INDEX["show-of-force"], NOBODY)
    assert sum(state.honours_won) == 0 and state.season == "summer" and state.year == 2
    assert state.honour_up == HONOUR_INDEX["humble"]
    assert state.view(1)["honours"]["awarded"] == [{"honour": "show-of-force", "noble": None}]


def test_sj_24_fewest_honours_can_go_to_an_unbacked_noble() -> None:
    state = clear(new_game(2))  # Oda and Takeda are backed
    army(state, "omi", "oda")
    samurai(state, "kai", "stone")
    develop_to(state, "dewa", 1)  # Date's economy is higher than Tokugawa's
    assert state.honour_winner(HONOUR_INDEX["monks-favour"]) == TOKUGAWA


# -- scoring: economy breaks a tie of Political Power and Military -------------------------------
def test_economy_breaks_a_tie_of_political_power_and_military() -> None:
    state = clear(new_game(2))
    develop_to(state, "kaga", 2)  # Takeda economy 2 ...
    develop_to(state, "mino", 1)  # ... Oda economy 1: Takeda +3, Oda +1
    state.honours_won[ODA] = 2
    rows = {row["noble"]: row for row in state.scores()}
    # honours 2 + military 1 (all tied) + economy 1 + Intelligence 3, and 0 + 1 + 3 + 3
    assert rows["oda"]["political"] == rows["takeda"]["political"] == 7
    assert rows["oda"]["military"] == rows["takeda"]["military"]
    fund(state, 0, 5)  # gold would favour Oda, but economy comes first
    state._end_game(capped=False)
    assert state.outcome.winners == (1,)


# -- the view: the pool a clan has off the board -------------------------------------------
def test_each_clans_pool_size_is_public(state: JapanState) -> None:
    ninja(state, "kaga", 1, "stone")
    ninja(state, "noto", 1, "paper")
    view = state.view(0)
    assert [p["ninjas"] for p in view["players"]] == [0, 2, 0, 0]
    assert [p["pool"] for p in view["players"]] == [6, 4, 6, 6]
    assert view["you"]["pool"] == {"stone": 2, "scissor": 2, "paper": 2}
    assert pv(view, "kaga")["ninja"]["style"] is None


# -- rulings added in the audit (docs: SJ-47, SJ-48) ---------------------------------------------
def developed_counts(state: JapanState) -> list[tuple[int, int]]:
    return [
        (e["seat"], len(e["provinces"])) for e in state.events(None) if e["kind"] == "developed"
    ]


def test_sj_47_economic_boom_develops_four_until_its_award() -> None:
    state = new_game(2, honours=["economic-boom", "humble"])
    for _ in range(4):  # Summer and Winter of year 1
        finish_turn(state)
    # Summer: both turns develop 4; Winter: the first player 4, the awarding player 3.
    assert developed_counts(state) == [(0, 4), (1, 4), (0, 4), (1, 3)]
    assert state.honour_log[0][0] == HONOUR_INDEX["economic-boom"]


def test_sj_48_end_game_awards_have_no_minimum() -> None:
    state = clear(new_game(4))
    rows = state.scores()
    assert [r["military_award"] for r in rows] == [1, 1, 1, 1]
    assert [r["economy_award"] for r in rows] == [1, 1, 1, 1]
    samurai(state, "kai", "stone")
    samurai(state, "hida", "stone")
    samurai(state, "kaga", "stone")
    rows = state.scores()
    assert [r["military_award"] for r in rows] == [1, 3, 1, 1]


def test_sj_11_an_army_may_march_in_the_spending_step_and_claim(state: JapanState) -> None:
    army(state, "hida", "takeda")
    ninja(state, "hida", 0, "stone", infiltrating=True)
    give_cards(state, 0, "sado")  # Conquest (Date)
    fund(state)
    play(state, 0, "end")
    assert state.phase == "spend" and "march hida etchu" in legal(state)
    play(state, 0, "march hida etchu")
    assert state.occ[INDEX["etchu"]] == TAKEDA and state.actions_left == 0
    assert "claim sado" in legal(state)  # the window opens in the spending step too (SJ-34)
    play(state, 0, "claim sado")
    assert state.gold[0] == 1 and state.phase == "spend"
