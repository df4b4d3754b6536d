"""Rendezvous points: collecting, using at once, teleporting (PA-21, PA-22, PA-35, PA-44)."""

import pytest
from pa_helpers import P1, P2, arm, empty_board, enemy, legal, new, play, put

from intrigue.engine import IllegalAction
from intrigue.games.project_assassination.board import CELL
from intrigue.games.project_assassination.rules import Weapon


def at_point(*cards, hp=10):
    """Player 1 on a2, one step from his point a1 holding these cards."""
    state = empty_board(new())
    put(state, P1, "a2")
    state.points[P1] = list(cards)
    state.hp[P1] = hp
    return state


def test_pa_t04_rendezvous_dodge():
    state = at_point("health_pack", hp=6)
    enemy(state, "b1", "grunt")
    state.apply(P1, "move a1")
    assert state.hp[P1] == 10
    assert state.pos[P1] == CELL["a7"]
    assert state.actions == 1  # only the step cost an action
    assert state.points[P1] == []
    assert "hurt" not in [e["kind"] for e in state.events(None)]


def test_teleport_happens_from_an_empty_point_too():
    state = at_point()
    state.apply(P1, "move a1")
    assert state.pos[P1] == CELL["a7"]


def test_pa_t11_health_pack_stays_at_full_health():
    state = at_point("health_pack", "sight")
    state.apply(P1, "move a1")
    assert state.pistol[P1].sight  # the Sight went on the Pistol, the only weapon
    assert state.points[P1] == ["health_pack"]
    assert state.pos[P1] == CELL["a7"]


def test_teleport_lands_on_spawn_and_takes_damage_there():
    state = at_point()
    enemy(state, "a5", "heavy")
    state.apply(P1, "move a1")
    assert state.hp[P1] == 5


def test_occupied_spawn_sends_to_the_nearest_empty_square_player_choosing():
    state = at_point()
    put(state, P2, "a7")
    state.apply(P1, "move a1")
    assert state.phase == "choice"
    assert legal(state) == {"teleport a6", "teleport b7"}
    state.apply(P1, "teleport b7")
    assert state.pos[P1] == CELL["b7"] and state.phase == "turn"
    assert state.actions == 1


def test_single_nearest_square_is_automatic():
    state = at_point()
    put(state, P2, "a7")
    enemy(state, "a6", "grunt")  # far from the point; only b7 remains at distance 1
    state.apply(P1, "move a1")
    assert state.pos[P1] == CELL["b7"] and state.phase == "turn"


def test_ambushed_point_cannot_be_entered():
    state = at_point("health_pack")
    state.ambushed[P1] = True
    assert "move a1" not in legal(state)
    with pytest.raises(IllegalAction, match="ambushed"):
        state.apply(P1, "move a1")


def test_weapons_go_to_slot_1_then_slot_2_covering_the_pistol():
    state = at_point("uzi", "shotgun")
    state.apply(P1, "move a1")
    assert [w.kind for w in state.slots[:2]] == ["uzi", "shotgun"]
    assert state.view(None)["players"][P1]["pistol"]["usable"] is False


def test_third_weapon_choose_which_two_to_keep():
    state = at_point("paralysis_pistol")
    arm(state, P1, "uzi", "shotgun")
    state.apply(P1, "move a1")
    assert state.phase == "choice" and legal(state) == {"replace 1", "replace 2", "decline"}
    state.apply(P1, "replace 2")
    assert [w.kind for w in state.slots[:2]] == ["uzi", "paralysis_pistol"]
    assert state.coll_discard == ["shotgun"] and state.pos[P1] == CELL["a7"]


def test_declining_a_weapon_discards_it():
    state = at_point("shotgun")
    arm(state, P1, "uzi", "uzi")
    state.apply(P1, "move a1")
    state.apply(P1, "decline")
    assert [w.kind for w in state.slots[:2]] == ["uzi", "uzi"]
    assert state.coll_discard == ["shotgun"]


def test_a_discarded_weapon_takes_its_attachments_with_it():
    state = at_point("shotgun")
    arm(state, P1, Weapon("uzi", sight=True, muzzle=True), "uzi")
    state.apply(P1, "move a1")
    state.apply(P1, "replace 1")
    assert state.slots[0] == Weapon("shotgun")
    assert state.coll_discard == ["uzi", "sight", "muzzle"]


def test_collected_weapons_are_used_before_sights_so_a_sight_can_go_on_them():
    state = at_point("sight", "uzi")
    arm(state, P1, "shotgun")
    state.apply(P1, "move a1")
    assert state.phase == "choice" and legal(state) == {"attach 1", "attach 2"}
    state.apply(P1, "attach 2")
    assert state.slots[1] == Weapon("uzi", sight=True)


def test_third_boot_is_discarded():
    state = at_point("boot", "boot")
    state.boots[P1] = 1
    state.apply(P1, "move a1")
    assert state.boots[P1] == 2 and state.coll_discard == ["boot"]


def test_preset_uzi_is_equipped_without_teleport():
    state = new()
    put(state, P1, "a4")
    state.apply(P1, "move b4")
    assert state.slots[0] == Weapon("uzi") and state.pos[P1] == CELL["b4"]


def test_several_prompts_in_a_row_then_teleport():
    state = at_point("grenade", "cage")
    enemy(state, "d5", "grunt")
    state.apply(P1, "move a1")
    assert state.prompt == ("cage", "cage")
    state.apply(P1, "cage d5")
    assert state.prompt == ("grenade", "grenade")
    state.apply(P1, "grenade f1")
    assert state.pos[P1] == CELL["a7"] and state.phase == "turn"
    assert state.view(None)["prompt"] is None
    play(state, "end")
    assert state.to_move == (P2,)
