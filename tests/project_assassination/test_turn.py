"""A turn: drawing, the reserve, moving, board features and enemy damage."""

import pytest
from pa_helpers import (
    P1,
    P2,
    empty_board,
    enemy,
    finish_turn,
    legal,
    new,
    next_round,
    obstacle,
    only,
    play,
    put,
    stack,
    touch,
)

from intrigue.engine import IllegalAction
from intrigue.games.project_assassination.board import CELL, COLLECTIBLE_DECK
from intrigue.games.project_assassination.rules import Enemy


def p2_turn(**options):
    """A game at Player 2's first turn (Player 1 passed)."""
    state = new(**options)
    state.apply(P1, "end")
    return state


# -- drawing and the reserve -------------------------------------------------------------


def test_drawing_an_item_puts_it_in_the_public_reserve():
    state = p2_turn(item_deck=["strategy"])
    state.apply(P2, "draw item")
    assert state.reserve[P2] == ["strategy"]
    assert state.view(P1)["players"][P2]["reserve"] == ["strategy"]
    assert state.view(None)["decks"]["item"] == 14
    # one draw per turn, and only before Items and actions
    assert not {"draw item", "draw collectible"} & legal(state)


def test_a_drawn_collectible_goes_onto_your_own_rendezvous_point():
    state = p2_turn(collectible_deck=stack(COLLECTIBLE_DECK, "sight"))
    state.apply(P2, "draw collectible")
    assert state.view(None)["players"][P2]["point_cards"] == ["sight"]
    assert state.points[P1] == []


def test_drawing_is_optional_and_ends_with_the_first_item_or_action():
    state = p2_turn()
    state.apply(P2, "move f1")
    assert not {"draw item", "draw collectible"} & legal(state)


def test_reserve_of_five_blocks_item_draws_until_one_is_discarded():
    state = p2_turn()
    state.reserve[P2] = ["cover"] * 5
    touch(state)
    options = legal(state)
    assert "draw item" not in options and "discard cover" in options
    assert "draw collectible" in options
    with pytest.raises(IllegalAction, match="reserve is full"):
        state.apply(P2, "draw item")
    state.apply(P2, "discard cover")
    assert state.item_discard == ["cover"] and len(state.reserve[P2]) == 4
    state.apply(P2, "draw item")
    assert len(state.reserve[P2]) == 5


def test_discard_only_makes_room_for_a_draw():
    state = p2_turn()
    state.reserve[P2] = ["cover"] * 4
    touch(state)
    assert "discard cover" not in legal(state)


def test_items_only_before_the_first_action():
    state = p2_turn()
    state.reserve[P2] = ["cover"]
    touch(state)
    assert "cover" in legal(state)
    state.apply(P2, "move f1")
    assert "cover" not in legal(state)
    with pytest.raises(IllegalAction, match="before your first move"):
        state.apply(P2, "cover")


def test_empty_decks_cannot_be_drawn():
    state = p2_turn()
    state.item_deck = only()
    state.coll_deck = only()
    touch(state)
    assert not {"draw item", "draw collectible"} & legal(state)
    with pytest.raises(IllegalAction, match="empty"):
        state.apply(P2, "draw item")


# -- moving -----------------------------------------------------------------------------------


def test_moves_are_orthogonal_and_cost_one_action_two_per_turn():
    state = new()
    assert {a for a in legal(state) if a.startswith("move")} == {"move a6", "move b7"}
    with pytest.raises(IllegalAction, match="not next to you"):
        state.apply(P1, "move b6")
    state.apply(P1, "move a6")
    assert state.actions == 1
    state.apply(P1, "move a5")
    assert state.to_move == (P2,)  # the turn ends by itself with no action left


def test_boots_add_actions_up_to_four():
    state = new()
    state.boots[P1] = 2
    next_round(state)
    assert state.to_move == (P1,) and state.actions == 4


