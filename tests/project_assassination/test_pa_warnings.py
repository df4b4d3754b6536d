"""Warnings before costly moves (issue #17, item 2): a Project Assassination move that ends in
an enemy's range says so in its menu text (the terminal's menu, the page's buttons and the
board's square titles), from the public view only."""

from __future__ import annotations

import copy

import intrigue
from intrigue.engine import Action

GAME = intrigue.load("project-assassination")


def _view_with(enemies, obstacles=(), cover=False):
    state = GAME.new(seed=1, first_player=0)
    view = copy.deepcopy(state.view(0))
    view["turn"] = {**view["turn"], "seat": 0, "cover": cover}
    view["players"][0]["point"], view["players"][0]["spawn"] = "a1", "g1"
    view["enemies"] = [
        {"cell": c, "kind": k, "hp": 2, "max_hp": 2, "paralysed": p, "caged": False}
        for c, k, p in enemies
    ]
    view["obstacles"] = list(obstacles)
    view["loose"] = {}
    return view


def _move(cell, view):
    return GAME.describe_action(Action("move", cell), view)


def test_a_move_into_enemy_range_names_the_enemies_and_the_damage():
    view = _view_with([("c5", "grunt", False), ("c2", "heavy", False)])
    assert (
        _move("c4", view) == "Move to C4 — in range of the Grunt on C5, the Heavy on C2: 8 damage"
    )
    assert _move("e4", view) == "Move to E4"  # not in line with either


def test_obstacles_paralysis_and_cover_take_the_warning_away():
    blocked = _view_with([("c2", "heavy", False)], obstacles=["c3"])
    assert _move("c4", blocked) == "Move to C4"
    assert _move("c4", _view_with([("c5", "grunt", True)])) == "Move to C4"
    assert _move("c4", _view_with([("c5", "grunt", False)], cover=True)) == "Move to C4"


def test_the_warning_is_about_where_the_move_really_ends():
    # Your own rendezvous point sends you back to your spawn: the danger is the spawn's.
    view = _view_with([("g2", "grunt", False), ("a2", "grunt", False)])
    assert _move("a1", view).endswith("in range of the Grunt on G2: 3 damage")
