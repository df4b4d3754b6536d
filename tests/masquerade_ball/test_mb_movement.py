"""Set-up and movement: MB-T01..T07, the pip maps of §2.4, ascension, two-steps (MB-4..MB-10)."""

from __future__ import annotations

import pytest
from mb_helpers import START, can_end, dealt, dests, legal, play, position

from intrigue.engine import IllegalAction, InvalidOption
from intrigue.games.masquerade_ball.board import PATTERNS, TWO

NORTH_START = ["b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2", "f2", "b3", "c3", "d3", "e3"]
SOUTH_START = ["b7", "c7", "d7", "e7", "a6", "b6", "c6", "d6", "e6", "f6", "b5", "c5", "d5", "e5"]


def test_t01_setup_formation_all_face_down_hands_empty() -> None:
    state = dealt()
    view = state.view(None)
    assert {sq for sq, card in view["board"].items() if card["side"] == 0} == set(NORTH_START)
    assert {sq for sq, card in view["board"].items() if card["side"] == 1} == set(SOUTH_START)
    assert all(not card["up"] and card["rank"] is None for card in view["board"].values())
    assert all(side["hand"]["count"] == 0 for side in view["sides"])
    # the deal follows the documented order: throne row b-e, step row a-f, front row b-e
    assert [state.rank_at(sq) for sq in NORTH_START] == [
        "Q", "K", "J", "10", "9", "8", "A", "Joker", "7", "6", "5", "4", "3", "2"
    ]  # fmt: skip


def test_owner_knows_only_his_throne_cards_at_the_start() -> None:
    view = dealt().view(0)
    known = {sq: c["rank"] for sq, c in view["board"].items() if c["rank"] is not None}
    assert known == {"c1": "K", "d1": "J"}


def test_random_deals_differ_by_seed_and_deals_option_is_checked() -> None:
    from mb_helpers import game_obj

    layouts = {tuple(game_obj().new(2, seed=s).rank_at(sq) for sq in NORTH_START) for s in range(6)}
    assert len(layouts) > 1
    with pytest.raises(InvalidOption):
        game_obj().new(2, deals=[START, "q-q-j-10-9-8-a-jk-7-6-5-4-3-2"])
    with pytest.raises(InvalidOption):
        game_obj().new(2, deals=[START])


def test_inspection_is_mandatory_and_first() -> None:
    state = dealt()
    assert legal(state) == {f"inspect {sq}" for sq in NORTH_START}
    with pytest.raises(IllegalAction):
        play(state, "end")
    with pytest.raises(IllegalAction):
        play(state, "inspect c5")  # not North's card


def test_t02_forced_move_of_the_2() -> None:
    state = dealt(["q-k-j-10-9-8-a-jk-7-6-5-2-3-4", START])  # North's 2 on c3
    assert state.rank_at("c3") == "2"
    play(state, "inspect c3")
    assert dests(state, "c3") == {"c4"}
    assert not can_end(state)  # standing still is illegal
    with pytest.raises(IllegalAction, match="must move"):
        play(state, "end")
    play(state, "move c3 c4", "end")


def test_t03_never_forced_to_attack() -> None:
    state = position("0:4@b3", "1:q@a4", "1:k@c4", "0:k@c1", "0:2@a2", "0:3@c2", "1:j@c7")
    play(state, "inspect b3")
    assert dests(state, "b3") == {"a4", "c4"}  # both attacks
    assert can_end(state)


CENTRE = "c3"


@pytest.mark.parametrize(
    ("rank", "eight", "expected"),
    [
        # §2.4 worked destinations from the starting position
        ("10", "A", {"b4", "c4", "d4", "b5", "d5"}),
        ("8", "A", {"b4", "d4", "b5", "d5"}),
        ("8", "B", {"c4", "b5", "d5"}),
        ("9", "A", {"b4", "d4", "b5", "d5"}),
    ],
)
def test_t04_worked_destinations_from_the_start(rank: str, eight: str, expected: set[str]) -> None:
    layout = START.split("-")
    i, j = layout.index(rank), 11  # put the rank on c3 (deal index 11)
    layout[i], layout[j] = layout[j], layout[i]
    state = dealt(["-".join(layout), START], eight=eight)
    assert state.rank_at("c3") == rank.upper()
    play(state, "inspect c3")
    assert dests(state, "c3") == expected


