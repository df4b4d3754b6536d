"""Abilities (MB-14..MB-17, MB-22): Diplomat, Spy, Bishop, Priest, Nun; playing and releasing."""

from __future__ import annotations

import pytest
from mb_helpers import can_end, dests, events, legal, play, position

from intrigue.engine import IllegalAction


def test_abilities_only_for_a_masked_acting_card() -> None:
    state = position("0:5@c3", "0:3@b3", "1:q@c5", "1:k@f7")
    play(state, "inspect c3")
    assert "spy c5" in legal(state)
    assert not any(a.startswith("redeem") for a in legal(state))  # the 3 is not acting
    state = position("0:5@c3!", "1:q@c5", "1:k@f7")
    play(state, "inspect c3")  # a face-up card may be inspected but has no ability
    assert not any(a.startswith("spy") for a in legal(state))
    with pytest.raises(IllegalAction, match="ability"):
        play(state, "spy c5")


def test_spy_reveals_another_card_for_everyone_and_unmasks_itself() -> None:
    state = position("0:5@c3", "1:q@c5", "1:k@f7", "0:k@a1")
    play(state, "inspect c3")
    assert "spy c3" not in legal(state)  # "another card"
    play(state, "spy c5")
    view = state.view(None)
    assert view["board"]["c5"] == {"side": 1, "suit": "h", "up": True, "rank": "Q"}
    assert view["board"]["c3"]["up"] and view["board"]["c3"]["rank"] == "5"
    assert events(state, None, "reveal")[-1] == {"kind": "reveal", "square": "c5", "rank": "Q"}
    assert not any(a.startswith("spy") for a in legal(state))  # invoked once


def test_spy_may_move_before_or_after_and_with_an_attack() -> None:
    state = position("0:5@c3", "1:jk@d4", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "move c3 d4", "spy f7", "end")
    # the Spy attacked a masked Joker: lured (State attacks a masked Joker)
    assert state.rank_at("d4") == "Joker"


def test_spying_a_defender_lets_the_attacker_judge_and_kills_the_lure() -> None:
    state = position("0:5@c3", "0:2@hand", "1:jk@d4", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "play 0", "place d3", "move d3 d4", "spy d4", "end")
    # the 2 attacked a face-up Joker: no lure; the Church beats the Proletariat
    assert state.rank_at("d4") == "2"
    assert events(state, 0, "judged")[-1]["defender"] == "Joker"


def test_priest_redeems_another_face_up_card_face_down() -> None:
    state = position("0:3@c3", "0:a@b3!", "1:q@c5!", "1:k@f7", "0:k@a1")
    play(state, "inspect c3")
    assert {"redeem b3", "redeem c5"} <= legal(state)
    assert "redeem c3" not in legal(state)
    play(state, "redeem b3")
    view = state.view(1)
    assert view["board"]["b3"]["up"] is False
    assert view["board"]["b3"]["rank"] == "A"  # everyone saw it: still known (MB-11)
    assert view["board"]["c3"]["up"] is True


def test_redeemed_assassin_regains_its_ability() -> None:
    state = position("0:3@c3", "0:a@d3!", "1:6@d4", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "move c3 c4", "redeem d3", "end")
    play(state, "inspect f7", "end")
    play(state, "inspect d3", "move d3 d4", "end")
    assert state.rank_at("d4") == "A"  # assassinated the Diplomat


def test_priest_cannot_redeem_itself() -> None:
    state = position("0:3@c3!", "0:5@b3", "1:q@c5", "1:k@f7")
    play(state, "inspect b3", "spy c5")
    assert not any(a.startswith("redeem") for a in legal(state))


def test_diplomat_returns_a_prisoner_to_hand_or_courtroom_and_it_may_act() -> None:
    state = position("0:6@c3", "0:q@prison1", "0:2@prison1", "1:k@f7", "1:j@c5", "0:k@a1")
    play(state, "inspect c3", "move c3 d2")  # the Diplomat moves first (no centre pip)
    assert {"free 0", "free 1"} <= legal(state)
    play(state, "free 0")
    assert state.phase == "place"
    assert "place hand" in legal(state) and "place b3" in legal(state)
    assert "place c4" not in legal(state)  # the ballroom is not the courtroom
    play(state, "place b3")
    assert state.rank_at("b3") == "Q"
    assert state.view(0)["board"]["b3"]["rank"] == "Q"
    assert "c4" in dests(state, "b3")  # it may move this turn
    assert state.view(None)["sides"][1]["prison"]["count"] == 1
    play(state, "move b3 c4")
    assert can_end(state)


def test_diplomat_to_hand() -> None:
    state = position("0:6@c3", "0:q@prison1", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "move c3 d2", "free 0", "place hand")
    assert state.view(0)["sides"][0]["hand"]["cards"] == ["Q"]
    assert state.view(1)["sides"][0]["hand"] == {"count": 1, "known": ["Q"]}


