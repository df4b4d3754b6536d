"""Shadows over Japan in the terminal: the board summary, menu texts and event lines.

Everything here works from one seat's view (`State.view`) and that seat's events, never from
the state itself, so it cannot show anything the seat may not know.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from intrigue.engine import Action

from .data import (
    CARD_IDS,
    HOME,
    HONOUR_INDEX,
    HONOURS,
    INDEX,
    IS_CAPITAL,
    NAMES,
    NOBLE_COLOURS,
    NOBLE_INDEX,
    NOBLE_NAMES,
    NOBLES,
    STYLE_INDEX,
    STYLE_NAMES,
    duel,
)

COLOURS = {"yellow": "yellow", "red": "red", "purple": "magenta", "blue": "blue"}
STYLE_MARK = {"stone": "● Stone", "scissor": "✕ Scissor", "paper": "◇ Paper"}


def _name(key: str) -> str:
    return NAMES[INDEX[key]]


def _honour(key: str | None) -> str:
    return "none" if key is None else str(HONOURS[HONOUR_INDEX[key]]["name"])


def _clan(key: str | None) -> str:
    """A Noble by the family name players call him by ("Takeda")."""
    return "nobody" if key is None else NOBLE_NAMES[NOBLE_INDEX[key]].split()[0]


def _clans(keys: list[str]) -> str:
    return ", ".join(_clan(k) for k in keys) or "none"


def _intel(card: str) -> str:
    """An Intelligence card ("INT-TAKEDA-2") as "Takeda Intelligence"."""
    return f"{_clan(card.split('-')[1].lower())} Intelligence"


def _noble(key: str | None) -> Text:
    if key is None:
        return Text("—")
    n = NOBLE_INDEX[key]
    return Text(NOBLE_NAMES[n].split()[0], style=COLOURS[NOBLE_COLOURS[n]])


def _style(key: str | None) -> str:
    return "?" if key is None else STYLE_NAMES[STYLE_INDEX[key]]


def _seat(seat: int | None, view: dict[str, Any]) -> str:
    if seat is None:
        return "nobody"
    return f"seat {seat} (you)" if seat == view.get("seat") else f"seat {seat}"


# -- menus ------------------------------------------------------------------------------------
def describe_action(action: Action, view: dict[str, Any]) -> str:
    verb, args = action.verb, action.args
    if verb == "style":
        return f"place a {_style(str(args[0]))} ninja"
    if verb == "move":
        return f"move {_name(str(args[0]))} → {_name(str(args[1]))}{_move_note(view, args)}"
    if verb in GOLD_VERBS:
        return _describe_gold(action, view) + _last_gold(view)
    if verb == "substitute":
        swap = ", swapping the tokens" if len(args) == 3 else ", tokens stay"
        return f"Substitution {_name(str(args[0]))} ↔ {_name(str(args[1]))}{swap} (1 action)"
    if verb == "steal":
        return f"steal Intelligence in {_name(str(args[0]))} (reveals your ninja)"
    if verb == "sabotage":
        return f"sabotage a development in {_name(str(args[0]))}"
    if verb == "seppuku":
        return f"seppuku of your ninja in {_name(str(args[0]))}"
    if verb == "claim":
        return f"claim the mission of {_name(str(args[0]))} (+1 gold)"
    if verb == "discard":
        return f"discard {_name(str(args[0]))}"
    if verb == "end":
        return "end the spending step" if view.get("phase") == "spend" else "end your actions"
    return str(action)


# Moves that cost gold: their words; a warning follows when the gold is the mover's last.
GOLD_VERBS = frozenset({"march", "recruit", "initiative", "extra", "draw"})


def _describe_gold(action: Action, view: dict[str, Any]) -> str:
    verb, args = action.verb, action.args
    if verb == "march":
        return f"march the army {_name(str(args[0]))} → {_name(str(args[1]))} (1 gold)"
    if verb == "recruit":
        return f"recruit a {_style(str(args[1]))} ninja in {_name(str(args[0]))} (1 gold)"
    if verb == "initiative":
        return f"take the initiative: swap turn markers with seat {args[0]} (1 gold)"
    if verb == "extra":
        return "buy an extra action (1 gold)"
    return "buy 3 territory cards (1 gold)"


def _last_gold(view: dict[str, Any]) -> str:
    """ " — ⚠ your last gold" when the seat reading the menu has one gold left (its own view)."""
    seat, players = view.get("seat"), view.get("players") or []
    if seat is None or seat >= len(players) or players[seat].get("gold") != 1:
        return ""
    return " — ⚠ your last gold"


def _province(view: dict[str, Any], key: str) -> dict[str, Any] | None:
    return next((p for p in view.get("provinces") or () if p["key"] == key), None)


def _fight_note(mine: str | None, theirs: str | None, what: str) -> str:
    """ "⚠ fight a Paper samurai: your Stone ninja loses and goes back to your pool": the
    outcome when both styles are known to the reader, else only what is fought."""
    if mine is None or theirs is None or theirs == "hidden":
        return f"⚠ fight {what}, style unknown"
    outcome = {
        "won": "wins",
        "lost": "loses and goes back to your pool",
        "tie": "ties and stays where it was",
    }[duel(STYLE_INDEX[mine], STYLE_INDEX[theirs])]
    return f"⚠ fight {what} ({_style(theirs)}): your {_style(mine)} ninja {outcome}"


def _move_note(view: dict[str, Any], args: tuple[Any, ...]) -> str:
    """What a ninja's move meets where it ends, from the reader's view only: the samurai's
    and enemy ninja's styles when shown there, the mover's own style (its seat sees it)."""
    there = _province(view, str(args[1]))
    if there is None:
        return ""
    start = _province(view, str(args[0]))
    mine = ((start or {}).get("ninja") or {}).get("style")
    notes = []
    if there["samurai"]:
        notes.append(_fight_note(mine, there["samurai"], "a samurai"))
    if there["ninja"]:
        enemy = there["ninja"]
        notes.append(_fight_note(mine, enemy.get("style"), f"seat {enemy['seat']}'s ninja"))
    if notes:
        notes.append("reveals your ninja")
    if there["army"]:
        notes.append("infiltrate the army")
    return f" ({'; '.join(notes)})" if notes else ""


# -- events -----------------------------------------------------------------------------------
def describe_event(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    kind = event["kind"]
    e = event
    if kind == "setup":
        return f"Set-up: {e['players']} players, {e['honour_deck']} Honour cards."
    if kind == "noble":
        return f"You secretly back {NOBLE_NAMES[NOBLE_INDEX[e['noble']]]}."
    if kind == "placed":
        return f"{_seat(e['seat'], view)} placed a ninja in {_name(e['at'])}."
    if kind == "placed_style":
        return f"Your ninja in {_name(e['at'])} is {_style(e['style'])}."
    if kind == "turn":
        return f"Turn of {_seat(e['seat'], view)}."
    if kind == "season":
        return f"It is now {e['season']} of year {e['year']}."
    if kind == "honour_revealed":
        return f"Honour card revealed: {_honour(e['honour'])}."
    if kind == "honour_awarded":
        who = _clan(e["noble"]) if e["noble"] else "nobody (buried)"
        return f"Honour {_honour(e['honour'])} awarded to {who}."
    if kind == "move":
        return _move_text(e, view)
    if kind == "substituted":
        return (
            f"{_seat(e['seat'], view)} used a Substitution: {_name(e['frm'])} ↔ {_name(e['to'])}."
        )
    if kind == "stole":
        return f"{_seat(e['seat'], view)} stole {_intel(e['card'])} in {_name(e['at'])}."
    if kind == "sabotaged":
        return f"{_seat(e['seat'], view)} sabotaged {_name(e['at'])}."
    if kind == "seppuku":
        return f"{_seat(e['seat'], view)}'s ninja in {_name(e['at'])} committed seppuku."
    if kind == "marched":
        return (
            f"{_seat(e['seat'], view)} marched the {_clan(e['army'])} army "
            f"{_name(e['frm'])} → {_name(e['to'])}: "
            f"{e['result']}."
        )
    if kind == "claimed":
        return f"{_seat(e['seat'], view)} completed the mission of {_name(e['card'])}."
    if kind == "developed":
        parts = [f"{_name(d['province'])} ({d['result']})" for d in e["provinces"]]
        return "Developed: " + ", ".join(parts) + "."
    if kind == "drew":
        return f"{_seat(e['seat'], view)} drew {e['count']} card(s)."
    if kind == "reshuffled":
        return f"The deck was reshuffled ({e['cards']} cards)."
    if kind == "spend":
        return f"{_seat(e['seat'], view)} spends gold."
    if kind == "samurai_revealed":
        return f"All {len(e['samurai'])} samurai are revealed."
    if kind == "recruited":
        return f"{_seat(e['seat'], view)} recruited a ninja in {_name(e['at'])}."
    if kind == "recruited_style":
        return f"Your new ninja in {_name(e['at'])} is {_style(e['style'])}."
    if kind == "substitution":
        swapped = "swapped" if e["swapped"] else "kept in place"
        return f"Your Substitution {_name(e['frm'])} ↔ {_name(e['to'])}: tokens {swapped}."
    if kind == "discarded":
        return f"{_seat(e['seat'], view)} discarded {_name(e['card'])}."
    if kind == "initiative":
        return f"{_seat(e['seat'], view)} took the initiative from seat {e['other']}."
    if kind == "extra_action":
        return f"{_seat(e['seat'], view)} bought an extra action."
    if kind == "neutral":
        return "Unbacked Nobles: " + _clans(e["nobles"]) + "."
    if kind == "revealed":
        return "Noble cards revealed: " + _clans(e["nobles"]) + "."
    if kind in ("cards", "hand"):
        return "You drew: " + ", ".join(_name(k) for k in e["cards"]) + "."
    return None


def _move_text(e: dict[str, Any], view: dict[str, Any]) -> str:
    text = f"{_seat(e['seat'], view)} moved {_name(e['frm'])} → {_name(e['to'])}"
    for fight in e["fights"]:
        foe = "a samurai" if fight["enemy"] is None else f"seat {fight['enemy']}'s ninja"
        text += (
            f"; {_style(fight['style'])} vs {foe} ({_style(fight['enemy_style'])}): "
            f"{fight['result']}"
        )
    if e["infiltrated"]:
        text += f"; infiltrated the {_clan(e['infiltrated'])} army"
    return text + "."


# -- the board --------------------------------------------------------------------------------
def render_view(view: dict[str, Any]) -> RenderableType:
    parts: list[RenderableType] = [_header(view), _nobles(view), _players(view), _board(view)]
    you = _you(view)
    if you is not None:
        parts.append(you)
    return Group(*parts)


def _header(view: dict[str, Any]) -> Text:
    honours = view["honours"]
    text = Text(
        f"Shadows over Japan — {view['season'].title()} of year {view['year']} "
        f"(round {view['round']}), {view['phase']}",
        style="bold",
    )
    if view["current"] is not None:
        text.append(f" — {_seat(view['current'], view)} to act")
        if view["phase"] == "actions":
            text.append(f", {view['actions_left']} action(s) left")
    face_up = _honour(honours["face_up"])
    text.append(f"\nHonour face up: {face_up}; {honours['deck_size']} left in the deck. ")
    text.append(f"Deck {view['deck_size']}, discard {len(view['discard'])}, ")
    text.append(f"gold supply {view['gold_supply']}.")
    if view["current"] == view.get("seat"):
        text.append(f"\n{view['prompt']}", style="italic")
    return text


def _nobles(view: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE, title="Nobles")
    for col in ("Noble", "Capital", "Prov.", "Econ.", "Mil.", "Armies", "Sam.", "+/-", "Intel"):
        table.add_column(col)
    table.add_column("Honours")
    for n in view["nobles"]:
        table.add_row(
            _noble(n["key"]),
            _name(n["capital"]),
            str(n["provinces"]),
            str(n["economy"]),
            str(n["military"]),
            str(n["armies"]),
            str(n["samurai"]),
            f"+{n['conquered']}/-{n['lost']}",
            str(n["intelligence_at_capital"]),
            str(n["honours"]),
        )
    return table


def _players(view: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE, title="Clans")
    for col in ("Seat", "Marker", "Gold", "Hand", "Ninjas", "Pool", "Intel", "Noble"):
        table.add_column(col)
    for p in view["players"]:
        noble = (
            _noble(p["noble"])
            if p["noble"]
            else Text("not " + _clans(p["ruled_out"]) if p["ruled_out"] else "?")
        )
        table.add_row(
            _seat(p["seat"], view),
            str(p["marker"]),
            str(p["gold"]),
            str(p["hand_size"]),
            str(p["ninjas"]),
            str(p["pool"]),
            ", ".join(_intel(c) for c in p["intelligence"]) or "—",
            noble,
        )
    return table


def _board(view: dict[str, Any]) -> Table:
    """Every province holding something, grouped by current owner."""
    table = Table(box=box.SIMPLE_HEAD, title="Provinces with tokens")
    for col in ("Province", "Card", "Owner", "Dev", "Samurai", "Army", "Ninja"):
        table.add_column(col)
    rows = sorted(view["provinces"], key=lambda p: (NOBLE_INDEX[p["owner"]], INDEX[p["key"]]))
    for p in rows:
        i = INDEX[p["key"]]
        name = NAMES[i] + (" ★" if IS_CAPITAL[i] else "")
        owner = _noble(p["owner"])
        home = NOBLES[HOME[i]]
        if p["owner"] != home:
            owner.append(f" (from {_clan(home)})")
        army = _clan(p["army"]) if p["army"] else ""
        if p["occupier"]:
            army = (army + " " if army else "") + f"{_clan(p['occupier'])} occupying"
        if p["army"] and p["army_moved"]:
            army += " (moved)"
        table.add_row(
            name,
            CARD_IDS[i],
            owner,
            "●" * p["developments"] or "",
            STYLE_MARK.get(p["samurai"], p["samurai"] or ""),
            army,
            _ninja(p["ninja"], view),
        )
    return table


def _ninja(ninja: dict[str, Any] | None, view: dict[str, Any]) -> str:
    if ninja is None:
        return ""
    text = f"seat {ninja['seat']}"
    if ninja["style"]:
        text += " " + STYLE_MARK[ninja["style"]]
    text += " revealed" if ninja["revealed"] else " concealed"
    if ninja["infiltrating"]:
        text += ", infiltrating"
    return text


def _you(view: dict[str, Any]) -> Panel | None:
    you = view.get("you")
    if not you:
        return None
    lines = [Text.assemble("You back ", _noble(you["noble"]), ".")]
    pool = ", ".join(f"{n} {STYLE_NAMES[STYLE_INDEX[s]]}" for s, n in you["pool"].items() if n)
    lines.append(Text(f"Ninjas in your pool: {pool or 'none'}."))
    for card in you["hand"]:
        lines.append(
            Text(
                f"  {card['card']} {card['name']} — {card['mission']} "
                f"(against {_clan(card['against'])}){' ★' if card['capital'] else ''}"
            )
        )
    if you["intelligence"]:
        lines.append(Text("Intelligence: " + ", ".join(_intel(c) for c in you["intelligence"])))
    if you["claimable"]:
        claimable = ", ".join(_name(k) for k in you["claimable"])
        lines.append(Text("You may claim: " + claimable, style="bold green"))
    return Panel(Group(*lines), title="Your clan", box=box.ROUNDED)
