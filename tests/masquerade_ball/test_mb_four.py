"""Four players (MB-25..MB-30, §2.6): the ballroom zone, rotation, conquest, control; three."""

from __future__ import annotations

import pytest
from mb_helpers import dests, game_obj, legal, play, position, three

from intrigue.engine import IllegalAction, InvalidOption

KINGS = ("1:k@ec1", "2:k@sc1", "3:k@wc1")


def four(*cards: str, first: int = 0, **options: object):
    return position(*cards, players=4, first=first, **options)


def test_four_player_setup_formation_and_suits() -> None:
    state = game_obj().new(4, seed=3, first=0)
    view = state.view(None)
    for side, prefix in enumerate("nesw"):
        squares = {sq for sq, c in view["board"].items() if c["side"] == side}
        assert len(squares) == 14 and all(sq[0] == prefix for sq in squares)
        assert {f"{prefix}{f}1" for f in "bcde"} <= squares
    assert [s["suit"] for s in view["sides"]] == ["s", "d", "h", "c"]
    assert view["ballroom"] == []
    # turn order runs clockwise N, E, S, W
    order = []
    for _ in range(4):
        order.append(state.to_move[0])
        seat = state.to_move[0]
        prefix = "nesw"[seat]
        play(state, f"inspect {prefix}c1")
        state.apply(seat, "end")
    assert order == [0, 1, 2, 3]


def test_front_row_cards_enter_the_ballroom_and_attack_same_axis_cards_in_it() -> None:
    state = four("0:k@nc3", "2:q@ball", "1:q@ball", "0:q@nc1", *KINGS)
    play(state, "inspect nc3")
    moves = dests(state, "nc3")
    assert "ball" in moves and "ball0" in moves  # South's Queen has the same (NS) axis
    assert "ball1" not in moves  # East's Queen faces EW
    play(state, "move nc3 ball", "end")
    assert state.view(None)["ballroom"][-1]["side"] == 0


def test_t16_rotation_takes_the_whole_move_for_a_7() -> None:
    state = four("0:7@ball", "1:2@ball", "0:q@nc1", *KINGS)
    play(state, "inspect ball0")
    assert "move ball ball1" not in legal(state)
    assert "rotate ball" in legal(state)
    play(state, "rotate ball")
    assert not dests(state, "ball") and "rotate ball" not in legal(state)
    assert state.view(None)["ballroom"][0]["axis"] == "EW"
    play(state, "end")
    for side in "esw":
        play(state, f"inspect {side}c1", "end")
    play(state, "inspect ball0")
    assert "move ball ball1" in legal(state)  # next turn it may attack


def test_t16_an_aristocrat_rotates_and_attacks_without_its_jump() -> None:
    state = four("0:9@ball", "1:2@ball", "0:q@nc1", *KINGS)
    play(state, "inspect ball0")
    assert any(sq.startswith("n") and sq.endswith("2") for sq in dests(state, "ball"))  # jump
    play(state, "rotate ball")
    moves = dests(state, "ball")
    assert "ball1" in moves
    assert any(sq.startswith("e") and sq.endswith("3") for sq in moves)  # East's front row
    assert not any(sq.endswith("2") for sq in moves)  # the jump is given up
    play(state, "move ball ball1", "end")
    assert state.view(None)["ballroom"][-1]["rank"] is None  # the 9 won, still masked
    assert len(state.view(None)["ballroom"]) == 1


def test_ballroom_card_leaves_only_to_a_courtroom_of_its_axis_and_may_stand() -> None:
    state = four("0:4@ball", "0:q@nc1", *KINGS)
    play(state, "inspect ball0")
    moves = dests(state, "ball")
    assert moves and all(sq[0] in "ns" and sq.endswith("3") for sq in moves)
    assert "end" in legal(state)  # even cards are never forced out of the ballroom


def test_conquest_gives_control_hand_and_prisoners_mb27() -> None:
    state = four(
        "0:q@eb2",
        "1:k@ea3",
        "1:j@hand",
        "0:2@prison1",
        "2:k@sf3",
        "3:k@wf3",
        "0:k@nc1",
        release="own",  # no release windows between turns here (see test_mb_windows.py)
    )
    play(state, "inspect eb2", "move eb2 ec1", "end")
    play(state, "inspect ea3", "end")
    play(state, "inspect sf3", "end")
    play(state, "inspect wf3", "end")
    assert not [e for e in state.events(None) if e["kind"] == "conquered"]
    play(state, "inspect nc1", "end")
    conquered = [e for e in state.events(None) if e["kind"] == "conquered"]
    assert conquered == [{"kind": "conquered", "seat": 0, "side": 1, "previous": 1}]
    view = state.view(0)
    assert view["sides"][1]["controller"] == 0
    assert view["sides"][0]["hand"]["cards"] == ["2", "J"]  # North's prisoner, East's hand
    assert view["sides"][1]["prison"]["count"] == 0
    assert not state.is_over
    # North now plays East's turn too (a second turn per round)
    assert state.to_move == (0,) and state.ent == 1
    with pytest.raises(IllegalAction):
        state.apply(1, "end")


