"""The acceptance scenarios MM-S1..MM-S6 of RULINGS §1.6 (the seed's section 5 worked example).

The seed's players #1..#5 are seats 0..4. The mockup's seating cycle 2 -> 5 -> 1 -> 4 -> 3 is
``seating=[1, 4, 0, 3, 2]``.
"""

from __future__ import annotations

import pytest
from mm_helpers import (
    QUIET,
    choose_targets,
    colours,
    draft,
    harms,
    new_game,
    place_all,
    play_night,
    quiet_nights,
)

from intrigue.engine import IllegalAction, InvalidAction
from intrigue.games.masquerade_murder.rules import MurderState

MOCKUP_SEATING = (1, 4, 0, 3, 2)  # #2 -> #5 -> #1 -> #4 -> #3
# Night 1: #2 (seat 1) holds the Ace, so he starts the night-2 draft and takes the Ace again.
MOCKUP_FIRST_CARDS = ("two", "ace", "jack", "queen", "king")
# Night 3 draft of the mockup: #2 Joker, #5 Ace, #1 King, #4 Queen, #3 two; the Jack is left.
MOCKUP_PICKS = {1: "joker", 4: "ace", 0: "king", 3: "queen", 2: "two"}
# Final placement: #5 a1 (variant B: b1), #3 c1, #2 swaps onto c1 moving #3 to e3, #4 e4, #1 d1.
MOCKUP_SWAP = ("c1", "e3")

VARIANT_A = ("seductress", "assassin", "duke", "constable", "thug")  # MM-S2
VARIANT_B = ("duke", "assassin", "thug", "constable", "seductress")  # MM-S3


def mockup_night_three(roles: tuple[str, ...]) -> MurderState:
    """Nights 1 and 2 quiet, #2 holding the Ace in night 2; night 3 in its draft phase."""
    state = new_game(roles, seating=MOCKUP_SEATING, first_cards=MOCKUP_FIRST_CARDS)
    play_night(state)  # night 1: dealt, no draft
    play_night(state, picks={1: "ace"})
    assert state.view(None)["nights"][-1]["cards"]["1"] == "ace"
    choose_targets(state, {})
    assert state.night == 3 and state.phase == "draft"
    return state


def test_mm_s1_mockup_draft_and_placement_order() -> None:
    state = mockup_night_three(VARIANT_A)
    assert state.view(None)["draft"]["drawers"] == [1, 4, 0, 3, 2]
    assert draft(state, MOCKUP_PICKS) == [1, 4, 0, 3, 2]
    placement = state.view(None)["placement"]
    assert placement["extra"] == "jack"
    assert placement["joker"] == 1
    assert placement["order"] == [4, 2, 1, 3, 0]  # #5 (A), #3 (2), #2 (Joker in J), #4, #1
    assert place_all(state, QUIET) == [4, 2, 1, 3, 0]
    # #5 starts the night-4 draft, which then passes along the seating cycle.
    choose_targets(state, {})
    assert state.night == 4
    assert state.view(None)["draft"]["drawers"] == [4, 0, 3, 2, 1]
    assert state.to_move == (4,)


def play_mockup_revelation(
    roles: tuple[str, ...], targets: dict[int, int], first: str
) -> MurderState:
    """Night 3 of the mockup with the given roles and targets; #5 places on ``first``."""
    state = new_game(roles, seating=MOCKUP_SEATING, first_cards=MOCKUP_FIRST_CARDS)
    play_night(state)
    play_night(state, picks={1: "ace"})
    choose_targets(state, targets)
    draft(state, MOCKUP_PICKS)
    place_all(state, {4: first, 2: "c1", 3: "e4", 0: "d1"}, swap=MOCKUP_SWAP)
    cells = state.view(None)["nights"][-1]["cells"]
    assert cells == {"0": "d1", "1": "c1", "2": "e3", "3": "e4", "4": first}
    return state


def test_mm_s2_mockup_revelation_variant_a() -> None:
    # #2->#1, #1->#2, #4->#3, #3->#4, #5->#1
    state = play_mockup_revelation(VARIANT_A, {1: 0, 0: 1, 3: 2, 2: 3, 4: 0}, "a1")
    night = state.view(None)["nights"][-1]
    assert night["night"] == 3
    assert harms(night) == ({2}, {1}, set())
    assert state.view(1)["you"]["results"][-1]["effects"] == ["distracted"]
    assert state.view(2)["you"]["results"][-1]["effects"] == ["captured"]
    assert colours(state) == {0: "GREEN", 1: "GREY", 2: "GREY", 3: "RED", 4: "GREY"}
    assert state.view(None)["table"][2]["captures"] == 1


def test_mm_s3_mockup_revelation_variant_b() -> None:
    # #2->#1, #5->#2, #4->#3, #3->#4, #1->#2
    state = play_mockup_revelation(VARIANT_B, {1: 0, 4: 1, 3: 2, 2: 3, 0: 1}, "b1")
    night = state.view(None)["nights"][-1]
    assert harms(night) == ({2}, {1}, set())
    assert colours(state) == {0: "RED", 1: "GREY", 2: "GREY", 3: "RED", 4: "RED"}


def test_mm_s4_joker_on_the_ace_slot_gets_no_swap() -> None:
    state = new_game(first_cards=("joker", "two", "jack", "queen", "king"))
    choose_targets(state, {})
    placement = state.view(None)["placement"]
    assert (placement["extra"], placement["joker"], placement["order"]) == (
        "ace",
        0,
        [0, 1, 2, 3, 4],
    )
    assert {a.verb for a in state.legal_actions(0)} == {"place"}
    with pytest.raises(IllegalAction, match="no cube has been placed"):
        state.apply(0, "swap a1 e4")
    state.apply(0, "place a1")  # he places normally
    assert state.view(None)["table"][0]["cell"] == "a1"


