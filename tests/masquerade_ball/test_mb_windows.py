"""Between turns: release windows (MB-22, MB-46), conquest windows (MB-27, MB-47), MB-28."""

from __future__ import annotations

import pytest
from mb_helpers import events, legal, play, position

from intrigue.engine import IllegalAction

# -- MB-22 / MB-46: releasing prisoners between turns ------------------------------------------


def _north_holds_a_queen(**options: object):
    # North's prison holds South's Queen; both sides have a King to inspect.
    return position("0:k@c3", "1:q@prison0", "1:k@f7", "0:2@a1", **options)


def test_release_window_opens_after_your_turn_when_your_prison_holds_cards() -> None:
    state = _north_holds_a_queen()
    play(state, "inspect c3", "move c3 c4", "end")
    assert state.phase == "release" and state.to_move == (0,)
    assert legal(state) == {"release 0", "pass"}
    view = state.view(1)
    assert view["window"] == {"kind": "release", "side": 0, "seat": 0, "liberate": False}
    with pytest.raises(IllegalAction, match="between turns"):
        play(state, "inspect c4")
    play(state, "pass")
    assert state.phase == "inspect" and state.to_move == (1,)
    assert events(state, None, "turn")[-1]["seat"] == 1


def test_released_before_the_owner_turn_the_card_can_be_played_in_it() -> None:
    state = _north_holds_a_queen()
    play(state, "inspect c3", "move c3 c4", "end", "release 0")
    # the prison is empty: the window closed by itself and South's turn began
    assert state.to_move == (1,) and state.phase == "inspect"
    released = events(state, None, "released")[-1]
    assert released == {"kind": "released", "seat": 0, "prison": 0, "index": 0, "to": 1}
    assert state.view(1)["sides"][1]["hand"]["cards"] == ["Q"]
    play(state, "inspect f7", "play 0", "place e6")
    assert state.rank_at("e6") == "Q"


def test_no_window_for_the_next_player_he_releases_in_his_own_turn() -> None:
    # South holds the prisoner and plays next: no window for him after North's turn.
    state = position("0:k@c3", "0:q@prison1", "1:k@f7", "0:2@a1")
    play(state, "inspect c3", "move c3 c4", "end")
    assert state.phase == "inspect" and state.to_move == (1,)
    assert "release 0" in legal(state)  # ... he may release at any step of his turn


def test_release_option_own_keeps_releasing_to_your_own_turn() -> None:
    state = _north_holds_a_queen(release="own")
    assert "release 0" in legal(state)
    play(state, "inspect c3", "move c3 c4", "end")
    assert state.phase == "inspect" and state.to_move == (1,)


def test_no_window_once_the_cap_ends_the_ball() -> None:
    state = _north_holds_a_queen(max_turns=1)
    play(state, "inspect c3", "move c3 c4", "end")
    assert state.is_over and state.outcome.capped


def test_four_player_windows_run_in_turn_order_skipping_the_next_player() -> None:
    state = position(
        "0:k@nc1",
        "1:k@ec1",
        "2:k@sc1",
        "3:k@wc1",
        "1:2@prison0",  # North holds an East card
        "0:2@prison2",  # South holds a North card
        "0:3@prison1",  # East holds a North card (East plays next: no window)
        players=4,
        first=0,
    )
    play(state, "inspect nc1", "end")
    order = []
    while state.phase == "release":
        order.append(state.view(None)["window"]["side"])
        play(state, "pass")
    assert order == [2, 0]  # South, then North itself; East plays next
    assert state.to_move == (1,) and state.phase == "inspect"


# -- MB-27 / MB-47: conquest frees your prisoners and, by choice, the others' ---------------------


def _conquest(*extra: str):
    """North's Queen takes East's empty throne, holds it for a round, and conquers East."""
    state = position(
        "0:q@eb2",
        "1:k@ea3",
        "2:k@sf3",
        "3:k@wf3",
        "0:k@nc1",
        *extra,
        players=4,
        first=0,
        release="own",
    )
    play(state, "inspect eb2", "move eb2 ec1", "end")
    for square in ("ea3", "sf3", "wf3"):
        play(state, f"inspect {square}", "end")
    play(state, "inspect nc1", "end")
    return state


