"""The public view of a game and the reasons given when an action is refused.

Everything in Project Assassination is public except the order of the decks (RULINGS §3.2),
so every seat (and a spectator) gets the same view; only deck sizes and the publicly known
bottom of the Enemy deck are shown.
"""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING, Any

from intrigue.engine import Action

from .board import (
    CELL,
    ENEMY_STATS,
    MAX_RESERVE,
    NAMES,
    NEIGHBOURS,
    NO_ENEMY,
    NO_OBSTACLE,
    POINT,
    SPAWN,
    TUNNELS,
    WEAPON_STATS,
)

if TYPE_CHECKING:
    from .pieces import Enemy
    from .rules import AssassinationState

PROMPTS = {
    "weapon": "Both weapon slots are full: 'replace 1', 'replace 2' or 'decline' the {card}.",
    "attach": "Choose the weapon for the {card}: 'attach <slot>'.",
    "loot": "Your reserve holds more than 5 Items: 'discard <item>'.",
    "cage": "Choose the enemy to cage: 'cage <cell>'.",
    "grenade": "Throw the grenade: 'grenade <top-left cell of a 2x2 block>'.",
    "teleport": "Your spawn is taken: 'teleport <cell>' to one of the nearest empty squares.",
}


def view(state: AssassinationState, seat: int | None) -> dict[str, Any]:
    core = essentials(state)
    view = {
        "round": state.round,
        "turns": state.turns,
        "phase": core["phase"],
        "max_turns": state.options["max_turns"],
        "first": state.first,
        "current": state.current if state.phase != "over" else None,
        "obstacles": core["obstacles"],
        "enemies": core["enemies"],
        "loose": core["loose"],
        "players": core["players"],
        "turn": _turn_view(state),
        "prompt": core["prompt"],
        "placement": None
        if state.drawn_enemy is None
        else {"placer": state.placer, "enemy": state.drawn_enemy},
        "decks": {
            "item": len(state.item_deck),
            "collectible": len(state.coll_deck),
            "enemy": len(state.enemy_deck),
            # cards put back under the Enemy deck were seen by both (PA-19): top first
            "enemy_bottom": list(state.enemy_deck.bottom),
        },
        "discards": {
            "item": list(state.item_discard),
            "collectible": list(state.coll_discard),
            "sniper": list(state.sniper_discard),
        },
        "coins": list(state.coins),
    }
    if state.phase == "over":  # not `| _final_view(...)`: that copies the view at every step
        view.update(_final_view(state))
    return view


def essentials(state: AssassinationState) -> dict[str, Any]:
    """The parts of the view a player decides on (`view` has them and more): the phase, the
    board (obstacles, enemies, loose cards), both players and the prompt. The search bot's
    rollouts read these alone, many times a second, so they are built without the rest."""
    return {
        "phase": state.phase,
        "obstacles": list(compress(NAMES, state.obst)),
        "enemies": [enemy_view(c, e) for c, e in sorted(state.enemies.items())],
        "loose": {NAMES[c]: card for c, card in sorted(state.loose.items())},
        "players": [player_view(state, s) for s in (0, 1)],
        "prompt": prompt_view(state),
    }


def enemy_view(cell: int, enemy: Enemy) -> dict[str, Any]:
    """The view's entry for the enemy on ``cell`` (a search's heuristic reads them too)."""
    return {
        "cell": NAMES[cell],
        "kind": enemy.kind,
        "hp": enemy.hp,
        "max_hp": ENEMY_STATS[enemy.kind].hp,
        "paralysed": enemy.paralysed_by != -1,
        "caged": enemy.caged_by != -1,
    }