def test_collecting_a_preset_boot_gives_an_action_from_the_next_turn():
    state = empty_board(new())
    state.loose = {CELL["a6"]: "boot"}
    state.apply(P1, "move a6")
    assert state.boots[P1] == 1 and state.pos[P1] == CELL["a6"]  # no teleport (PA-22)
    assert CELL["a6"] not in state.loose
    finish_turn(state)
    assert state.turns == 1
    finish_turn(state)
    assert state.to_move == (P1,) and state.actions == 3


def test_players_obstacles_and_enemies_block_squares():
    state = empty_board(new())
    put(state, P1, "d4")
    put(state, P2, "d3")
    obstacle(state, "c4")
    enemy(state, "e4", "grunt")
    moves = {a for a in legal(state) if a.startswith("move")}
    assert moves == {"move d5"}
    with pytest.raises(IllegalAction, match="rival stands"):
        state.apply(P1, "move d3")
    with pytest.raises(IllegalAction, match="obstacle"):
        state.apply(P1, "move c4")


def test_rival_rendezvous_point_is_impassable():
    state = empty_board(new())
    put(state, P1, "g6")
    assert "move g7" not in legal(state)
    with pytest.raises(IllegalAction, match="rival's rendezvous"):
        state.apply(P1, "move g7")


def test_end_is_always_available_and_passes_the_turn():
    state = new()
    assert "end" in legal(state)
    state.apply(P1, "end")
    assert state.to_move == (P2,)


# -- tunnels and heal points ---------------------------------------------------------------


def test_pa_t15_tunnel():
    state = new()
    put(state, P1, "b7")
    state.apply(P1, "move b6")
    assert state.pos[P1] == CELL["b2"] and state.actions == 1
    assert "tunnel" in [e["kind"] for e in state.events(None)]


def test_tunnel_with_an_occupied_partner_does_not_teleport_and_does_not_chain():
    state = empty_board(new())
    put(state, P1, "b7")
    put(state, P2, "b2")
    state.apply(P1, "move b6")
    assert state.pos[P1] == CELL["b6"]
    state2 = empty_board(new())
    put(state2, P1, "c2")
    state2.apply(P1, "move b2")
    assert state2.pos[P1] == CELL["b6"]  # arrival on b6 does not send him back


def test_pa_t14_heal_point_once_per_turn():
    state = empty_board(new())
    put(state, P1, "a5")
    state.hp[P1] = 5
    state.actions = 3
    touch(state)
    play(state, "move a4")
    assert state.hp[P1] == 7
    play(state, "move a3", "move a4")
    assert state.hp[P1] == 7


def test_heal_point_stepped_on_at_full_health_stays_available():
    state = empty_board(new())
    put(state, P1, "a5")
    state.actions = 4
    touch(state)
    play(state, "move a4")
    state.hp[P1] = 6
    play(state, "move a3", "move a4")
    assert state.hp[P1] == 8


def test_heal_point_caps_at_ten():
    state = empty_board(new())
    put(state, P1, "a5")
    state.hp[P1] = 9
    play(state, "move a4")
    assert state.hp[P1] == 10


# -- enemy damage -----------------------------------------------------------------------------


def test_pa_t02_entering_a_grunt_range():
    state = new()
    put(state, P1, "c2")
    state.apply(P1, "move d2")
    assert state.hp[P1] == 7


def test_pa_t03_the_sniper_square_costs_six_and_equips_the_sniper():
    state = new()
    put(state, P1, "c4")
    state.apply(P1, "move d4")
    assert state.hp[P1] == 4
    assert state.slots[0] is not None and state.slots[0].kind == "sniper"
    assert CELL["d4"] not in state.loose


def test_pa_t05_two_enemies_both_hit():
    state = empty_board(new())
    enemy(state, "c3", "grunt")
    enemy(state, "e1", "heavy")
    put(state, P1, "c2")
    state.apply(P1, "move c1")
    assert state.hp[P1] == 10 - 5  # the heavy reaches c1 along row 1; the grunt does not
    state3 = empty_board(new())
    enemy(state3, "d3", "grunt")
    enemy(state3, "d6", "heavy")
    put(state3, P1, "c4")
    state3.apply(P1, "move d4")
    assert state3.hp[P1] == 10 - 3 - 5


