"""Item cards (obstacle, strategy, ambush, cover) and the effect collectibles."""

import pytest
from pa_helpers import (
    P1,
    P2,
    arm,
    empty_board,
    enemy,
    finish_turn,
    hp_of,
    legal,
    new,
    obstacle,
    only,
    put,
    touch,
)

from intrigue.engine import IllegalAction
from intrigue.games.project_assassination.board import CELL, NAMES, NO_OBSTACLE
from intrigue.games.project_assassination.rules import Enemy


def holding(*cards, board_empty=True):
    state = new()
    if board_empty:
        empty_board(state)
    state.reserve[P1] = list(cards)
    return touch(state)


def played(state, verb):
    return {a for a in legal(state) if a.split()[0] == verb}


# -- obstacles ----------------------------------------------------------------------------


def test_obstacle_goes_on_an_empty_unrestricted_square():
    state = holding("obstacle", board_empty=False)
    squares = {a.split()[1] for a in played(state, "obstacle")}
    occupied = {"b5", "c3", "e5", "f3", "d3", "d5", "b4", "f4", "e2", "c6", "d4", "a7", "g1"}
    expected = {NAMES[c] for c in range(49) if not NO_OBSTACLE[c]} - occupied
    assert squares == expected
    for bad in ("a1", "a2", "b2", "a4", "a6", "c3", "d4"):
        assert f"obstacle {bad}" not in played(state, "obstacle")
    state.apply(P1, "obstacle d6")
    assert state.obst[CELL["d6"]] and state.reserve[P1] == []


def test_obstacle_blocks_movement_and_shots():
    state = holding("obstacle")
    put(state, P1, "c4")
    enemy(state, "e4", "grunt")
    state.pistol[P1] = state.pistol[P1]._replace(sight=True)
    assert "shoot 2 e4" in legal(state)
    state.apply(P1, "obstacle d4")
    assert "move d4" not in legal(state) and "shoot 2 e4" not in legal(state)
    assert "shoot 2 d4" in legal(state)


# -- strategy -------------------------------------------------------------------------------


def test_strategy_moves_an_obstacle_up_to_two_steps():
    state = holding("strategy")
    obstacle(state, "d4")
    moves = {a for a in played(state, "strategy") if a.startswith("strategy d4")}
    assert len(moves) == 12
    state.apply(P1, "strategy d4 d2")
    assert state.obst[CELL["d2"]] and not state.obst[CELL["d4"]]
    assert state.item_discard == ["strategy"]


def test_strategy_paths_must_be_clear_and_targets_legal():
    state = holding("strategy")
    obstacle(state, "b3")
    obstacle(state, "b4")  # blocks b3 -> b5
    put(state, P2, "c3")  # blocks b3 -> d3 and one of the two ways to c2/c4
    moves = {a.split()[2] for a in played(state, "strategy") if a.startswith("strategy b3")}
    assert "b5" not in moves and "d3" not in moves
    assert "c2" in moves  # via b2 (a tunnel is passable, just not a destination)
    assert "b2" not in moves and "b1" not in moves and "a2" not in moves  # restricted squares


def test_strategy_push_may_not_pass_over_a_card_lying_on_the_board():
    # PA-27: each square passed over must be empty; PA-48: a card on the board occupies it.
    state = holding("strategy")
    put(state, P1, "a7")
    put(state, P2, "g1")
    obstacle(state, "b5")
    state.loose[CELL["b4"]] = "uzi"
    touch(state)
    moves = {a.split()[2] for a in played(state, "strategy") if a.startswith("strategy b5")}
    assert "b3" not in moves
    assert "c4" in moves  # diagonal: the path over c5 is clear, the one over b4 is not
    with pytest.raises(IllegalAction):
        state.apply(P1, "strategy b5 b3")
    del state.loose[CELL["b4"]]
    touch(state)
    assert "strategy b5 b3" in played(state, "strategy")