def test_mm_s4_joker_swap_moves_the_cube_to_an_empty_seat() -> None:
    # Extra card Jack: the Joker holder (seat 2) plays third, after seats 0 and 1.
    state = new_game(first_cards=("ace", "two", "joker", "queen", "king"))
    choose_targets(state, {})
    state.apply(0, "place a1")
    state.apply(1, "place c1")
    assert state.to_move == (2,)
    swaps = {str(a) for a in state.legal_actions(2) if a.verb == "swap"}
    assert "swap c1 e3" in swaps and "swap a1 e4" in swaps
    assert not any(s.endswith((" a1", " c1")) for s in swaps)  # destination must be empty
    with pytest.raises(IllegalAction, match="already taken"):
        state.apply(2, "swap c1 a1")
    with pytest.raises(InvalidAction):
        state.apply(2, "swap c1 c1")  # "back to the same seat" is no action at all
    state.apply(2, "swap c1 e3")
    table = state.view(None)["table"]
    assert (table[2]["cell"], table[1]["cell"], table[0]["cell"]) == ("c1", "e3", "a1")
    assert state.to_move == (3,)  # he does not place again


def poison_duke(state: MurderState) -> dict:
    return play_night(state, {3: 4, 4: 1}, {3: "a1", 4: "b1", 0: "a3", 1: "e2", 2: "d4"})


def capture(state: MurderState, victim: int, extra: dict[int, int] | None = None) -> dict:
    """The Constable on a1 captures ``victim`` on b1; the Assassin on c1 targets the Duke."""
    others = iter(("a3", "e2", "d4"))
    cells = {0: "a1", victim: "b1"}
    if 3 not in cells:
        cells[3] = "c1"
    cells.update({s: next(others) for s in range(5) if s not in cells})
    return play_night(state, {0: victim, 3: 4, **(extra or {})}, cells)


def test_mm_s5_duke_poisoned_thrice_evil_wins() -> None:
    state = new_game()
    for night in (1, 2):
        assert harms(poison_duke(state))[2] == {4}
        assert not state.is_over and state.view(None)["table"][4]["poisons"] == night
    poison_duke(state)
    assert state.is_over
    assert state.view(None)["table"][4]["status"] == "dead"
    assert state.outcome.winners == (1, 2, 3)  # Seductress, Assassin, and the Thug still in
    assert state.outcome.returns == (-1.0, 1.0, 1.0, 1.0, -1.0)
    assert "killed" in state.outcome.reason


def test_mm_s5_duke_captured_thrice_evil_wins() -> None:
    state = new_game()
    for _ in range(3):
        assert not state.is_over
        night = capture(state, 4)
        assert harms(night) == ({4}, set(), set())  # the capture shielded him from the poison
    assert state.is_over
    assert state.view(None)["table"][4]["status"] == "jailed"
    assert state.outcome.winners == (1, 2, 3)
    assert "jailed" in state.outcome.reason


def test_mm_s5_assassin_captured_thrice_good_wins_and_poison_cancelled() -> None:
    state = new_game()
    for _ in range(3):
        night = capture(state, 3, {3: 0})  # the Assassin targets the Constable beside him
        assert harms(night) == ({3}, set(), set())
    assert state.is_over
    assert state.view(None)["table"][0]["poisons"] == 0
    assert state.view(None)["table"][3]["status"] == "jailed"
    assert state.outcome.winners == (0, 1, 4)  # Constable, Duke, and the Thug still in
    assert "Assassin" in state.outcome.reason


def test_mm_s5_thug_who_left_does_not_win() -> None:
    state = new_game()
    for _ in range(3):  # the Assassin on a1 poisons the Thug on b1
        play_night(state, {3: 1}, {3: "a1", 1: "b1", 0: "a3", 2: "e2", 4: "d4"})
    assert state.view(None)["table"][1]["status"] == "dead"
    for _ in range(3):
        capture(state, 3)
    assert state.outcome.winners == (0, 4)
    assert state.outcome.returns[1] == -1.0


def test_mm_s6_pile_after_the_thug_dies() -> None:
    state = new_game()
    quiet_nights(state, 1)
    for _ in range(3):  # nights 2-4: the Thug is poisoned; he dies in night 4
        play_night(state, {3: 1}, {3: "a1", 1: "b1", 0: "a3", 2: "e2", 4: "d4"})
    assert state.view(None)["nights"][-1]["left"] == [{"seat": 1, "how": "dead"}]
    choose_targets(state, {})
    assert state.night == 5 and state.phase == "draft"
    drawer = state.to_move[0]
    assert state.view(drawer)["draft"]["pile"] == ["ace", "two", "jack", "queen", "joker"]
    drafts = [e for e in state.events(None) if e["kind"] == "draft"]
    assert drafts[-1]["cards"] == ["ace", "two", "jack", "queen", "joker"]
    assert sorted(drafts[-1]["drawers"]) == [0, 2, 3, 4]
    draft(state)
    placement = state.view(None)["placement"]
    assert len(placement["order"]) == 4 and sorted(placement["order"]) == [0, 2, 3, 4]
    assert placement["extra"] in ("ace", "two", "jack", "queen", "joker")
