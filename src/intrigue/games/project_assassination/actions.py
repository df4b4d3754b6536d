"""Every action Project Assassination can ever accept, built once at import.

Legal-action lists hand out these pre-built `Action` objects; the `ActionTable` gives each a
stable integer index (for RL adapters).
"""

from __future__ import annotations

from intrigue.engine import Action, ActionTable

from .board import CELLS, DIRECTIONS, GRENADE_CORNERS, ITEMS, NAMES, STRATEGY_REACH

DRAW = {deck: Action("draw", deck) for deck in ("item", "collectible")}
DRAW_ITEM, DRAW_COLLECTIBLE = DRAW["item"], DRAW["collectible"]
DISCARD = {kind: Action("discard", kind) for kind in ITEMS}
OBSTACLE = tuple(Action("obstacle", NAMES[c]) for c in range(CELLS))
STRATEGY = {
    (src, dst): Action("strategy", NAMES[src], NAMES[dst])
    for src in range(CELLS)
    for dst, _ in STRATEGY_REACH[src]
}
AMBUSH = Action("ambush")
COVER = Action("cover")
MOVE = tuple(Action("move", NAMES[c]) for c in range(CELLS))
SHOOT_AT = {slot: tuple(Action("shoot", slot, NAMES[c]) for c in range(CELLS)) for slot in (1, 2)}
SHOOT_DIR = {slot: {d: Action("shoot", slot, d) for d in DIRECTIONS} for slot in (1, 2)}
END = Action("end")
REPLACE = {slot: Action("replace", slot) for slot in (1, 2)}
DECLINE = Action("decline")
ATTACH = {slot: Action("attach", slot) for slot in (1, 2)}
CAGE = tuple(Action("cage", NAMES[c]) for c in range(CELLS))
GRENADE = {c: Action("grenade", NAMES[c]) for c in GRENADE_CORNERS}
TELEPORT = tuple(Action("teleport", NAMES[c]) for c in range(CELLS))
PLACE = tuple(Action("place", NAMES[c]) for c in range(CELLS))

ACTIONS = ActionTable(
    [
        *DRAW.values(),
        *DISCARD.values(),
        *OBSTACLE,
        *STRATEGY.values(),
        AMBUSH,
        COVER,
        *MOVE,
        *(a for slot in (1, 2) for a in SHOOT_AT[slot]),
        *(a for slot in (1, 2) for a in SHOOT_DIR[slot].values()),
        END,
        *REPLACE.values(),
        DECLINE,
        *ATTACH.values(),
        *CAGE,
        *GRENADE.values(),
        *TELEPORT,
        *PLACE,
    ]
)
