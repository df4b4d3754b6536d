"""Weapons, attachments, line of fire and the attack allowance."""

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
    put,
)

from intrigue.engine import IllegalAction
from intrigue.games.project_assassination.board import CELL
from intrigue.games.project_assassination.rules import Enemy, Weapon


def shots(state):
    return {a for a in legal(state) if a.startswith("shoot")}


def test_pistol_hits_adjacent_targets_for_one():
    state = empty_board(new())
    put(state, P1, "d4")
    enemy(state, "d3", "grunt")
    enemy(state, "d2", "grunt")
    obstacle(state, "c4")
    put(state, P2, "e4")
    assert shots(state) == {"shoot 2 d3", "shoot 2 c4", "shoot 2 e4"}
    state.apply(P1, "shoot 2 d3")
    assert hp_of(state, "d3") == 1 and state.actions == 1


def test_pa_t06_line_of_fire_stops_at_an_obstacle():
    state = new()
    arm(state, P1, "uzi")
    put(state, P1, "b7")
    north = {a for a in shots(state) if a[-2] == "b"}
    assert north == {"shoot 1 b5"}  # b4 (the preset UZI card) is no target, b3 is beyond
    put(state, P1, "d7")
    assert "shoot 1 d5" in shots(state)
    assert "shoot 1 d3" not in shots(state)  # distance 4 > range 3
    state.apply(P1, "shoot 1 d5")
    assert hp_of(state, "d5") == 1


def test_enemies_and_players_do_not_block_the_line():
    state = empty_board(new())
    arm(state, P1, "uzi")
    put(state, P1, "d7")
    enemy(state, "d6", "grunt")
    put(state, P2, "d5")
    enemy(state, "d4", "grunt")
    assert {"shoot 1 d6", "shoot 1 d5", "shoot 1 d4"} <= shots(state)


def test_shooting_an_obstacle_destroys_it_whatever_the_damage():
    state = new()
    put(state, P1, "b6")
    state.apply(P1, "shoot 2 b5")
    assert not state.obst[CELL["b5"]] and state.item_discard == ["obstacle"]


def test_pa_t07_vp_for_a_kill_and_for_a_hit_on_the_rival():
    state = empty_board(new())
    enemy(state, "d3", "grunt", hp=1)
    put(state, P1, "d4")
    put(state, P2, "c4")
    state.actions = 2
    state.apply(P1, "shoot 2 d3")
    assert state.vp[P1] == 1 and CELL["d3"] not in state.enemies
    assert "kill" in [e["kind"] for e in state.events(None)]
    state2 = empty_board(new())
    put(state2, P1, "d4")
    put(state2, P2, "c4")
    state2.apply(P1, "shoot 2 c4")
    assert (state2.vp[P1], state2.hp[P2]) == (1, 9)


def test_pa_t08_attack_allowance():
    state = empty_board(new())
    state.boots[P1] = 2
    state.actions = 4
    arm(state, P1, "uzi")
    put(state, P1, "d4")
    enemy(state, "d2", "heavy")
    enemy(state, "c4", "heavy")
    assert "shoot 2 c4" in shots(state)  # the pistol shows while slot 2 is free
    state.apply(P1, "shoot 1 d2")
    assert state.actions == 3 and shots(state) == set()
    with pytest.raises(IllegalAction, match="attack"):
        state.apply(P1, "shoot 2 c4")
    two = empty_board(new())
    arm(two, P1, "uzi", "shotgun")
    put(two, P1, "d4")
    enemy(two, "d2", "heavy")
    enemy(two, "c4", "heavy")
    assert all(not a.startswith("shoot 2 c") for a in shots(two))  # pistol covered
    two.apply(P1, "shoot 1 d2")
    assert shots(two) == {"shoot 2 w"}  # c4 is in the western blast only
    assert "shoot 1 c4" not in shots(two)  # each weapon once
    two.apply(P1, "shoot 2 w")
    assert hp_of(two, "c4") == 2 and two.to_move == (P2,)


def test_shotgun_hits_the_three_squares_in_front():
    state = empty_board(new())
    arm(state, P1, "shotgun")
    put(state, P1, "d6")
    enemy(state, "c5", "heavy")
    enemy(state, "d5", "heavy")
    enemy(state, "e5", "heavy")
    enemy(state, "d4", "heavy")
    put(state, P2, "e7")
    # c5 and e5 are side squares of the west and east blasts; e7 (the rival) of the south one
    assert shots(state) == {"shoot 1 n", "shoot 1 e", "shoot 1 w", "shoot 1 s", "shoot 2 d5"}
    state.apply(P1, "shoot 1 n")
    assert [hp_of(state, c) for c in ("c5", "d5", "e5", "d4")] == [2, 2, 2, 4]