def test_bishop_raises_own_dead_or_a_blind_enemy_corpse() -> None:
    state = position("0:4@c3", "0:q@grave", "1:9@grave", "1:2@grave", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "move c3 b2")
    assert {"resurrect 0", "resurrect 1", "resurrect 2"} <= legal(state)
    play(state, "resurrect 2", "place d3")  # the enemy graveyard's second card
    assert state.rank_at("d3") == "2"
    view = state.view(0)
    assert view["board"]["d3"]["side"] == 0 and view["board"]["d3"]["rank"] == "2"
    assert view["board"]["d3"]["suit"] == "h"  # the card keeps its back
    assert state.view(None)["sides"][1]["graveyard"]["count"] == 1
    assert "d4" in dests(state, "d3")


def test_nun_delivers_anywhere_but_an_enemy_throne_t13() -> None:
    state = position("0:2@c3", "0:k@e3", "1:q@c1", "1:k@c7", "1:j@e5", "0:j@a1")
    play(state, "inspect c3", "move c3 c4", "deliver e3")  # the Nun moves first: no centre pip
    assert state.phase == "drop"
    drops = legal(state)
    assert "drop c7" not in drops and "drop d7" not in drops  # enemy thrones
    assert {"drop c1", "drop e5", "drop f6"} <= drops  # own throne (attack), attack, free
    with pytest.raises(IllegalAction):
        play(state, "drop c7")
    play(state, "drop c1")  # defends North's own throne: an attack on the Queen
    assert events(state, None, "drop")[-1]["attack"] is True
    play(state, "end")
    assert state.rank_at("c1") == "Q"  # in class the Queen beats the King
    assert state.view(1)["sides"][1]["prison"]["cards"] == ["K"]


def test_delivered_card_may_invoke_but_not_move() -> None:
    state = position("0:2@c3", "0:5@e3", "1:q@c5", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "move c3 c4", "deliver e3", "drop e4")
    assert not dests(state, "e4")
    assert "spy c5" in legal(state)  # the delivered Spy unmasks with its own ability
    play(state, "spy c5")
    assert state.view(None)["board"]["c5"]["up"]


def test_nun_may_deliver_itself_but_not_a_card_that_moved() -> None:
    # c2 and c4 are taken: the Nun is not bound to move, so it may deliver itself
    state = position("0:2@c3", "0:j@c2", "0:10@c4", "0:q@hand", "1:q@c5", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "play 0", "place b3", "move b3 b4")
    assert "deliver b4" not in legal(state)
    assert "deliver c3" in legal(state)
    play(state, "deliver c3", "drop f3")
    assert state.rank_at("f3") == "2" and can_end(state)  # the delivery was its move


def test_play_from_hand_once_before_moving_onto_own_courtroom() -> None:
    state = position("0:k@c3", "0:q@hand", "0:j@hand", "1:k@f7", "0:2@a1")
    play(state, "inspect c3")
    assert {"play 0", "play 1"} <= legal(state)
    play(state, "play 1", "place d3")
    assert state.rank_at("d3") == "J"
    assert not any(a.startswith("play") for a in legal(state))
    state = position("0:k@c3", "0:q@hand", "1:k@f7", "0:2@a1")
    play(state, "inspect c3", "move c3 c4")
    assert not any(a.startswith("play") for a in legal(state))


def test_played_even_card_must_move_too() -> None:
    state = position("0:k@c3", "0:4@hand", "1:k@f7", "0:2@a1")
    play(state, "inspect c3", "play 0", "place b3")
    assert not can_end(state)
    play(state, "move b3 a4")
    assert can_end(state)


def test_no_card_on_board_skips_inspection_and_a_card_must_be_played() -> None:
    state = position("0:q@hand", "1:k@f7", "1:j@e7")
    assert state.phase == "main" and legal(state) == {"play 0"}


def test_no_card_at_all_loses_mb23() -> None:
    state = position("0:q@c5", "1:k@d6", first=0)
    play(state, "inspect c5", "move c5 d6", "end")  # the Queen slays South's last card
    assert state.is_over and state.outcome.winners == (0,)
    assert "no card left" in state.outcome.reason


def test_release_returns_a_prisoner_to_its_owner_hand() -> None:
    state = position("0:k@c3", "1:q@prison0", "1:k@f7", "0:2@a1")
    assert "release 0" in legal(state)
    play(state, "release 0")
    assert state.view(1)["sides"][1]["hand"]["cards"] == ["Q"]
    assert events(state, None, "released")[-1]["to"] == 1