def test_strategy_moves_an_enemy_but_not_into_a_players_reach():
    state = holding("strategy")
    put(state, P1, "a7")
    put(state, P2, "g1")
    enemy(state, "d4", "grunt")
    moves = {a.split()[2] for a in played(state, "strategy") if a.startswith("strategy d4")}
    assert "d2" in moves and "d6" in moves
    put(state, P2, "d1")  # now the grunt on d2 would reach d1, and P2's pistol reaches d2
    moves = {a.split()[2] for a in played(state, "strategy") if a.startswith("strategy d4")}
    assert "d2" not in moves
    state.apply(P1, "strategy d4 e5")
    assert state.enemies[CELL["e5"]].kind == "grunt"


def test_caged_enemies_cannot_be_moved():
    state = holding("strategy")
    state.enemies[CELL["d4"]] = Enemy("grunt", 2, caged_by=P2)
    touch(state)
    assert not any(a.startswith("strategy d4") for a in legal(state))


# -- ambush ---------------------------------------------------------------------------------


def test_pa_t19_ambush_blocks_the_rivals_point_for_one_turn():
    state = new()
    state.apply(P1, "end")
    state.reserve[P2] = ["ambush"]
    touch(state)
    state.apply(P2, "ambush")
    assert state.view(None)["players"][P1]["ambushed"]
    assert "ambush" not in legal(state)  # not twice
    finish_turn(state)
    assert state.to_move == (P1,)
    put(state, P1, "a2")
    options = legal(state)
    assert "draw collectible" not in options and "move a1" not in options
    with pytest.raises(IllegalAction, match="ambushed"):
        state.apply(P1, "draw collectible")
    finish_turn(state)
    assert not state.ambushed[P1] and state.item_discard == ["ambush"]
    finish_turn(state)
    assert {"draw collectible", "move a1"} <= legal(state)


# -- cover ------------------------------------------------------------------------------------


def test_cover_prevents_enemy_damage_for_the_rest_of_the_turn():
    state = holding("cover")
    enemy(state, "d3", "grunt")
    put(state, P1, "c2")
    state.apply(P1, "cover")
    assert "cover" not in legal(state)
    state.apply(P1, "move d2")
    assert state.hp[P1] == 10
    finish_turn(state)
    finish_turn(state)
    put(state, P1, "c2")
    state.apply(P1, "move d2")
    assert state.hp[P1] == 7


# -- cage ---------------------------------------------------------------------------------------


def caging(**options):
    state = empty_board(new(**options))
    put(state, P1, "a2")
    state.points[P1] = ["cage"]
    enemy(state, "d3", "grunt")
    enemy(state, "e6", "heavy")
    state.apply(P1, "move a1")
    return state


def test_cage_makes_an_enemy_invulnerable_and_immovable_until_the_cagers_next_turn():
    state = caging()
    assert legal(state) == {"cage d3", "cage e6"}
    state.apply(P1, "cage d3")
    assert state.view(None)["enemies"][0]["caged"]
    state.apply(P1, "end")
    put(state, P2, "d2")
    assert "shoot 2 d3" not in legal(state)
    finish_turn(state)
    assert state.to_move == (P1,) and state.enemies[CELL["d3"]].caged_by == -1


def test_permanent_cage_option_and_the_clear_board():
    state = caging(cage="permanent")
    state.apply(P1, "cage d3")
    finish_turn(state)
    finish_turn(state)
    assert state.enemies[CELL["d3"]].caged_by != -1
    assert state.counted_enemies() == len(state.enemies) - 1


def test_cage_without_enemies_is_discarded():
    state = empty_board(new())
    put(state, P1, "a2")
    state.points[P1] = ["cage"]
    state.apply(P1, "move a1")
    assert state.phase == "turn" and state.coll_discard == ["cage"]


# -- loot crate -------------------------------------------------------------------------------