def test_pa_t13_shotgun_with_sight():
    state = new()
    arm(state, P1, Weapon("shotgun", sight=True))
    put(state, P1, "d6")
    enemy(state, "c5", "heavy")
    state.apply(P1, "shoot 1 n")
    assert hp_of(state, "c5") == 2
    assert CELL["d5"] not in state.enemies and state.vp[P1] == 1  # the grunt died
    assert not state.obst[CELL["e5"]]  # the obstacle is destroyed
    assert state.loose.get(CELL["d4"]) == "sniper"  # d4 was hit, but a card is no target


def test_shotgun_sight_square_is_shielded_by_an_obstacle_in_the_middle():
    state = empty_board(new())
    arm(state, P1, Weapon("shotgun", sight=True))
    put(state, P1, "d6")
    obstacle(state, "d5")
    enemy(state, "d4", "grunt")
    state.apply(P1, "shoot 1 n")
    assert hp_of(state, "d4") == 2 and not state.obst[CELL["d5"]]


def test_sight_adds_range_and_muzzle_adds_damage():
    state = empty_board(new())
    state.pistol[P1] = Weapon("pistol", sight=True, muzzle=True)
    put(state, P1, "d4")
    enemy(state, "d2", "heavy")
    assert shots(state) == {"shoot 2 d2"}
    state.apply(P1, "shoot 2 d2")
    assert hp_of(state, "d2") == 2
    uzi = empty_board(new())
    arm(uzi, P1, Weapon("uzi", sight=True))
    put(uzi, P1, "d7")
    enemy(uzi, "d3", "heavy")
    assert "shoot 1 d3" in shots(uzi)


def test_no_sight_or_muzzle_on_the_sniper_or_paralysis_pistol():
    state = empty_board(new())
    arm(state, P1, "sniper", "paralysis_pistol")
    put(state, P1, "a2")
    state.points[P1] = ["sight", "muzzle"]
    state.apply(P1, "move a1")
    assert state.slots[:2] == [Weapon("sniper"), Weapon("paralysis_pistol")]
    assert state.coll_discard == ["sight", "muzzle"]


def test_one_sight_per_weapon():
    state = empty_board(new())
    state.pistol[P1] = Weapon("pistol", sight=True)
    put(state, P1, "a2")
    state.points[P1] = ["sight"]
    state.apply(P1, "move a1")
    assert state.coll_discard == ["sight"] and state.pistol[P1] == Weapon("pistol", sight=True)


def test_pa_t16_sniper_pierces_the_whole_line_and_is_discarded():
    state = new()
    state.loose.pop(CELL["d4"])
    arm(state, P1, "sniper")
    put(state, P1, "d7")
    put(state, P2, "d1")
    state.apply(P1, "shoot 1 n")
    assert CELL["d3"] not in state.enemies and CELL["d5"] not in state.enemies
    assert state.vp[P1] == 3  # two grunts and a hit on the rival
    assert state.hp[P2] == 5
    assert state.slots[0] is None and state.sniper_discard == ["sniper"]


def test_sniper_destroys_obstacles_on_its_line():
    state = empty_board(new())
    arm(state, P1, "sniper")
    put(state, P1, "a3")
    obstacle(state, "c3")
    enemy(state, "f3", "grunt")
    state.apply(P1, "shoot 1 e")
    assert not state.obst[CELL["c3"]] and CELL["f3"] not in state.enemies


def test_spent_sniper_keeps_the_turns_second_attack():
    state = empty_board(new())
    arm(state, P1, "sniper", "uzi")
    put(state, P1, "d7")
    enemy(state, "d5", "grunt")
    enemy(state, "b7", "grunt")
    state.apply(P1, "shoot 1 n")
    assert state.slots[0] is None
    assert "shoot 2 b7" in shots(state)


def test_paralysis_pistol_on_an_enemy():
    state = empty_board(new())
    arm(state, P1, "paralysis_pistol")
    put(state, P1, "d7")
    enemy(state, "d1", "heavy")
    assert "shoot 1 d1" in shots(state)  # unlimited range
    state.apply(P1, "shoot 1 d1")
    assert state.enemies[CELL["d1"]] == Enemy("heavy", 3, paralysed_by=P1)
    assert state.slots[0] is None and state.coll_discard == ["paralysis_pistol"]
    # P2 walks into its range untouched; at P1's next turn the paralysis ends
    state.apply(P1, "end")
    put(state, P2, "c2")
    state.apply(P2, "move c1")
    assert state.hp[P2] == 10
    finish_turn(state)
    assert state.to_move == (P1,)
    assert state.enemies[CELL["d1"]].paralysed_by == -1