def test_damage_again_on_every_move_inside_the_range():
    state = empty_board(new())
    enemy(state, "d1", "heavy")
    put(state, P1, "d3")
    state.apply(P1, "move d4")  # out of range 2
    assert state.hp[P1] == 10
    state.apply(P1, "move d3")
    assert state.hp[P1] == 5


def test_obstacles_shield_from_enemies_and_medics_never_attack():
    state = empty_board(new())
    enemy(state, "d1", "heavy")
    obstacle(state, "d2")
    enemy(state, "c4", "medic")
    put(state, P1, "c5")
    state.apply(P1, "move d5")
    put(state, P1, "e3")
    state.apply(P1, "move d3")
    assert state.hp[P1] == 10


def test_paralysed_enemies_deal_nothing_caged_ones_still_do():
    state = empty_board(new())
    state.enemies[CELL["d3"]] = Enemy("grunt", 2, paralysed_by=P2)
    put(state, P1, "c2")
    state.apply(P1, "move d2")
    assert state.hp[P1] == 10
    caged = empty_board(new())
    caged.enemies[CELL["f5"]] = Enemy("grunt", 2, caged_by=P2)
    put(caged, P1, "e4")
    caged.apply(P1, "move f4")
    assert caged.hp[P1] == 7


def test_heal_point_before_damage_on_the_same_step():
    state = empty_board(new())
    enemy(state, "b4", "grunt")
    put(state, P1, "a5")
    state.hp[P1] = 2
    state.apply(P1, "move a4")
    assert state.hp[P1] == 1 and not state.is_over


def test_illegal_actions_leave_the_state_unchanged():
    state = new()
    before = (state.view(None), state.log_length)
    for text in ("move d4", "draw item", "shoot 1 a6", "place c4", "replace 1"):
        with pytest.raises(IllegalAction):
            state.apply(P1, text)
    assert (state.view(None), state.log_length) == before
    with pytest.raises(IllegalAction, match="not this seat's turn"):
        state.apply(P2, "end")


def test_enemy_damage_is_taken_at_the_tunnel_exit_not_the_entrance():
    state = empty_board(new())
    enemy(state, "c2", "grunt")  # next to the exit b2
    enemy(state, "d6", "heavy")  # covers the entrance b6 along row 6 (distance 2)
    put(state, P1, "b7")
    state.apply(P1, "move b6")
    assert state.pos[P1] == CELL["b2"]
    assert state.hp[P1] == 7  # only the grunt at the exit


def test_boss_range_five_reaches_across_the_bar_unless_an_obstacle_stands_between():
    state = empty_board(new())
    enemy(state, "g4", "boss")
    put(state, P1, "a3")
    state.apply(P1, "move b3")  # not aligned with g4: safe
    assert state.hp[P1] == 10
    state.apply(P1, "move b4")  # five squares west of the boss
    assert state.hp[P1] == 5
    shielded = empty_board(new())
    enemy(shielded, "g4", "boss")
    obstacle(shielded, "e4")
    put(shielded, P1, "b3")
    shielded.apply(P1, "move b4")
    assert shielded.hp[P1] == 10
    far = empty_board(new())
    enemy(far, "g4", "boss")
    put(far, P1, "a3")
    far.apply(P1, "move a4")  # six squares away (a heal point at full health)
    assert far.hp[P1] == 10


def test_the_view_says_whether_a_draw_is_still_open():
    state = p2_turn()
    assert state.view(P2)["turn"]["may_draw"]
    state.reserve[P2] = ["cover"] * 5
    state.ambushed[P2] = True
    touch(state)
    # full reserve and an ambushed point: no draw, whatever the stage
    assert not {"draw item", "draw collectible"} & legal(state)
    assert not state.view(P2)["turn"]["may_draw"]
    state.ambushed[P2] = False
    touch(state)
    assert state.view(P2)["turn"]["may_draw"]
    state.apply(P2, "draw collectible")
    assert not state.view(P2)["turn"]["may_draw"]
    first = new()
    assert not first.view(P1)["turn"]["may_draw"]  # Player 1's first turn