def test_pa_t12_loot_crate_overflow():
    state = empty_board(new())
    put(state, P1, "a2")
    state.reserve[P1] = ["obstacle", "obstacle", "cover", "strategy"]
    state.item_discard = ["obstacle", "ambush", "cover"]
    state.points[P1] = ["loot_crate"]
    state.apply(P1, "move a1")
    assert state.reserve[P1] == ["obstacle", "obstacle", "cover", "strategy", "cover", "ambush"]
    assert state.phase == "choice"
    assert legal(state) == {
        "discard obstacle",
        "discard cover",
        "discard strategy",
        "discard ambush",
    }
    state.apply(P1, "discard obstacle")
    assert len(state.reserve[P1]) == 5 and state.item_discard == ["obstacle", "obstacle"]
    assert state.pos[P1] == CELL["a7"]


def test_loot_crate_takes_what_there_is():
    state = empty_board(new())
    put(state, P1, "a2")
    state.item_discard = ["cover"]
    state.points[P1] = ["loot_crate", "loot_crate"]
    state.apply(P1, "move a1")
    assert state.reserve[P1] == ["cover"]
    assert state.coll_discard == ["loot_crate", "loot_crate"]  # the second found nothing


# -- health pack --------------------------------------------------------------------------------


def test_health_pack_heals_five_capped_at_ten():
    state = empty_board(new())
    put(state, P1, "a2")
    state.hp[P1] = 3
    state.points[P1] = ["health_pack", "health_pack"]
    state.apply(P1, "move a1")
    assert state.hp[P1] == 10 and state.points[P1] == []
    state2 = empty_board(new())
    put(state2, P1, "a2")
    state2.hp[P1] = 7
    state2.points[P1] = ["health_pack", "health_pack"]
    state2.apply(P1, "move a1")
    assert state2.hp[P1] == 10 and state2.points[P1] == ["health_pack"]


def test_medic_heals_neighbours_at_round_end():
    state = empty_board(new())
    enemy(state, "d4", "medic")
    enemy(state, "e5", "heavy", hp=1)
    enemy(state, "d6", "grunt", hp=1)  # outside the 3x3
    enemy(state, "c3", "medic", hp=1)
    state.enemy_deck = only()
    state.apply(P1, "end")
    state.apply(P2, "end")
    assert hp_of(state, "e5") == 2 and hp_of(state, "d6") == 1 and hp_of(state, "c3") == 2
    assert hp_of(state, "d4") == 3


def test_two_medics_heal_twice_and_never_above_maximum():
    state = empty_board(new())
    enemy(state, "c4", "medic")
    enemy(state, "e4", "medic")
    enemy(state, "d4", "heavy", hp=1)
    enemy(state, "d5", "grunt", hp=1)
    state.enemy_deck = only()
    state.apply(P1, "end")
    state.apply(P2, "end")
    assert hp_of(state, "d4") == 3  # +1 from each medic
    assert hp_of(state, "d5") == 2  # +2 capped at the grunt's 2


def test_strategy_never_pushes_an_enemy_onto_a_skull_crossed_square():
    state = holding("strategy")
    put(state, P1, "d7")
    put(state, P2, "d1")
    enemy(state, "c2", "medic")  # a Medic has no range: only the squares themselves matter
    moves = {a.split()[2] for a in played(state, "strategy") if a.startswith("strategy c2")}
    assert "b2" not in moves and "a2" in moves  # b2 is a tunnel; a2 refuses only obstacles
    assert "c4" in moves
    assert "c1" not in moves and "d2" not in moves  # P2's Pistol on d1 could hit them


def test_ambush_is_spent_on_a_skipped_turn():
    state = empty_board(new())
    state.reserve[P1] = ["ambush"]
    arm(state, P1, "paralysis_pistol")
    put(state, P1, "a3")
    put(state, P2, "g3")
    state.apply(P1, "ambush")
    state.apply(P1, "shoot 1 g3")
    state.apply(P1, "end")  # P2's turn is skipped, and the ambush with it
    assert state.phase == "placement"
    assert not state.ambushed[P2] and state.item_discard == ["ambush"]
