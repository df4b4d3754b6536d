"""Static data of Project Assassination: the 7x7 bar board, the decks and the card tables.

Everything here is an immutable module-level constant built once at import (RULINGS §3.4).
Cells are integers 0..48, ``row * 7 + column``; their names are ``a1`` (top left) to ``g7``
(bottom right): columns A-G run left to right and rows 1-7 top to bottom, so *north* is
towards row 1.
"""

from __future__ import annotations

from typing import NamedTuple

SIZE = 7
CELLS = SIZE * SIZE
COLUMNS = "abcdefg"


def cell_name(cell: int) -> str:
    return f"{COLUMNS[cell % SIZE]}{cell // SIZE + 1}"


NAMES: tuple[str, ...] = tuple(cell_name(c) for c in range(CELLS))
CELL: dict[str, int] = {name: c for c, name in enumerate(NAMES)}

# Directions as (dx, dy); y grows towards row 7 (south).
DIRECTIONS: dict[str, tuple[int, int]] = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
DIRECTION_NAMES = {"n": "north", "e": "east", "s": "south", "w": "west"}


def _at(x: int, y: int) -> int:
    """The cell at column x, row y, or -1 off the board."""
    return y * SIZE + x if 0 <= x < SIZE and 0 <= y < SIZE else -1


def _ray(cell: int, d: str) -> tuple[int, ...]:
    dx, dy = DIRECTIONS[d]
    x, y = cell % SIZE + dx, cell // SIZE + dy
    out = []
    while _at(x, y) >= 0:
        out.append(_at(x, y))
        x, y = x + dx, y + dy
    return tuple(out)


# RAYS[cell][d]: the cells met going from ``cell`` in direction d, nearest first.
RAYS: tuple[dict[str, tuple[int, ...]], ...] = tuple(
    {d: _ray(c, d) for d in DIRECTIONS} for c in range(CELLS)
)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r[0] for r in RAYS[c].values() if r) for c in range(CELLS)
)


def _between(a: int, b: int) -> tuple[int, ...] | None:
    """The cells strictly between a and b when they share a row or column, else None."""
    if a == b:
        return None
    for ray in RAYS[a].values():
        if b in ray:
            return ray[: ray.index(b)]
    return None


# BETWEEN[a * 49 + b]: cells strictly between two aligned cells (None when not aligned);
# DISTANCE[a * 49 + b]: their distance when aligned (0 otherwise). Used for every range test.
BETWEEN: tuple[tuple[int, ...] | None, ...] = tuple(
    _between(a, b) for a in range(CELLS) for b in range(CELLS)
)
DISTANCE: tuple[int, ...] = tuple(0 if between is None else len(between) + 1 for between in BETWEEN)


def _shotgun(cell: int, d: str) -> tuple[int, int, int, int]:
    """(front, side, side, beyond) cells of a shotgun blast; -1 where off the board (PA-9)."""
    dx, dy = DIRECTIONS[d]
    x, y = cell % SIZE, cell // SIZE
    fx, fy = x + dx, y + dy
    return (_at(fx, fy), _at(fx + dy, fy + dx), _at(fx - dy, fy - dx), _at(fx + dx, fy + dy))


SHOTGUN: tuple[dict[str, tuple[int, int, int, int]], ...] = tuple(
    {d: _shotgun(c, d) for d in DIRECTIONS} for c in range(CELLS)
)