def test_hidden_pick_from_a_hand_of_several_is_forgotten_by_the_others() -> None:
    state = position("0:k@c3", "1:q@prison0", "1:j@prison0", "1:k@f7", "0:2@a1")
    play(state, "release 0", "release 0")
    assert state.view(0)["sides"][1]["hand"] == {"count": 2, "known": ["J", "Q"]}
    play(state, "inspect c3", "move c3 c4", "end")
    play(state, "inspect f7", "play 1", "place a6")
    assert state.view(0)["board"]["a6"]["rank"] is None
    assert state.view(0)["sides"][1]["hand"] == {"count": 1, "known": []}
    assert state.view(1)["board"]["a6"]["rank"] == "J"


def test_mb37_own_throne_cards_are_known_enemy_ones_are_not() -> None:
    state = position("1:q@c2", "0:2@d1", "0:3@f3", "1:k@f7", first=1)
    assert state.view(0)["board"]["d1"]["rank"] == "2"
    play(state, "inspect c2", "move c2 c1", "end")
    assert state.view(0)["board"]["c1"]["rank"] is None  # an intruder on North's throne


def test_mb39_cards_come_back_face_down() -> None:
    state = position("0:6@c3", "0:q@prison1", "1:k@f7", "0:k@a1")
    play(state, "inspect c3", "move c3 d2", "free 0", "place b3")
    assert state.view(None)["board"]["b3"]["up"] is False


def test_mb41_two_acting_cards_of_one_rank_each_invoke_once() -> None:
    state = position("0:4@c3", "0:5@hand", "1:5@grave", "1:q@c5", "1:k@f7", "1:j@f6", "0:k@a1")
    play(state, "inspect c3", "play 0", "place b3", "move c3 b2", "resurrect 0", "place d3")
    spies = {a for a in legal(state) if a.startswith("spy")}
    assert {"spy c5", "spy f6"} <= spies
    play(state, "spy c5")
    assert "spy f6" in legal(state)  # the second Spy still has its ability
    play(state, "spy f6")
    assert not any(a.startswith("spy") for a in legal(state))


def test_three_attacks_in_one_turn_inspected_played_and_delivered() -> None:
    # The docs once said "two attacks per turn": a Nun delivery adds a third.
    state = position(
        "0:k@c4", "0:2@hand", "0:q@a1", "1:j@c5", "1:8@d4", "1:9@e5", "1:k@f7", first=0
    )
    play(state, "inspect c4", "play 0", "place d3", "move c4 c5", "move d3 d4")
    play(state, "deliver a1", "drop e5", "end")
    verdicts = events(state, None, "verdict")
    assert [v["square"] for v in verdicts] == ["c5", "d4", "e5"]


# -- MB-35 revisited: the seed's order, moves first, then abilities -----------------------------


def _spy_played_beside_the_king(**options: object):
    # North's King on c4 faces a masked South Jack on c5; North plays a Spy onto d3.
    state = position("0:k@c4", "0:5@hand", "1:j@c5", "1:k@f7", "0:q@a1", **options)
    play(state, "inspect c4", "play 0", "place d3")
    return state


def test_an_ability_ends_the_movement_the_attack_stays_blind() -> None:
    state = _spy_played_beside_the_king()
    play(state, "spy c5")  # the Jack is revealed ...
    assert not any(a.startswith("move") for a in legal(state))  # ... too late to use it
    with pytest.raises(IllegalAction, match="abilities come after"):
        play(state, "move c4 c5")
    assert can_end(state)


def test_moves_first_then_the_ability() -> None:
    state = _spy_played_beside_the_king()
    play(state, "move c4 c5", "move d3 e4", "spy f7", "end")
    assert events(state, None, "verdict")[0]["square"] == "c5"


def test_no_ability_while_a_card_still_has_to_move() -> None:
    state = position("0:2@c3", "0:k@a1", "1:k@f7")
    play(state, "inspect c3")  # the Nun has an empty pip square: it must move first
    assert not any(a.startswith("deliver") for a in legal(state))
    with pytest.raises(IllegalAction, match="must move"):
        play(state, "deliver a1")
    play(state, "move c3 c4")
    assert "deliver a1" in legal(state)


def test_a_card_brought_in_moves_after_the_ability_that_brought_it() -> None:
    # MB-17: the Diplomat's prisoner may still move; a later ability ends that move too.
    cards = ("0:6@a1", "0:k@b1", "0:q@b2", "0:j@prison1", "0:5@hand", "1:k@f7")
    state = position(*cards)
    play(state, "inspect a1", "free 0", "place c3")
    assert "move c3 c4" in legal(state)
    state = position(*cards)
    play(state, "inspect a1", "play 0", "place d3", "free 0", "place c3", "spy f7")
    assert "move c3 c4" not in legal(state)


def test_the_interleaved_order_is_an_option() -> None:
    state = _spy_played_beside_the_king(abilities="interleaved")
    play(state, "spy c5")
    assert "move c4 c5" in legal(state)  # the King sees the Jack, then decides