def test_pa_t20_paralysis_pistol_on_the_rival_skips_his_turn():
    state = empty_board(new())
    arm(state, P1, "paralysis_pistol")
    put(state, P1, "a3")
    put(state, P2, "g3")
    state.apply(P1, "shoot 1 g3")
    assert (state.hp[P2], state.vp[P1]) == (9, 1)
    assert state.coll_discard == ["paralysis_pistol"]
    state.apply(P1, "end")
    # P2's turn is skipped: straight to the placement phase
    assert state.phase == "placement"
    assert "skipped" in [e["kind"] for e in state.events(None)]


def test_paralysis_pistol_reusable_option():
    state = empty_board(new(paralysis_reusable=True))
    arm(state, P1, "paralysis_pistol")
    put(state, P1, "a3")
    put(state, P2, "g3")
    state.apply(P1, "shoot 1 g3")
    assert state.slots[0] == Weapon("paralysis_pistol")


def test_grenade_hits_a_2x2_block_players_included():
    state = empty_board(new())
    put(state, P1, "a2")
    put(state, P2, "d4")
    state.points[P1] = ["grenade"]
    enemy(state, "c3", "grunt")
    enemy(state, "d3", "heavy")
    state.enemies[CELL["c4"]] = Enemy("grunt", 2, caged_by=P2)
    obstacle(state, "c4", False)
    state.apply(P1, "move a1")
    assert len(legal(state)) == 36
    state.apply(P1, "grenade c3")
    assert CELL["c3"] not in state.enemies and hp_of(state, "d3") == 2
    assert hp_of(state, "c4") == 2  # caged: untouched
    assert state.hp[P2] == 8 and state.vp[P1] == 2
    assert state.actions == 1  # free


def test_grenade_can_hurt_the_thrower():
    state = empty_board(new())
    put(state, P1, "a2")
    state.points[P1] = ["grenade"]
    state.apply(P1, "move a1")
    state.apply(P1, "grenade a1")  # the thrower still stands on a1 until the teleport
    assert state.hp[P1] == 8 and state.pos[P1] == CELL["a7"]


def test_caged_enemies_are_not_targets():
    state = empty_board(new())
    put(state, P1, "d4")
    state.enemies[CELL["d3"]] = Enemy("grunt", 2, caged_by=P2)
    state._cache = None
    assert shots(state) == set()
    with pytest.raises(IllegalAction):
        state.apply(P1, "shoot 2 d3")


def test_attacks_need_a_target():
    state = empty_board(new())
    arm(state, P1, "sniper")
    put(state, P1, "d4")
    assert shots(state) == set()


def test_muzzle_collected_onto_the_uzi_adds_one_damage():
    state = empty_board(new())
    arm(state, P1, "uzi")
    put(state, P1, "a2")
    state.points[P1] = ["muzzle"]
    state.apply(P1, "move a1")
    # two eligible weapons (the UZI and the uncovered Pistol): the player chooses
    assert legal(state) == {"attach 1", "attach 2"}
    state.apply(P1, "attach 1")
    assert state.slots[0] == Weapon("uzi", muzzle=True) and state.pos[P1] == CELL["a7"]
    enemy(state, "a4", "heavy")
    state.apply(P1, "shoot 1 a4")
    assert hp_of(state, "a4") == 2  # 1 + 1


def test_muzzle_on_the_shotgun_hits_every_square_for_three():
    state = empty_board(new())
    arm(state, P1, Weapon("shotgun", muzzle=True))
    put(state, P1, "d6")
    enemy(state, "c5", "heavy")
    enemy(state, "d5", "grunt")
    put(state, P2, "e5")
    state.apply(P1, "shoot 1 n")
    assert hp_of(state, "c5") == 1 and CELL["d5"] not in state.enemies
    assert state.hp[P2] == 7 and state.vp[P1] == 2  # the grunt's VP and one for the hit


def test_shotgun_without_sight_does_not_reach_the_second_row():
    state = empty_board(new())
    arm(state, P1, "shotgun")
    put(state, P1, "d6")
    enemy(state, "d4", "grunt")
    assert shots(state) == set()  # d4 lies only in the sighted pattern


def test_uzi_picks_one_target_on_a_line():
    state = empty_board(new())
    arm(state, P1, "uzi")
    put(state, P1, "d7")
    enemy(state, "d6", "grunt")
    enemy(state, "d5", "grunt")
    state.apply(P1, "shoot 1 d5")
    assert hp_of(state, "d5") == 1 and hp_of(state, "d6") == 2


def test_paralysis_pistol_is_stopped_by_an_obstacle():
    state = empty_board(new())
    arm(state, P1, "paralysis_pistol")
    put(state, P1, "a3")
    obstacle(state, "d3")
    put(state, P2, "g3")
    assert "shoot 1 g3" not in shots(state) and "shoot 1 d3" in shots(state)
