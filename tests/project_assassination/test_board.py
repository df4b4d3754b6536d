"""The board, the decks and the card tables as data (RULINGS §3.4)."""

from collections import Counter, deque

from intrigue.games.project_assassination import GAME
from intrigue.games.project_assassination.board import (
    CELL,
    COLLECTIBLE_DECK,
    ENEMY_DECK,
    ENEMY_STATS,
    HEAL_POINTS,
    ITEM_DECK,
    NAMES,
    NEIGHBOURS,
    NO_ENEMY,
    NO_OBSTACLE,
    POINT,
    PRESET_COLLECTIBLES,
    PRESET_GRUNTS,
    PRESET_OBSTACLES,
    SHOTGUN,
    SNIPER_CELL,
    SPAWN,
    TUNNELS,
    WEAPON_STATS,
)


def names(cells):
    return sorted(NAMES[c] for c in cells)


def test_cell_names_run_a1_top_left_to_g7_bottom_right():
    assert NAMES[0] == "a1" and NAMES[6] == "g1" and NAMES[42] == "a7" and NAMES[48] == "g7"
    assert CELL["d4"] == 24


def test_feature_squares_match_the_proposal():
    assert (NAMES[SPAWN[1]], NAMES[SPAWN[2]]) == ("a7", "g1")
    assert (NAMES[POINT[1]], NAMES[POINT[2]]) == ("a1", "g7")
    assert NAMES[SNIPER_CELL] == "d4"
    assert names(PRESET_OBSTACLES) == ["b5", "c3", "e5", "f3"]
    assert names(PRESET_GRUNTS) == ["d3", "d5"]
    assert {NAMES[c]: k for c, k in PRESET_COLLECTIBLES.items()} == {
        "e2": "boot",
        "c6": "boot",
        "b4": "uzi",
        "f4": "uzi",
        "d4": "sniper",
    }
    assert {NAMES[a]: NAMES[b] for a, b in TUNNELS.items()} == {
        "b2": "b6",
        "b6": "b2",
        "f2": "f6",
        "f6": "f2",
    }
    assert names(HEAL_POINTS) == ["a4", "g4"]


def test_restricted_squares():
    no_enemy = names(c for c in range(49) if NO_ENEMY[c])
    assert no_enemy == sorted(
        ["a1", "f1", "g1", "b2", "f2", "g2", "a4", "g4", "a6", "b6", "f6", "a7", "b7", "g7"]
    )
    obstacle_only = names(c for c in range(49) if NO_OBSTACLE[c] and not NO_ENEMY[c])
    assert obstacle_only == ["a2", "b1", "f7", "g6"]
    # spawns, points, tunnels and heal points never take an obstacle or an enemy
    special = {*SPAWN.values(), *POINT.values(), *TUNNELS, *HEAL_POINTS}
    assert all(NO_ENEMY[c] and NO_OBSTACLE[c] for c in special)


def rotate(cell):
    return 48 - cell


def test_board_is_symmetric_under_half_turn_with_players_swapped():
    assert rotate(SPAWN[1]) == SPAWN[2] and rotate(POINT[1]) == POINT[2]
    for group in (PRESET_OBSTACLES, PRESET_GRUNTS, HEAL_POINTS, tuple(TUNNELS)):
        assert {rotate(c) for c in group} == set(group)
    assert {rotate(c): k for c, k in PRESET_COLLECTIBLES.items()} == PRESET_COLLECTIBLES
    assert [NO_ENEMY[rotate(c)] for c in range(49)] == list(NO_ENEMY)
    assert [NO_OBSTACLE[rotate(c)] for c in range(49)] == list(NO_OBSTACLE)


def steps(start, goal, forbidden):
    """Shortest path in moves on the set-up board (tunnels count as one move)."""
    blocked = set(PRESET_OBSTACLES) | set(PRESET_GRUNTS) | set(forbidden)
    seen, todo = {start: 0}, deque([start])
    while todo:
        cell = todo.popleft()
        for n in NEIGHBOURS[cell]:
            if n in blocked:
                continue
            n = TUNNELS.get(n, n)
            if n not in seen:
                seen[n] = seen[cell] + 1
                todo.append(n)
    return seen.get(goal)


def test_shortest_paths_of_the_proposal():
    s1, rival_point = SPAWN[1], POINT[2]
    assert steps(s1, POINT[1], [rival_point]) == 4
    assert steps(s1, CELL["c6"], [rival_point]) == 3  # own-side boot
    assert steps(s1, CELL["b4"], [rival_point]) == 4  # own-side UZI
    assert steps(s1, CELL["a4"], [rival_point]) == 3  # own-side heal point
    assert steps(s1, CELL["d4"], [rival_point]) == 6  # the Sniper
    assert steps(SPAWN[2], CELL["c6"], [POINT[1]]) == 5  # the other side's boot


def test_deck_compositions():
    assert Counter(ITEM_DECK) == {"obstacle": 6, "strategy": 3, "ambush": 3, "cover": 3}
    assert Counter(COLLECTIBLE_DECK) == {
        "boot": 2,
        "health_pack": 3,
        "cage": 3,
        "loot_crate": 3,
        "sight": 3,
        "muzzle": 3,
        "uzi": 3,
        "shotgun": 5,
        "grenade": 3,
        "paralysis_pistol": 2,
    }
    assert Counter(ENEMY_DECK) == {"heavy": 2, "medic": 2, "boss": 1}
    on_board = 4 + len(PRESET_COLLECTIBLES) + len(PRESET_GRUNTS)
    assert len(ITEM_DECK) + len(COLLECTIBLE_DECK) + len(ENEMY_DECK) + on_board == 61


def test_weapon_and_enemy_tables():
    assert {k: (w.range, w.damage, w.single_use) for k, w in WEAPON_STATS.items()} == {
        "pistol": (1, 1, False),
        "uzi": (3, 1, False),
        "shotgun": (0, 2, False),
        "sniper": (0, 5, True),
        "paralysis_pistol": (7, 1, True),
    }
    assert {k: tuple(e) for k, e in ENEMY_STATS.items()} == {
        "grunt": (1, 3, 2, 1),
        "heavy": (2, 5, 4, 3),
        "medic": (0, 0, 3, 3),
        "boss": (5, 5, 10, 10),
    }
    assert (
        sum(
            ENEMY_STATS[k].vp
            for k in ("grunt", "grunt", "heavy", "heavy", "medic", "medic", "boss")
        )
        == 2 * 1 + 2 * 3 + 2 * 3 + 10
    )


def test_shotgun_pattern_is_the_front_row_and_the_square_beyond():
    front, side1, side2, beyond = SHOTGUN[CELL["d6"]]["n"]
    assert NAMES[front] == "d5" and {NAMES[side1], NAMES[side2]} == {"c5", "e5"}
    assert NAMES[beyond] == "d4"
    front, side1, side2, beyond = SHOTGUN[CELL["a1"]]["e"]
    assert NAMES[front] == "b1" and -1 in (side1, side2) and NAMES[beyond] == "c1"


def test_action_table_is_fixed_and_parses_back():
    table = list(GAME.action_table)
    assert len(table) == GAME.num_actions
    for action in table:
        assert GAME.parse_action(str(action)) == action
    for text in ("move d4", "shoot 1 d5", "shoot 2 n", "strategy d3 d1", "grenade f6", "end"):
        assert str(GAME.parse_action(text)) == text