def test_last_player_controlling_a_courtroom_wins_mb29() -> None:
    # South and West have no card at all: their courtrooms fall vacant and they are out.
    state = four("0:q@eb2", "1:k@ea3", "0:k@nc1")
    play(state, "inspect eb2", "move eb2 ec1", "end")
    play(state, "inspect ea3", "end")
    kinds = [e["kind"] for e in state.events(None)]
    assert kinds.count("eliminated") == 2 and not state.is_over
    assert state.to_move == (0,)
    play(state, "inspect nc1", "end")  # North held East's throne through East's turn
    assert state.is_over and state.outcome.winners == (0,)
    assert "controls every courtroom left" in state.outcome.reason


def test_nun_delivery_into_another_courtroom_takes_its_axis() -> None:
    state = four("0:2@nc3", "0:j@nc2", "0:k@nb3", "0:q@nc1", *KINGS)  # the Nun is not bound
    play(state, "inspect nc3", "deliver nb3", "drop ea3")
    assert state.view(None)["board"]["ea3"]["axis"] == "EW"


def test_mb43_the_ballroom_never_forces_a_front_row_card_to_move() -> None:
    state = four("0:2@nc3", "0:q@nc2", "0:k@nc1", *KINGS)
    play(state, "inspect nc3")
    assert "ball" in dests(state, "nc3")
    assert "end" in legal(state)  # its only free pip square would be the ballroom


def test_mb43_second_row_cards_do_not_enter_the_ballroom() -> None:
    state = four("0:9@nc2", "0:k@nc1", *KINGS)
    play(state, "inspect nc2")
    assert not any(d.startswith("ball") for d in dests(state, "nc2"))


# -- MB-30: three players, the four-player palace without West ---------------------------------


def test_mb30_three_players_north_east_south_clockwise() -> None:
    assert game_obj().player_counts == (2, 3, 4)  # "2 to 4 players" [MB L17]
    state = three(seed=4, first=0)
    view = state.view(None)
    assert [s["name"] for s in view["sides"]] == ["North", "East", "South"]
    assert [s["suit"] for s in view["sides"]] == ["s", "d", "h"]
    assert not any(sq.startswith("w") for sq in view["board"])
    order = []
    for _ in range(3):
        seat = state.to_move[0]
        order.append(seat)
        play(state, f"inspect {'nes'[seat]}c1", "end")
    assert order == [0, 1, 2]


def test_mb30_there_is_no_west_courtroom_to_enter() -> None:
    # an EW-axis card in the ballroom may leave only into East's courtroom
    state = position("0:9@ball", "0:2@nc3", "1:k@ec1", "2:k@sc1", players=3, first=0)
    play(state, "inspect ball0", "rotate ball")
    moves = dests(state, "ball")
    assert moves and all(sq.startswith("e") for sq in moves)
    state = position("0:2@nc3", "0:j@nc2", "0:k@nb3", "1:k@ec1", "2:k@sc1", players=3, first=0)
    play(state, "inspect nc3", "deliver nb3")
    assert not any(a.startswith("drop w") for a in legal(state))
    with pytest.raises(InvalidOption, match="no courtroom"):
        position("0:k@wc3", "1:k@ec1", players=3)


# -- MB-45: a side emptied in another's turn falls vacant right after the verdicts --------------


def _north_delivers_its_queen_onto_east_last_card(*others: str):
    # The Nun cannot move (nc2 is taken) and delivers the Queen onto East's only card, a 10.
    state = four("0:2@nc3", "0:k@nc2", "0:q@nc1", "1:10@ea3", *others, max_turns=1)
    play(state, "inspect nc3", "deliver nc1", "drop ea3", "end")
    return state


def test_mb45_a_side_emptied_in_another_turn_falls_vacant_before_the_cap() -> None:
    state = _north_delivers_its_queen_onto_east_last_card("2:k@sc1", "3:k@wc1")
    assert state.is_over and state.outcome.capped
    out = [e for e in state.events(None) if e["kind"] in ("vacant", "eliminated")]
    assert out == [
        {"kind": "vacant", "side": 1, "seat": 1},
        {"kind": "eliminated", "seat": 1},
    ]


def test_mb54_a_ball_cut_off_is_a_draw_among_the_seats_still_in_it() -> None:
    state = _north_delivers_its_queen_onto_east_last_card("2:k@sc1", "3:k@wc1")
    outcome = state.outcome
    assert outcome.capped and outcome.is_draw and outcome.winners == ()
    assert outcome.returns == (0.0, -1.0, 0.0, 0.0)  # East was out before the cap


def test_mb54_a_ball_cut_off_with_every_seat_in_it_is_a_draw_for_all() -> None:
    state = four("0:k@nc1", "1:k@ec1", "2:k@sc1", "3:k@wc1", max_turns=1)
    play(state, "inspect nc1", "end")
    assert state.outcome.capped and state.outcome.returns == (0.0, 0.0, 0.0, 0.0)


def test_mb45_the_last_side_standing_wins_before_the_cap() -> None:
    state = _north_delivers_its_queen_onto_east_last_card()
    assert state.is_over and not state.outcome.capped and state.outcome.winners == (0,)
    assert "controls every courtroom left" in state.outcome.reason