def test_conquest_frees_the_conqueror_prisoners_and_offers_the_others() -> None:
    state = _conquest("0:2@prison1", "3:3@prison1", "2:4@prison1")
    assert events(state, None, "conquered")[-1]["side"] == 1
    # North's own Nun went home at once; West's Priest and South's Bishop wait for his choice
    assert state.view(0)["sides"][0]["hand"]["cards"] == ["2"]
    assert state.phase == "conquest" and state.to_move == (0,)
    assert state.view(None)["sides"][1]["prisoners_of"] == [3, 2]
    assert legal(state) == {"release 0", "release 1", "pass"}  # East's owner still plays
    play(state, "release 0")  # free the West card ("your ally's")
    assert state.view(3)["sides"][3]["hand"]["cards"] == ["3"]
    play(state, "pass")  # keep South's Bishop in prison and take the courtroom
    view = state.view(0)
    assert view["sides"][1]["controller"] == 0
    assert view["sides"][1]["prison"]["cards"] == ["4"]
    assert state.to_move == (0,) and state.ent == 1  # North plays East's turn next


def test_conquest_with_nothing_to_decide_takes_the_courtroom_at_once() -> None:
    state = _conquest("0:2@prison1")
    assert state.phase == "inspect" and state.ent == 1 and state.to_move == (0,)
    assert state.view(0)["sides"][1]["controller"] == 0
    assert not state.view(None)["sides"][1]["prison"]["count"]


def test_emptying_the_conquered_prison_closes_the_window() -> None:
    state = _conquest("3:3@prison1")
    play(state, "release 0")
    assert state.phase == "inspect" and state.view(None)["sides"][1]["controller"] == 0


# -- MB-28: liberating a courtroom for its eliminated owner -------------------------------------


def _south_took_east(**options: object):
    """South conquers East (East's seat is out); North's Nun waits on East's step b2."""
    state = position(
        "2:q@ed2",
        "1:k@ea3",
        "0:2@eb2",
        "0:k@nc1",
        "2:k@sc1",
        "3:k@wf3",
        players=4,
        first=2,
        release="own",
        **options,
    )
    play(state, "inspect ed2", "move ed2 ec1", "end")  # South on East's throne
    play(state, "inspect wf3", "end")
    play(state, "inspect nc1", "end")
    play(state, "inspect ea3", "end")
    play(state, "inspect sc1", "end")  # held for a round: East is South's now
    return state


def test_conquering_an_eliminated_player_courtroom_is_taken_and_he_is_out() -> None:
    state = _south_took_east()
    assert events(state, None, "conquered")[-1] == {
        "kind": "conquered",
        "seat": 2,
        "side": 1,
        "previous": 1,
    }
    assert events(state, None, "eliminated")[-1]["seat"] == 1
    assert state.view(None)["sides"][1]["controller"] == 2  # no window: nothing to decide


def _north_retakes_east():
    state = _south_took_east()
    play(state, "inspect wf3", "end")
    play(state, "inspect eb2", "move eb2 ec1", "end")  # the Nun slays South's Queen on ec1
    assert state.rank_at("ec1") == "2"
    play(state, "inspect ea3", "end")  # South plays East's turn
    play(state, "inspect sc1", "end")
    play(state, "inspect wf3", "end")
    play(state, "inspect nc1", "end")  # North held East's thrones for a round
    return state


def test_mb28_the_conqueror_may_hand_the_courtroom_back_to_its_eliminated_owner() -> None:
    state = _north_retakes_east()
    assert state.phase == "conquest" and state.to_move == (0,)
    assert legal(state) == {"liberate", "pass"}
    assert state.view(0)["window"]["liberate"] is True
    play(state, "liberate")
    assert events(state, None, "liberated")[-1] == {"kind": "liberated", "seat": 0, "side": 1}
    assert state.view(None)["sides"][1]["controller"] == 1
    # East's seat is back in the game and plays East's turn, which comes next
    assert state.to_move == (1,) and state.ent == 1
    assert state.view(1)["board"]["ea3"]["rank"] == "K"
    assert not state.is_over


def test_mb28_or_he_takes_it_himself() -> None:
    state = _north_retakes_east()
    play(state, "pass")
    assert state.view(None)["sides"][1]["controller"] == 0
    assert state.to_move == (0,) and state.ent == 1


def test_liberate_is_refused_when_the_owner_lost_it_to_you() -> None:
    state = _conquest("3:3@prison1")  # East's own seat lost East to North just now
    assert "liberate" not in legal(state)
    with pytest.raises(IllegalAction, match="cannot be handed back"):
        play(state, "liberate")
