"""Project Assassination in the terminal: the bar board, the assassins, menu and event texts.

Everything here works from a view (`State.view`) and events, never from the state itself.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from intrigue.engine import Action

from .board import (
    BETWEEN,
    CELL,
    CELLS,
    COLUMNS,
    DIRECTION_NAMES,
    ENEMY_STATS,
    FEATURE_GRID,
    NAMES,
    SHOTGUN,
    SIZE,
    TUNNELS,
)

ENEMY_CODES = {"grunt": "Gr", "heavy": "Hv", "medic": "Md", "boss": "BOSS"}
LOOSE_CODES = {"boot": "boot", "uzi": "uzi", "sniper": "SNPR"}
FEATURE_CODES = {"Ta": "tun", "Tb": "tun", "HP": "+2hp"}
PLAYER_STYLES = {1: "bold cyan", 2: "bold magenta"}
PHASE_TEXT = {
    "turn": "a player's turn",
    "choice": "a choice to make",
    "placement": "enemy placement",
    "over": "the game is over",
}


def _name(card: str) -> str:
    return card.replace("_", " ")


def _who(seat: int, view: dict[str, Any]) -> str:
    number = view["players"][seat]["number"]
    you = " (you)" if seat == view.get("seat") else ""
    return f"P{number}{you}"


def _cell_text(cell: int, view: dict[str, Any], lookup: dict[str, Any]) -> Text:
    name = NAMES[cell]
    player = lookup["players"].get(name)
    if player is not None:
        number = player["number"]
        return Text(f" P{number} ", style=PLAYER_STYLES[number] + " reverse")
    enemy = lookup["enemies"].get(name)
    if enemy is not None:
        code = f"{ENEMY_CODES[enemy['kind']]}{enemy['hp']}"
        style = "bold red"
        if enemy["caged"]:
            code, style = f"[{code}]", "yellow"
        elif enemy["paralysed"]:
            code, style = f"~{code}", "blue"
        return Text(code, style=style)
    if name in lookup["obstacles"]:
        return Text("████", style="grey50")
    if name in view["loose"]:
        return Text(LOOSE_CODES[view["loose"][name]], style="green")
    feature = FEATURE_GRID[cell]
    for p in view["players"]:
        if p["point"] == name:
            count = len(p["point_cards"])
            text = f"R{p['number']}" + (f"+{count}" if count else "")
            style = "yellow" if p["ambushed"] else PLAYER_STYLES[p["number"]]
            return Text(text + ("!" if p["ambushed"] else ""), style=style)
        if p["spawn"] == name:
            return Text(f"S{p['number']}", style="dim")
    if feature in FEATURE_CODES:
        return Text(FEATURE_CODES[feature], style="dim")
    return Text("·", style="grey30")


def board_table(view: dict[str, Any]) -> Table:
    lookup = {
        "players": {p["cell"]: p for p in view["players"]},
        "enemies": {e["cell"]: e for e in view["enemies"]},
        "obstacles": set(view["obstacles"]),
    }
    table = Table(box=box.SQUARE, show_header=True, padding=(0, 0), show_lines=True)
    table.add_column("", justify="right", style="bold")
    for col in COLUMNS:
        table.add_column(col.upper(), justify="center", width=6)
    for row in range(SIZE):
        cells = [_cell_text(row * SIZE + col, view, lookup) for col in range(SIZE)]
        table.add_row(str(row + 1), *cells)
    return table


def _weapon_text(weapon: dict[str, Any] | None) -> str:
    if weapon is None:
        return "—"
    mods = [m for m in ("sight", "muzzle") if weapon[m]]
    return _name(weapon["kind"]) + (f" (+{', +'.join(mods)})" if mods else "")


def players_table(view: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, show_header=True)
    for header in ("", "HP", "VP", "slot 1", "slot 2", "boots", "reserve", "on point"):
        table.add_column(header)
    for p in view["players"]:
        slot2 = p["weapons"][1]
        slot2_text = (
            _weapon_text(slot2)
            if slot2
            else "pistol"
            + (
                " (+" + ", +".join(m for m in ("sight", "muzzle") if p["pistol"][m]) + ")"
                if p["pistol"]["sight"] or p["pistol"]["muzzle"]
                else ""
            )
        )
        flags = []
        if p["ambushed"]:
            flags.append("ambushed")
        if p["loses_next_turn"]:
            flags.append("paralysed")
        label = _who(p["seat"], view) + (f" [{', '.join(flags)}]" if flags else "")
        table.add_row(
            Text(label, style=PLAYER_STYLES[p["number"]]),
            str(p["hp"]),
            str(p["vp"]),
            _weapon_text(p["weapons"][0]),
            slot2_text,
            str(p["boots"]),
            ", ".join(_name(c) for c in p["reserve"]) or "—",
            ", ".join(_name(c) for c in p["point_cards"]) or "—",
        )
    return table


def _status(view: dict[str, Any]) -> str:
    phase = view["phase"]
    if view["is_over"]:
        outcome = view["outcome"]
        winners = ", ".join(_who(s, view) for s in outcome["winners"]) or "nobody (a draw)"
        return f"Game over: {outcome['reason']}. Winner: {winners}."
    head = f"Round {view['round']}, turn {view['turns'] + 1}"
    if view["max_turns"]:
        head += f" of {view['max_turns']}"
    if phase == "placement":
        placement = view["placement"]
        placer = _who(placement["placer"], view)
        return f"{head}. Enemy placement: {placer} places a {placement['enemy']}."
    turn = view["turn"]
    text = (
        f"{head}. {_who(turn['seat'], view)} to play: {turn['actions_left']} action(s) left, "
        f"attacks {turn['attacks_made']}/{turn['attack_allowance']}"
    )
    if turn["may_draw"]:
        text += ", may draw"
    if turn["cover"]:
        text += ", under cover"
    if view["prompt"]:
        text += f".\n{view['prompt']['text']}"
    return text + "."


def render_view(view: dict[str, Any]) -> RenderableType:
    decks = view["decks"]
    deck_line = (
        f"Decks: item {decks['item']}, collectible {decks['collectible']}, "
        f"enemy {decks['enemy']}"
        + (
            f" (known at the bottom: {', '.join(decks['enemy_bottom'])})"
            if decks["enemy_bottom"]
            else ""
        )
        + f". Item discard top: {', '.join(map(_name, view['discards']['item'][-2:])) or '—'}."
    )
    legend = Text(
        "P1/P2 assassins, Gr/Hv/Md/BOSS enemy + HP (~ paralysed, [ ] caged), ████ obstacle, "
        "R rendezvous point (+cards, ! ambushed), S spawn, tun tunnel (b2-b6, f2-f6), "
        "+2hp heal point",
        style="dim",
    )
    return Group(
        Text(_status(view), style="bold"),
        board_table(view),
        legend,
        players_table(view),
        Text(deck_line),
    )


# -- menu texts -----------------------------------------------------------------------------
def _target_text(cell: str, view: dict[str, Any]) -> str:
    for p in view["players"]:
        if p["cell"] == cell:
            return _who(p["seat"], view)
    for e in view["enemies"]:
        if e["cell"] == cell:
            return f"the {e['kind']} ({e['hp']} HP)"
    if cell in view["obstacles"]:
        return "the obstacle"
    return "nothing"


def _shooter_weapon(view: dict[str, Any], slot: int) -> str:
    turn = view.get("turn") or {}
    seat = turn.get("seat", view.get("seat"))
    if seat is None:
        return f"slot {slot}"
    player = view["players"][seat]
    weapon = player["weapons"][slot - 1]
    if weapon is None and slot == 2:
        return "pistol"
    return _name(weapon["kind"]) if weapon else f"slot {slot}"


def describe_action(action: Action, view: dict[str, Any]) -> str:
    verb, args = action.verb, action.args
    if verb == "draw":
        return f"Draw from the {args[0]} deck"
    if verb == "discard":
        return f"Discard a {_name(str(args[0]))} from your reserve"
    if verb == "obstacle":
        return f"Play an Obstacle on {str(args[0]).upper()}"
    if verb == "strategy":
        what = _target_text(str(args[0]), view)
        return f"Play a Strategy: move {what} from {str(args[0]).upper()} to {str(args[1]).upper()}"
    if verb == "ambush":
        return "Play an Ambush on your rival's rendezvous point"
    if verb == "cover":
        return "Play Cover: no enemy damage for the rest of this turn"
    if verb == "move":
        return _move_text(str(args[0]), view)
    if verb == "shoot":
        weapon = _shooter_weapon(view, int(args[0]))
        aim = str(args[1])
        if aim in DIRECTION_NAMES:
            return f"Fire the {weapon} {DIRECTION_NAMES[aim]}"
        return f"Shoot {_target_text(aim, view)} on {aim.upper()} with the {weapon}"
    if verb == "end":
        return "End your turn"
    if verb == "replace":
        return f"Drop the weapon in slot {args[0]} for the new one"
    if verb == "decline":
        return "Discard the new weapon"
    if verb == "attach":
        return f"Attach it to the {_shooter_weapon(view, int(args[0]))} (slot {args[0]})"
    if verb == "cage":
        return f"Cage {_target_text(str(args[0]), view)} on {str(args[0]).upper()}"
    if verb == "grenade":
        corner = CELL[str(args[0])]
        block = [NAMES[c] for c in (corner, corner + 1, corner + SIZE, corner + SIZE + 1)]
        return f"Throw the grenade at {'-'.join(c.upper() for c in (block[0], block[3]))}"
    if verb == "teleport":
        return f"Teleport to {str(args[0]).upper()}"
    if verb == "place":
        enemy = (view.get("placement") or {}).get("enemy", "enemy")
        return f"Place the {enemy} on {str(args[0]).upper()}"
    return str(action)


def _danger(cell: str, view: dict[str, Any]) -> str:
    """The enemy damage waiting where a move to ``cell`` ends (public facts of the view only):
    " — in range of the Grunt on D3: 3 damage", or "" when it is safe or Cover is on."""
    turn = view.get("turn") or {}
    seat = turn.get("seat")
    if seat is None or turn.get("cover"):
        return ""
    me = view["players"][seat]
    end = CELL[cell]
    if me["point"] == cell:
        end = CELL[me["spawn"]]  # collect, then back to spawn: the danger is there
    elif end in TUNNELS:
        end = TUNNELS[end]
    blocked = {CELL[c] for c in view["obstacles"]}
    hits = []
    for enemy in view["enemies"]:
        stats = ENEMY_STATS[enemy["kind"]]
        at = CELL[enemy["cell"]]
        if enemy["paralysed"] or not stats.range or at == end:
            continue
        between = BETWEEN[at * CELLS + end]
        if between is not None and len(between) < stats.range and not blocked & set(between):
            hits.append((enemy, stats.damage))
    if not hits:
        return ""
    names = ", ".join(f"the {e['kind'].capitalize()} on {e['cell'].upper()}" for e, _ in hits)
    return f" — in range of {names}: {sum(d for _, d in hits)} damage"


def _move_text(cell: str, view: dict[str, Any]) -> str:
    return _move_place(cell, view) + _danger(cell, view)


def _move_place(cell: str, view: dict[str, Any]) -> str:
    text = f"Move to {cell.upper()}"
    turn = view.get("turn") or {}
    seat = turn.get("seat")
    if seat is not None and view["players"][seat]["point"] == cell:
        return text + " (your rendezvous point: collect, then back to spawn)"
    if cell in view["loose"]:
        return text + f" (pick up the {_name(view['loose'][cell])})"
    if CELL[cell] in TUNNELS:
        return text + f" (tunnel to {NAMES[TUNNELS[CELL[cell]]].upper()})"
    if FEATURE_GRID[CELL[cell]] == "HP":
        return text + " (heal point)"
    return text


# -- event texts --------------------------------------------------------------------------------
def describe_event(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    kind = event["kind"]
    who = _who(event["seat"], view) if "seat" in event and event["seat"] is not None else ""
    at = str(event.get("at", "")).upper()
    texts = {
        "setup": lambda: f"The coin makes seat {event['first']} Player 1.",
        "turn": lambda: f"Round {event['round']}: {who}'s turn.",
        "skipped": lambda: f"{who} is paralysed and loses this turn.",
        "end": lambda: f"{who} ends the turn.",
        "draw": lambda: f"{who} draws a {_name(event['card'])} from the {event['deck']} deck.",
        "discard": lambda: f"{who} discards a {_name(event['card'])}.",
        "item": lambda: (
            f"{who} plays {_name(event['card'])}"
            + (f" ({' → '.join(c.upper() for c in event['cells'])})" if event["cells"] else "")
            + "."
        ),
        "move": lambda: f"{who} moves to {event['to'].upper()}.",
        "tunnel": lambda: f"{who} takes the tunnel to {event['to'].upper()}.",
        "teleport": lambda: f"{who} teleports to {event['to'].upper()}.",
        "collect": lambda: f"{who} collects {', '.join(map(_name, event['cards'])) or 'nothing'}.",
        "equip": lambda: f"{who} equips the {_name(event['weapon'])} in slot {event['slot']}.",
        "replace": lambda: f"{who} drops the {_name(event['old'])} for the {_name(event['new'])}.",
        "decline": lambda: f"{who} discards the {_name(event['weapon'])}.",
        "attach": lambda: f"{who} fits a {event['card']} on the {_name(event['weapon'])}.",
        "boot": lambda: f"{who} now wears {event['boots']} boot(s).",
        "wasted": lambda: f"{who}'s {_name(event['card'])} has no use and is discarded.",
        "heal": lambda: f"{who} heals to {event['hp']} HP ({event['source']}).",
        "loot": lambda: f"{who} loots {', '.join(map(_name, event['cards']))}.",
        "cage": lambda: f"{who} cages the enemy on {at}.",
        "grenade": lambda: f"{who} throws a grenade at {at}.",
        "hurt": lambda: f"{who} takes {event['damage']} from the {event['enemy']} on {at}.",
        "shoot": lambda: (
            f"{who} fires the {_name(event['weapon'])} at {str(event['aim']).upper()}."
        ),
        "hit": lambda: f"{who} hits {_hit_target(event)} on {at} for {event['damage']}.",
        "kill": lambda: f"{who} kills the {event['enemy']} on {at} (+{event['vp']} VP).",
        "destroyed": lambda: f"{who} destroys the obstacle on {at}.",
        "spent": lambda: f"{who}'s {_name(event['weapon'])} is spent.",
        "placer": lambda: f"{who} places the next enemy ({event['why']}): a {event['enemy']}.",
        "deferred": lambda: f"The Boss waits at the bottom of the deck; next: a {event['next']}.",
        "no_room": lambda: f"No legal square for the {event['enemy']}: it goes under the deck.",
        "place": lambda: f"{who} places the {event['enemy']} on {at}.",
        "medic": lambda: f"A medic heals the enemy on {at} to {event['hp']} HP.",
    }
    maker = texts.get(kind)
    return None if maker is None else maker()


def _hit_target(event: dict[str, Any]) -> str:
    target = event["target"]
    return {"rival": "the rival", "self": "themself"}.get(target, f"the {target}")


def shotgun_squares(cell: str, direction: str, sight: bool) -> list[str]:
    """The squares a shotgun blast covers (for help texts)."""
    front, side1, side2, beyond = SHOTGUN[CELL[cell]][direction]
    cells = [front, side1, side2] + ([beyond] if sight else [])
    return [NAMES[c] for c in cells if c >= 0]