def test_t04_worked_4_on_b3_and_6_on_e3() -> None:
    layout = START.split("-")  # index 10 = b3, 13 = e3
    for rank, sq, idx, expected in (
        ("4", "b3", 10, {"a4", "c4"}),
        ("6", "e3", 13, {"d4", "f3", "f4"}),
    ):
        lay = layout.copy()
        i = lay.index(rank)
        lay[i], lay[idx] = lay[idx], lay[i]
        state = dealt(["-".join(lay), START])
        play(state, f"inspect {sq}")
        assert dests(state, sq) == expected


def _alone(rank: str, square: str, eight: str = "A") -> set[str]:
    state = position(f"0:{rank}@{square}", "1:q@f7", eight=eight)
    play(state, f"inspect {square}")
    return dests(state, square)


def _offsets(square: str, offsets: list[tuple[int, int]]) -> set[str]:
    sq = TWO.index[square]
    r, f = divmod(sq, 6)
    return {
        TWO.names[(r + dr) * 6 + f + df]
        for dr, df in offsets
        if 0 <= r + dr < 7 and 0 <= f + df < 6
    }


@pytest.mark.parametrize(
    ("rank", "pattern"),
    [
        ("2", "2"), ("3", "3"), ("4", "4"), ("5", "5"), ("6", "6"), ("7", "7"),
        ("9", "9"), ("10", "10"), ("j", "royal"), ("q", "royal"), ("k", "royal"),
        ("a", "royal"), ("jk", "royal"),
    ],
)  # fmt: skip
def test_t04_every_pattern_on_an_open_board(rank: str, pattern: str) -> None:
    # From c4 no one-square pip lands on a step (no two-step); the 2 and 3 are tried on c5, out
    # of the ballroom row (no lateral moves).
    square = "c5" if rank in ("2", "3") else "c4"
    assert _alone(rank, square) == _offsets(square, list(PATTERNS[pattern].offsets))


@pytest.mark.parametrize("eight", ["A", "B"])
def test_t04_both_drawings_of_the_8(eight: str) -> None:
    expected = _offsets("c4", list(PATTERNS["8" + eight].offsets))
    assert _alone("8", "c4", eight) == expected
    assert ("b5" in expected) == (eight == "A") and ("c5" in expected) == (eight == "B")


def test_pip_art_counts_match_the_ranks() -> None:
    for rank in range(2, 11):
        name = "8A" if rank == 8 else str(rank)
        pat = PATTERNS[name]
        assert len(pat.offsets) + pat.centre == rank
    assert len(PATTERNS["8B"].offsets) == 8
    assert PATTERNS["royal"].centre and len(PATTERNS["royal"].offsets) == 8


def test_jumps_ignore_cards_in_between() -> None:
    state = position("0:9@c3", "0:j@c4", "0:k@b4", "0:q@d4", "0:2@d1", "1:q@f7")
    play(state, "inspect c3")
    assert {"b5", "d5"} <= dests(state, "c3")


def test_must_move_only_counts_pip_squares_and_may_stand_when_all_are_occupied() -> None:
    # A 6 whose every pip square is taken (by anyone) may stand still.
    cards = ["0:6@c5", "0:q@b4", "0:k@c4", "1:j@d4", "1:q@b5", "1:k@d5", "1:2@b6", "0:j@d6"]
    state = position(*cards, "1:3@c6", "0:a@c1")
    play(state, "inspect c5")
    assert can_end(state)
    assert dests(state, "c5") == {"d4", "b5", "d5", "b6"}


def test_t05_ballroom_lateral_for_the_3_and_the_2() -> None:
    state = position("0:3@a4", "0:q@c1", "1:q@f7")
    play(state, "inspect a4")
    assert dests(state, "a4") == {"a3", "a5", "b4"}
    assert can_end(state)  # the 3 has a centre pip
    state = position("0:2@d4", "0:q@c1", "1:q@f7")
    play(state, "inspect d4")
    assert dests(state, "d4") == {"d3", "d5", "c4", "e4"}
    assert not can_end(state)


def test_lateral_does_not_count_for_must_move() -> None:
    """MB-10 / MB-31: only the pip map decides; a 2 boxed in front and behind may stand."""
    state = position("0:2@d4", "0:q@d3", "1:q@d5", "0:k@c1", "1:k@f7")
    play(state, "inspect d4")
    assert dests(state, "d4") == {"d5", "c4", "e4"}
    assert can_end(state)