def player_view(state: AssassinationState, s: int) -> dict[str, Any]:
    """The view's entry for the player of seat ``s`` (public: every seat sees the same)."""
    number = state.number[s]
    return {
        "seat": s,
        "number": number,
        "cell": NAMES[state.pos[s]],
        "spawn": NAMES[SPAWN[number]],  # `state.spawn(s)`, `state.point(s)`
        "point": NAMES[POINT[number]],
        "hp": state.hp[s],
        "vp": state.vp[s],
        "weapons": [None if w is None else w.to_json() for w in state.slots[2 * s : 2 * s + 2]],
        "pistol": {**state.pistol[s].to_json(), "usable": state.slots[2 * s + 1] is None},
        "boots": state.boots[s],
        "reserve": list(state.reserve[s]),
        "point_cards": list(state.points[s]),
        "ambushed": state.ambushed[s],
        "loses_next_turn": state.skip[s],
    }


def _final_view(state: AssassinationState) -> dict[str, Any]:
    """Once the game is over: every seat's VP by source ("rival": its shots at the rival, or
    the kind of enemy killed), in the order rival, then the enemies from Grunt to Boss."""
    if state.phase != "over":
        return {}
    order = ["rival", *ENEMY_STATS]
    return {
        "final": {
            "vp_by_source": [
                {k: state.vp_from[s][k] for k in order if k in state.vp_from[s]} for s in (0, 1)
            ]
        }
    }


def _turn_view(state: AssassinationState) -> dict[str, Any] | None:
    if state.phase not in ("turn", "choice"):
        return None
    return {
        "seat": state.current,
        "stage": ("draw", "items", "actions")[state.stage],
        "may_draw": _may_draw(state),
        "actions_left": state.actions,
        "attacks_made": state.attacks,
        "attack_allowance": state.allowance(),
        "fired": [slot for slot in (1, 2) if state.fired & slot],
        "cover": state.cover,
    }


def _may_draw(state: AssassinationState) -> bool:
    """Whether a draw is still open this turn (the same test as the legal draw actions)."""
    if state.phase != "turn" or state.stage != 0 or state.turns == 0:
        return False
    me = state.current
    items = bool(state.item_deck) and len(state.reserve[me]) < MAX_RESERVE
    return items or (bool(state.coll_deck) and not state.ambushed[me])


def prompt_view(state: AssassinationState) -> dict[str, Any] | None:
    """The view's ``prompt``: the choice a card asks of the player to move, or None."""
    if state.prompt is None or state.phase != "choice":
        return None
    kind, card = state.prompt
    return {
        "kind": kind,
        "card": card or None,
        "seat": state.current,
        "text": PROMPTS[kind].format(card=card.replace("_", " ")),
        "teleports": [NAMES[c] for c in state.teleports] if kind == "teleport" else None,
    }


# -- why an action is refused ----------------------------------------------------------------


def reason(state: AssassinationState, seat: int, action: Action) -> str:
    """A sentence a player understands; only computed when an action is refused."""
    phase = state.phase
    verb = action.verb
    if phase == "placement":
        if verb != "place":
            enemy = state.drawn_enemy
            return f"it is the enemy placement phase: place the {enemy} with 'place <cell>'"
        return _placement_reason(state, CELL[action.args[0]])  # type: ignore[index]
    if phase == "choice":
        kind, card = state.prompt  # type: ignore[misc]
        text = PROMPTS[kind].format(card=card.replace("_", " "))
        return f"answer the prompt first. {text}"
    if verb in ("place", "replace", "decline", "attach", "cage", "grenade", "teleport"):
        return f"'{verb}' only answers a prompt, and nothing is being asked now"
    me, opp = seat, 1 - seat
    if verb == "draw":
        return _draw_reason(state, me, action.args[0])  # type: ignore[arg-type]
    if verb in ("discard", "obstacle", "strategy", "ambush", "cover"):
        return _item_reason(state, me, opp, action)
    if verb == "move":
        return _move_reason(state, me, opp, CELL[action.args[0]])  # type: ignore[index]
    if verb == "shoot":
        return _shoot_reason(state, me, action.args[0])  # type: ignore[arg-type]
    return "the rules do not allow that now"


