"""What a seat may learn, and nothing more (MB-11, MB-48..MB-50): the fixes found by the
determinizer's no-leak requirement."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from mb_helpers import events, legal, play, play_randomly, position

from intrigue.engine import Rng, load


def test_must_move_is_shown_to_the_mover_only() -> None:
    state = position("0:2@c3", "0:k@c1", "1:k@f7")
    play(state, "inspect c3")
    assert state.view(0)["must_move"] == ["c3"]
    # to South (or a spectator) it would say "this card is an even rank"
    assert state.view(1)["must_move"] == [] and state.view(None)["must_move"] == []


def test_mb48_the_nun_owner_sees_the_card_he_delivers() -> None:
    state = position("0:2@c3", "0:5@e3", "1:q@c5", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "move c3 c4")
    assert state.view(0)["board"]["e3"]["rank"] is None  # never inspected
    play(state, "deliver e3")
    assert events(state, 0, "saw")[-1] == {
        "kind": "saw",
        "square": "e3",
        "rank": "5",
        "private": True,
    }
    assert not [e for e in events(state, 1, "saw")]
    play(state, "drop e4")
    assert state.view(0)["board"]["e4"]["rank"] == "5"
    assert "spy c5" in legal(state)  # ... so the Spy he may now unmask is no surprise to him


def test_mb49_the_back_of_a_played_card_is_public() -> None:
    state = position("0:k@c3", "0:q@hand", "1:k@f7", "0:2@a1")
    play(state, "inspect c3", "play 0")
    assert events(state, 1, "play")[-1] == {"kind": "play", "seat": 0, "suit": "s"}


def test_mb50_rotating_marks_any_card_as_moved() -> None:
    """The flags others see do not depend on the rank: a 7 and a 9 look alike after rotating."""
    kings = ("1:k@ec1", "2:k@sc1", "3:k@wc1", "0:q@nc1")
    for rank, can_move in (("7", False), ("9", True)):
        state = position(f"0:{rank}@ball", "1:2@ball", *kings, players=4, first=0)
        play(state, "inspect ball0", "rotate ball")
        card = state.view(1)["ballroom"][0]
        assert card["moved"] is True and card["acting"] is True
        assert ("move ball ball1" in legal(state)) is can_move


def test_ballroom_cards_are_named_by_their_slot_in_events() -> None:
    kings = ("1:k@ec1", "2:k@sc1", "3:k@wc1", "0:q@nc1")
    state = position("0:5@nc3", "1:2@ball", *kings, players=4, first=0)
    play(state, "inspect nc3", "move nc3 ball", "spy ball0")
    unmask = events(state, None, "unmask")[-1]
    assert unmask["square"] == "ball1"  # the Spy is the ballroom's second card


def test_an_attacking_card_unmasks_on_the_square_it_attacks() -> None:
    state = position("0:2@c3", "0:5@e3", "1:q@e5", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "move c3 c4", "deliver e3", "drop e5", "spy f7")
    unmask = events(state, None, "unmask")[-1]
    assert unmask["square"] == "e5" and unmask["attacking"] is True


def test_a_raised_card_faces_its_new_courtroom() -> None:
    # East's 9 (axis EW) raised by North's Bishop into North's courtroom faces NS.
    state = position(
        "0:4@nc3",
        "1:9@grave",
        "1:k@ec1",
        "2:k@sc1",
        "3:k@wc1",
        "0:q@nc1",
        "0:j@nb2",
        "0:10@nd2",
        players=4,
        first=0,
    )  # nb2 and nd2 are taken: the Bishop is not bound to move before its ability
    play(state, "inspect nc3", "resurrect 0", "place nb3")
    assert state.view(None)["board"]["nb3"]["axis"] == "NS"


def _play_out_ball(players: int, seed: int) -> Any:
    return play_randomly(load("masquerade-ball").new(players, seed, max_turns=40), seed)


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (2, 3), (3, 1), (4, 2)])
def test_mb53_every_mask_comes_off_when_the_ball_ends(players: int, seed: int) -> None:
    state = _play_out_ball(players, seed)
    for seat in [*range(players), None]:
        view = state.view(seat)
        assert all(card["rank"] is not None for card in view["board"].values())
        for side in view["sides"]:
            for pile in ("hand", "prison", "graveyard"):
                shown = side[pile].get("cards", side[pile].get("known"))
                assert len(shown) == side[pile]["count"], (seat, side["name"], pile)
    # ... and the ranks shown are the true ones.
    board = state.view(None)["board"]
    assert {sq: card["rank"] for sq, card in board.items()} == {
        sq: card["rank"] for sq, card in state.view(0)["board"].items()
    }


@pytest.mark.parametrize(
    ("players", "memory"),
    [(2, "perfect"), (4, "perfect"), (4, "concentration"), (2, "concentration")],
)
def test_one_card_is_shown_as_the_cards_of_the_view_show_it(players: int, memory: str) -> None:
    """`_card_view` (one card, for the heuristic's reads of a few squares) is `_card_views`
    for that card: for every seat and spectators, at every step of a ball, its end included."""
    state = load("masquerade-ball").new(players, 5, max_turns=60, memory=memory)
    rng = random.Random(5)
    while True:
        for seat in [*range(players), None]:
            for c in range(len(state.rank)):
                assert state._card_view(c, seat) == state._card_views([c], seat)[0]
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_mb53_a_sample_of_a_finished_ball_shows_the_same_ranks() -> None:
    state = _play_out_ball(2, 3)
    for seat in (0, 1):
        sample = state.determinize(seat, Rng(7))
        assert sample.view(seat) == state.view(seat)
        assert sample.view(None) == state.view(None)


def test_mb53_masks_stay_on_while_the_ball_goes_on() -> None:
    state = position("0:2@c3", "0:k@c1", "1:q@c5", "1:k@f7")
    assert state.view(0)["board"]["c5"]["rank"] is None
    assert state.view(None)["board"]["c3"]["rank"] is None


def test_changing_a_shared_view_changes_no_later_view() -> None:
    """`State.shared_view` may hand out parts kept for later views (of every game in the
    process, as the Ball's card views were for a while): a reader that changed one in place
    (a server test planting a secret in a message did) must not change what later views
    show, or a planted rank is shown to every seat of every later game (it changed the
    OpenSpiel tensors of a later playthrough). Kept parts must be read-only or not kept."""
    state = position("0:2@c3", "0:k@c1", "1:q@c5", "1:k@f7")
    for card in state.shared_view(0)["board"].values():
        with contextlib.suppress(TypeError):  # read-only parts refuse, fresh ones may change
            card.update(rank="K")
    for game in (state, position("0:2@c3", "0:k@c1", "1:j@c5", "1:k@f7")):
        assert game.shared_view(0)["board"]["c5"]["rank"] is None
        assert game.shared_view(0) == game.view(0) and game.shared_view(1) == game.view(1)