def test_2_and_3_have_no_lateral_outside_the_ballroom() -> None:
    assert _alone("3", "c5") == {"c4", "c6"}


def test_t06_ascension_links_on_the_enemy_steps() -> None:
    state = position("1:q@b2", "0:2@c1", "0:k@e1", "1:k@c7", first=1)
    play(state, "inspect b2")
    moves = dests(state, "b2")
    assert {"c1", "d1"} <= moves  # attack c1 (king move), enter d1 (ascension link)
    assert not any(a.startswith("swap") for a in legal(state))


def test_throne_reaches_every_step_of_its_courtroom() -> None:
    state = position("0:3@c1", "1:q@f7")
    play(state, "inspect c1")
    assert {"b1", "e1", "b2", "c2", "d2", "e2"} <= dests(state, "c1")


def test_swap_with_own_throne_in_own_courtroom_counts_as_both_moved() -> None:
    state = position("0:2@e2", "0:k@d1", "0:q@c1", "1:q@f7")
    play(state, "inspect e2")
    assert {"swap e2 d1", "swap e2 c1"} <= legal(state)
    play(state, "swap e2 d1")
    assert state.rank_at("d1") == "2" and state.rank_at("e2") == "K"
    assert not dests(state, "d1") and not dests(state, "e2")
    assert can_end(state)


def test_t07_aristocracy_two_step_and_jump_onto_the_thrones() -> None:
    state = position("1:9@d3", "0:q@c1", "0:k@d1", "0:2@e2", "1:k@c7", first=1)
    play(state, "inspect d3")
    moves = dests(state, "d3")
    assert "d1" in moves  # d3 -> c2 (an empty step) -> d1
    assert "c1" in moves  # a (2, 1) jump


def test_two_step_needs_an_empty_step() -> None:
    state = position("1:9@d3", "0:q@c1", "0:k@d1", "0:2@e2", "0:3@c2", "1:k@c7", first=1)
    play(state, "inspect d3")
    assert "d1" not in dests(state, "d3")
    # a royal card has no two-step
    state = position("1:q@d3", "0:q@c1", "0:k@d1", "1:k@c7", first=1)
    play(state, "inspect d3")
    assert "d1" not in dests(state, "d3") and "c1" not in dests(state, "d3")


def test_cannot_move_onto_own_card_or_off_the_board() -> None:
    state = position("0:k@a1", "0:q@a2", "1:q@f7")
    play(state, "inspect a1")
    assert dests(state, "a1") == {"b1", "b2"}
    with pytest.raises(IllegalAction, match="your own card"):
        play(state, "move a1 a2")


def test_a_card_moves_once_per_turn() -> None:
    state = position("0:k@c3", "1:q@f7", "0:q@c1")
    play(state, "inspect c3", "move c3 c4")
    assert not dests(state, "c4")
    with pytest.raises(IllegalAction, match="once each"):
        play(state, "move c4 c5")


def test_only_acting_cards_move() -> None:
    state = position("0:k@c3", "0:j@e3", "1:q@f7", "0:q@c1")
    play(state, "inspect c3")
    with pytest.raises(IllegalAction):
        play(state, "move e3 e4")


def test_mb35_a_card_that_moved_cannot_be_swapped_on() -> None:
    # The reproduction: the King moved b2 -> c1; the played Queen may not swap with it,
    # which would carry it on to d2 (a second change of square in one turn).
    state = position("0:k@b2", "0:q@hand", "1:q@d7", "1:k@c7")
    play(state, "inspect b2", "play 0", "place d2", "move b2 c1")
    assert "swap d2 c1" not in legal(state)
    with pytest.raises(IllegalAction, match="already changed square"):
        play(state, "swap d2 c1")
    assert state.rank_at("c1") == "K" and state.rank_at("d2") == "Q"


def test_mb35_a_played_card_that_moved_cannot_be_swapped_on_either() -> None:
    # The mirror case: the played card moves onto the throne first, then the inspected card
    # would swap with it.
    state = position("0:k@b2", "0:q@hand", "1:q@d7", "1:k@c7")
    play(state, "inspect b2", "play 0", "place d2", "move d2 c1")
    assert "swap b2 c1" not in legal(state)
    assert "move b2 b1" in legal(state)  # the inspected card may still make its own move