def _draw_reason(state: AssassinationState, me: int, deck: str) -> str:
    if state.turns == 0:
        return "Player 1 draws nothing on the first turn"
    if state.stage > 0:
        return "you may draw only once, at the start of your turn, before Items and actions"
    if deck == "item":
        if not state.item_deck:
            return "the Item deck is empty (no reshuffle, PA-29)"
        return f"your reserve is full ({MAX_RESERVE} Items): discard one first"
    if not state.coll_deck:
        return "the Collectible deck is empty (no reshuffle, PA-29)"
    return "your rendezvous point is ambushed: no Collectible draw this turn"


def _item_reason(state: AssassinationState, me: int, opp: int, action: Action) -> str:
    verb = action.verb
    card = action.args[0] if verb == "discard" else verb
    if card not in state.reserve[me]:
        return f"you hold no {card} card"
    if state.stage > 1:
        return "Items are played before your first move or attack"
    if verb == "discard":
        return "you may discard an Item only to make room for a draw (full reserve, deck not empty)"
    if verb == "ambush":
        return "your rival's point is already ambushed"
    if verb == "cover":
        return "Cover is already in effect this turn"
    cell = CELL[action.args[0]]  # type: ignore[index]
    if verb == "obstacle":
        if NO_OBSTACLE[cell]:
            return (
                f"{action.args[0]} does not take obstacles (crossed, point, spawn, heal or tunnel)"
            )
        return f"{action.args[0]} is not empty"
    if cell not in state.enemies and not state.obst[cell]:
        return f"there is no enemy or obstacle on {action.args[0]} to move"
    if cell in state.enemies and state.enemies[cell].caged_by != -1:
        return "a caged enemy cannot be moved"
    return (
        f"{action.args[1]} is not a legal square for it, or the way there is blocked "
        "(two orthogonal steps over empty squares; enemies keep out of every player's reach)"
    )


def _move_reason(state: AssassinationState, me: int, opp: int, cell: int) -> str:
    name = NAMES[cell]
    if state.actions == 0:
        return "you have no actions left"
    if cell not in NEIGHBOURS[state.pos[me]]:
        return f"{name} is not next to you (one orthogonal square per move)"
    if cell == state.pos[opp]:
        return f"your rival stands on {name}"
    if cell == state.point(opp):
        return "you may not step on your rival's rendezvous point"
    if cell == state.point(me):
        return "your rendezvous point is ambushed this turn"
    if state.obst[cell]:
        return f"an obstacle blocks {name}"
    return f"an enemy stands on {name}"


def _shoot_reason(state: AssassinationState, me: int, slot: int) -> str:
    if state.actions == 0:
        return "you have no actions left"
    if state.attacks >= state.allowance():
        return f"you have made your {state.allowance()} attack(s) this turn"
    w = state.weapon(me, slot)
    if w is None:
        return f"slot {slot} holds no weapon"
    if state.fired & slot:
        return f"the {w.kind.replace('_', ' ')} has already fired this turn"
    if w.kind in ("shotgun", "sniper"):
        return f"the {w.kind} fires in a direction (n, e, s, w) that has a target"
    reach = WEAPON_STATS[w.kind].range + w.sight
    return (
        f"no target there within the {w.kind.replace('_', ' ')}'s range {reach} "
        "(same row or column, no obstacle in between)"
    )


def _placement_reason(state: AssassinationState, cell: int) -> str:
    name = NAMES[cell]
    if NO_ENEMY[cell]:
        return f"{name} is skull-crossed: no enemy may stand there"
    if cell in TUNNELS:
        return f"{name} is a tunnel"
    if not state._free(cell):
        return f"{name} is not empty"
    kind = state.drawn_enemy
    return (
        f"{name} is within a player's weapon reach, or a player would be within the "
        f"{kind}'s range there"
    )
