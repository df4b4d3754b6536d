"""Static tables of Shadows over Japan, read once at import from ``data/map.json`` and
``data/cards.json`` (RULINGS §4.4 and Appendix 4A).

Provinces are referred to by index (0..71, in the Appendix's card order) on the hot path and
by their key (``"omi"``, ``"awa-boso"``) in actions, views and options. Nobles are 0..3 in the
order Oda, Takeda, Tokugawa, Date; styles are 0..2 (Stone Fist, Scissor Kick, Paper Crane).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DIR = Path(__file__).parent / "data"


def _load(name: str) -> dict[str, Any]:
    with open(_DIR / name, encoding="utf-8") as handle:
        return json.load(handle)


MAP = _load("map.json")
CARDS = _load("cards.json")

# -- nobles ---------------------------------------------------------------------------------
NOBLES: tuple[str, ...] = tuple(n["key"] for n in MAP["nobles"])
NOBLE_NAMES: tuple[str, ...] = tuple(n["name"] for n in MAP["nobles"])
NOBLE_COLOURS: tuple[str, ...] = tuple(n["colour"] for n in MAP["nobles"])
NOBLE_INDEX = {key: i for i, key in enumerate(NOBLES)}
RIVAL: tuple[int, ...] = tuple(NOBLE_INDEX[CARDS["rivals"][key]] for key in NOBLES)

# -- styles ---------------------------------------------------------------------------------
STYLES: tuple[str, ...] = tuple(s["key"] for s in CARDS["styles"])
STYLE_NAMES: tuple[str, ...] = tuple(s["name"] for s in CARDS["styles"])
STYLE_INDEX = {key: i for i, key in enumerate(STYLES)}
# BEATS[a] is the style that style a defeats (Stone > Scissor > Paper > Stone).
BEATS: tuple[int, ...] = tuple(STYLE_INDEX[s["beats"]] for s in CARDS["styles"])


def duel(mine: int, theirs: int) -> str:
    """A fight of two styles, from the first's side: "won", "lost" or "tie" (SJ-7)."""
    if BEATS[mine] == theirs:
        return "won"
    if BEATS[theirs] == mine:
        return "lost"
    return "tie"


# -- provinces ------------------------------------------------------------------------------
_PROVINCES = MAP["provinces"]
KEYS: tuple[str, ...] = tuple(p["key"] for p in _PROVINCES)
INDEX = {key: i for i, key in enumerate(KEYS)}
NAMES: tuple[str, ...] = tuple(p["name"] for p in _PROVINCES)
CARD_IDS: tuple[str, ...] = tuple(p["card"] for p in _PROVINCES)
HOME: tuple[int, ...] = tuple(NOBLE_INDEX[p["noble"]] for p in _PROVINCES)
IS_CAPITAL: tuple[bool, ...] = tuple(p["capital"] for p in _PROVINCES)
CAPITAL_OF: tuple[int, ...] = tuple(
    next(i for i, p in enumerate(_PROVINCES) if p["capital"] and HOME[i] == n)
    for n in range(len(NOBLES))
)
MISSION_TYPES: tuple[str, ...] = (
    "scout",
    "sabotage",
    "duel",
    "assassinate",
    "infiltrate",
    "conquest",
    "espionage",
)
SCOUT, SABOTAGE, DUEL, ASSASSINATE, INFILTRATE, CONQUEST, ESPIONAGE = range(7)
MISSION: tuple[int, ...] = tuple(MISSION_TYPES.index(p["mission"]) for p in _PROVINCES)
MISSION_TEXT: dict[str, str] = CARDS["missions"]
SEA: tuple[tuple[str, ...], ...] = tuple(tuple(p["sea"]) for p in _PROVINCES)

LAND: tuple[tuple[int, ...], ...] = tuple(tuple(INDEX[k] for k in p["land"]) for p in _PROVINCES)
LANES: tuple[tuple[int, ...], ...] = tuple(tuple(INDEX[k] for k in p["lanes"]) for p in _PROVINCES)
WATER: tuple[dict[str, Any], ...] = tuple(MAP["water"])
WATER_MEMBERS: dict[str, tuple[int, ...]] = {
    w["id"]: tuple(INDEX[k] for k in w["provinces"]) for w in WATER
}


def _by_water(p: int) -> tuple[int, ...]:
    found: list[int] = []
    for zone in SEA[p]:
        for q in WATER_MEMBERS[zone]:
            if q != p and q not in found:
                found.append(q)
    return tuple(found)


ACROSS_WATER: tuple[tuple[int, ...], ...] = tuple(_by_water(p) for p in range(len(KEYS)))
# A ninja moves by land or across one water region (SJ-16); an army by land or along a lane.
NINJA_ADJ: tuple[tuple[int, ...], ...] = tuple(
    LAND[p] + tuple(q for q in ACROSS_WATER[p] if q not in LAND[p]) for p in range(len(KEYS))
)
ARMY_ADJ: tuple[tuple[int, ...], ...] = tuple(
    LAND[p] + tuple(q for q in LANES[p] if q not in LAND[p]) for p in range(len(KEYS))
)

# -- cards and components -------------------------------------------------------------------
COMPONENTS: dict[str, int] = CARDS["components"]
HONOURS: tuple[dict[str, Any], ...] = tuple(CARDS["honours"])
HONOUR_KEYS: tuple[str, ...] = tuple(h["key"] for h in HONOURS)
HONOUR_INDEX = {key: i for i, key in enumerate(HONOUR_KEYS)}
HONOUR_DECK_SIZE: dict[int, int] = {int(k): v for k, v in CARDS["honour_deck_size"].items()}
ECONOMIC_BOOM = HONOUR_INDEX["economic-boom"]
CHAMPION_OF_LIGHT = HONOUR_INDEX["champion-of-light"]
SHOW_OF_FORCE = HONOUR_INDEX["show-of-force"]
INTELLIGENCE: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"INT-{key.upper()}-{k}" for k in range(1, COMPONENTS["intelligence_per_capital"] + 1))
    for key in NOBLES
)