def _within_two(cell: int) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """Cells at 1 or 2 orthogonal steps, each with its possible paths' intermediate squares."""
    x, y = cell % SIZE, cell // SIZE
    out = []
    for dx in range(-2, 3):
        for dy in range(-2, 3):
            dist = abs(dx) + abs(dy)
            target = _at(x + dx, y + dy)
            if not 1 <= dist <= 2 or target < 0:
                continue
            if dist == 1:
                paths: tuple[tuple[int, ...], ...] = ((),)
            elif dx == 0 or dy == 0:
                paths = ((_at(x + dx // 2, y + dy // 2),),)
            else:
                paths = ((_at(x + dx, y),), (_at(x, y + dy),))
            out.append((target, paths))
    return tuple(out)


# STRATEGY_REACH[cell]: where a Strategy card may push a piece from ``cell`` (PA-27).
STRATEGY_REACH = tuple(_within_two(c) for c in range(CELLS))

# 2x2 grenade blocks by their top-left corner (PA-15).
GRENADE_CORNERS: tuple[int, ...] = tuple(
    c for c in range(CELLS) if c % SIZE < SIZE - 1 and c // SIZE < SIZE - 1
)
GRENADE_BLOCK: dict[int, tuple[int, int, int, int]] = {
    c: (c, c + 1, c + SIZE, c + SIZE + 1) for c in GRENADE_CORNERS
}


def manhattan(a: int, b: int) -> int:
    return abs(a % SIZE - b % SIZE) + abs(a // SIZE - b // SIZE)


# -- the bar board (RULINGS §3.4, PROPOSAL) ------------------------------------------------

FEATURES = """
R1 .  .  .  .  .  S2
.  Ta .  .  Bo Tb .
.  .  Ob Gr .  Ob .
HP Uz .  Sn .  Uz HP
.  Ob .  Gr Ob .  .
.  Ta Bo .  .  Tb .
S1 .  .  .  .  .  R2
"""

# b: no enemy and no obstacle; o: no obstacle; .: free.
RESTRICTIONS = """
b o . . . b b
o b . . . b b
. . . . . . .
b . . . . . b
. . . . . . .
b b . . . b o
b b . . . o b
"""


def _grid(text: str) -> tuple[str, ...]:
    tokens = text.split()
    assert len(tokens) == CELLS
    return tuple(tokens)


FEATURE_GRID = _grid(FEATURES)
RESTRICTION_GRID = _grid(RESTRICTIONS)


def _cells_with(token: str) -> tuple[int, ...]:
    return tuple(c for c, t in enumerate(FEATURE_GRID) if t == token)


# Player numbers 1 and 2 (P1 moves first); indexed by number.
SPAWN = {1: _cells_with("S1")[0], 2: _cells_with("S2")[0]}
POINT = {1: _cells_with("R1")[0], 2: _cells_with("R2")[0]}
HEAL_POINTS: tuple[int, ...] = _cells_with("HP")
SNIPER_CELL = _cells_with("Sn")[0]


def _tunnels() -> dict[int, int]:
    out = {}
    for token in ("Ta", "Tb"):
        a, b = _cells_with(token)
        out[a], out[b] = b, a
    return out


TUNNELS: dict[int, int] = _tunnels()
PRESET_OBSTACLES: tuple[int, ...] = _cells_with("Ob")
PRESET_GRUNTS: tuple[int, ...] = _cells_with("Gr")
PRESET_COLLECTIBLES: dict[int, str] = {
    **{c: "boot" for c in _cells_with("Bo")},
    **{c: "uzi" for c in _cells_with("Uz")},
    SNIPER_CELL: "sniper",
}
NO_ENEMY: tuple[bool, ...] = tuple(t == "b" for t in RESTRICTION_GRID)
NO_OBSTACLE: tuple[bool, ...] = tuple(t in "bo" for t in RESTRICTION_GRID)

# -- cards ---------------------------------------------------------------------------------

ITEMS = ("obstacle", "strategy", "ambush", "cover")
WEAPONS = ("uzi", "shotgun", "sniper", "paralysis_pistol")
COLLECTIBLES = (
    "boot",
    "health_pack",
    "cage",
    "loot_crate",
    "sight",
    "muzzle",
    "uzi",
    "shotgun",
    "grenade",
    "paralysis_pistol",
)
ENEMIES = ("grunt", "heavy", "medic", "boss")


def _deck(counts: dict[str, int]) -> tuple[str, ...]:
    return tuple(card for card, n in counts.items() for _ in range(n))


# Deck contents with the preset cards removed (RULINGS §3.4): 15, 30 and 5 cards.
ITEM_DECK = _deck({"obstacle": 6, "strategy": 3, "ambush": 3, "cover": 3})
COLLECTIBLE_DECK = _deck(
    {
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
)
ENEMY_DECK = _deck({"heavy": 2, "medic": 2, "boss": 1})


class WeaponStats(NamedTuple):
    range: int  # 0: a pattern weapon (Shotgun) or a whole line (Sniper)
    damage: int
    single_use: bool
    moddable: bool  # takes a Sight and a Muzzle (PA-12)


# PROPOSAL numbers of RULINGS §3.4; an unlimited range is the board's width.
WEAPON_STATS: dict[str, WeaponStats] = {
    "pistol": WeaponStats(1, 1, False, True),
    "uzi": WeaponStats(3, 1, False, True),
    "shotgun": WeaponStats(0, 2, False, True),
    "sniper": WeaponStats(0, 5, True, False),
    "paralysis_pistol": WeaponStats(SIZE, 1, True, False),
}
GRENADE_DAMAGE = 2


class EnemyStats(NamedTuple):
    range: int  # 0: never attacks (the Medic)
    damage: int
    hp: int
    vp: int


ENEMY_STATS: dict[str, EnemyStats] = {
    "grunt": EnemyStats(1, 3, 2, 1),
    "heavy": EnemyStats(2, 5, 4, 3),
    "medic": EnemyStats(0, 0, 3, 3),
    "boss": EnemyStats(5, 5, 10, 10),
}
BOSS_NEEDS = 5  # enemies on the board before the Boss may enter (PA-19)

MAX_HP = 10
WIN_VP = 12
MAX_RESERVE = 5
BASE_ACTIONS = 2
MAX_BOOTS = 2
HEAL_POINT_HP = 2
HEALTH_PACK_HP = 5
MEDIC_HEAL = 1
