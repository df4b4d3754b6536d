"""Masquerade Murder in the terminal: the board, the tables, menu texts and event lines.

Everything here works from one seat's view (`State.view`) and that seat's events, never from
the state itself, so it cannot show anything the seat may not know.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from intrigue.engine import Action

from .boards import cell_name
from .rules import SLOT_CARDS

CARD_NAMES = {
    "ace": "Ace",
    "two": "Two",
    "jack": "Jack",
    "queen": "Queen",
    "king": "King",
    "joker": "Joker",
}
COLOUR_STYLES = {"GREEN": "bold green", "RED": "bold red", "GREY": "grey50"}
STATUS_STYLES = {"in": "", "jailed": "yellow", "dead": "red"}
PHASE_TEXT = {
    "target": "target phase: every player secretly chooses a target",
    "draft": "order draft: the pile of order cards passes round the seating",
    "placement": "placement: cubes sit down in card order",
    "over": "the ball is over",
}
TABLE_FILL = "▒▒▒▒"


# -- small helpers ------------------------------------------------------------------------------
def card_name(card: str | None) -> str:
    return "—" if card is None else CARD_NAMES.get(card, card)


def _seat(seat: int, view: dict[str, Any]) -> str:
    """``seat 3``, or ``seat 3 (you)`` when the viewer is seat 3."""
    return f"seat {seat} (you)" if seat == view.get("seat") else f"seat {seat}"


def _seats(seats: Iterable[int], view: dict[str, Any]) -> str:
    names = [_seat(s, view) for s in seats]
    return ", ".join(names) if names else "nobody"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _colour(colour: str | None) -> Text:
    return Text(colour or "—", style=COLOUR_STYLES.get(colour or "", ""))


def _occupant(view: dict[str, Any], cell: str) -> int | None:
    for row in view["table"]:
        if row["cell"] == cell:
            return row["seat"]
    return None


# -- menu texts ---------------------------------------------------------------------------------
def describe_action(action: Action, view: dict[str, Any]) -> str:
    """A short human text for a menu entry ("Target seat 3", "Sit at c1", ...)."""
    verb, args = action.verb, action.args
    if verb == "target" and len(args) == 1:
        return f"Target {_seat(int(args[0]), view)}"
    if verb == "draw" and len(args) == 1:
        return f"Take the {card_name(str(args[0]))}"
    if verb == "place" and len(args) == 1:
        return f"Sit at {args[0]}"
    if verb == "swap" and len(args) == 2:
        taken, empty = str(args[0]), str(args[1])
        moved = _occupant(view, taken)
        whose = "its cube" if moved is None else f"seat {moved}'s cube"
        return f"Joker: take {taken}, move {whose} to {empty}"
    return str(action)


# -- event lines --------------------------------------------------------------------------------
def describe_event(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    """One readable line for a log event as ``view``'s seat saw it (None: unknown kind)."""
    kind = event.get("kind")
    handler = _EVENT_TEXT.get(kind)  # type: ignore[arg-type]
    return None if handler is None else handler(event, view)


def _ev_setup(e: dict[str, Any], view: dict[str, Any]) -> str:
    cycle = " → ".join(map(str, e["seating"]))
    return f"The ball begins on the {e['board']} board. Seating, clockwise: {cycle}."


def _ev_role(e: dict[str, Any], view: dict[str, Any]) -> str:
    return f"Your role: {_cap(e['role'])}."


def _ev_night(e: dict[str, Any], view: dict[str, Any]) -> str:
    return f"── Night {e['night']} ──"


def _ev_decided(e: dict[str, Any], view: dict[str, Any]) -> str:
    return f"{_cap(_seat(e['seat'], view))} has chosen a target."


def _ev_targeted(e: dict[str, Any], view: dict[str, Any]) -> str:
    return f"You target seat {e['target']}."


def _ev_dealt(e: dict[str, Any], view: dict[str, Any]) -> str:
    return "The order cards are dealt at random, one per player."


def _ev_draft(e: dict[str, Any], view: dict[str, Any]) -> str:
    cards = ", ".join(card_name(c) for c in e["cards"])
    order = ", ".join(map(str, e["drawers"]))
    return f"Order draft from {cards}: seats {order} take a card in that order."


def _ev_drew(e: dict[str, Any], view: dict[str, Any]) -> str:
    return f"{_cap(_seat(e['seat'], view))} took a card."


def _ev_took(e: dict[str, Any], view: dict[str, Any]) -> str:
    pile = ", ".join(card_name(c) for c in e["pile"])
    return f"You took the {card_name(e['card'])} (the pile held {pile})."


def _ev_order(e: dict[str, Any], view: dict[str, Any]) -> str:
    slots = "; ".join(
        f"{card_name(card)}: seat {seat}"
        for card, seat in zip(SLOT_CARDS, e["order"], strict=False)
    )
    joker = e.get("joker")
    who = (
        "nobody holds the Joker" if joker is None else f"the Joker ({_seat(joker, view)}) plays it"
    )
    return f"Extra card: {card_name(e['extra'])}, {who}. Placement order — {slots}."


def _ev_placed(e: dict[str, Any], view: dict[str, Any]) -> str:
    return f"{_cap(_seat(e['seat'], view))} sits at {e['cell']}."


def _ev_swapped(e: dict[str, Any], view: dict[str, Any]) -> str:
    return (
        f"{_cap(_seat(e['seat'], view))} plays the Joker: takes {e['cell']} and moves "
        f"{_seat(e['moved'], view)} to {e['to']}."
    )


def _ev_revelation(e: dict[str, Any], view: dict[str, Any]) -> str:
    harms = [
        f"{_seats(e[key], view)} {key}" for key in ("captured", "distracted", "poisoned") if e[key]
    ]
    text = f"Dawn after night {e['night']}: " + ("; ".join(harms) if harms else "nobody harmed")
    for left in e["left"]:
        text += f". {_cap(_seat(left['seat'], view))} is {left['how']} and leaves the ball"
    return text + "."


def _ev_result(e: dict[str, Any], view: dict[str, Any]) -> str:
    effects = ", ".join(e["effects"]) if e["effects"] else "nothing landed on you"
    return f"Your night {e['night']}: target seat {e['target']}, result {e['colour']}; {effects}."


def _ev_unmasked(e: dict[str, Any], view: dict[str, Any]) -> str:
    roles = ", ".join(f"seat {s} {_cap(r)}" for s, r in enumerate(e["roles"]))
    return f"Unmasked: {roles}."


_EVENT_TEXT = {
    "setup": _ev_setup,
    "role": _ev_role,
    "night": _ev_night,
    "decided": _ev_decided,
    "targeted": _ev_targeted,
    "dealt": _ev_dealt,
    "draft": _ev_draft,
    "drew": _ev_drew,
    "took": _ev_took,
    "order": _ev_order,
    "placed": _ev_placed,
    "swapped": _ev_swapped,
    "revelation": _ev_revelation,
    "result": _ev_result,
    "unmasked": _ev_unmasked,
}


# -- the picture --------------------------------------------------------------------------------
def render_view(view: dict[str, Any]) -> RenderableType:
    """Draw a seat's view (or a spectator's, ``view["seat"] is None``) for the terminal."""
    parts: list[RenderableType] = [_header(view)]
    side_by_side = Table.grid(padding=(0, 3))
    side_by_side.add_row(_board(view), _players(view))
    parts.append(side_by_side)
    for section in (_draft(view), _placement(view), _nights(view), _you(view)):
        if section is not None:
            parts.append(section)
    return Group(*parts)


def _header(view: dict[str, Any]) -> Text:
    night = f"Night {view['night']}"
    if view.get("max_turns"):
        night += f" of {view['max_turns']}"
    who = "spectator" if view["seat"] is None else f"seat {view['seat']}"
    text = Text.assemble(
        ("Masquerade Murder", "bold"),
        f" — {night}, {PHASE_TEXT.get(view['phase'], view['phase'])}  [{who}]",
    )
    cycle = " → ".join(map(str, view["seating"]))
    text.append(f"\nSeating, clockwise: {cycle}")
    return text


def _board_cells(view: dict[str, Any]) -> tuple[dict[str, int], str]:
    """Which seat sits where, and a caption: now, or last night's places while none are set."""
    now = {row["cell"]: row["seat"] for row in view["table"] if row["cell"] is not None}
    if now or not view["nights"]:
        return now, f"Board {view['board']['name']}"
    last = view["nights"][-1]
    cells = {cell: int(seat) for seat, cell in last["cells"].items()}
    return cells, f"Board {view['board']['name']} (night {last['night']}'s places)"


def _board(view: dict[str, Any]) -> Table:
    cells, title = _board_cells(view)
    rows = view["board"]["rows"]
    grid = Table(
        title=title,
        show_header=False,
        box=box.SQUARE,
        show_lines=True,
        padding=(0, 1),
        caption="▒ table   * you",
    )
    for _ in rows[0]:
        grid.add_column(justify="center", width=4)
    for r, line in enumerate(rows):
        row: list[Text] = []
        for c, kind in enumerate(line):
            name = cell_name(c, r)
            if kind == "#":
                row.append(Text(f"{TABLE_FILL}\n{TABLE_FILL}", style="dim"))
                continue
            seat = cells.get(name)
            if seat is None:
                row.append(Text(f"{name}\n·", style="dim"))
            else:
                mine = seat == view["seat"]
                row.append(
                    Text(
                        f"{name}\n{seat}{'*' if mine else ''}",
                        style="bold reverse" if mine else "bold",
                    )
                )
        grid.add_row(*row)
    return grid


def _players(view: dict[str, Any]) -> Table:
    phase, roles = view["phase"], view.get("roles")
    table = Table(title="Players", box=box.SIMPLE_HEAD)
    table.add_column("Seat")
    table.add_column("Status")
    table.add_column("Captures", justify="right")
    table.add_column("Poisons", justify="right")
    if phase == "target":
        table.add_column("Decided?")
    if phase == "placement":
        table.add_column("Card")
    table.add_column("Sits at")
    if roles:
        table.add_column("Role")
    to_move = set(view["to_move"])
    for row in view["table"]:
        seat = row["seat"]
        label = ("▶ " if seat in to_move else "  ") + _seat(seat, view)
        cells: list[Text | str] = [
            label,
            Text(row["status"], style=STATUS_STYLES.get(row["status"], "")),
            str(row["captures"]),
            str(row["poisons"]),
        ]
        if phase == "target":
            cells.append("" if row["decided"] is None else "yes" if row["decided"] else "no")
        if phase == "placement":
            cells.append(card_name(row["card"]))
        cells.append(row["cell"] or "")
        if roles:
            cells.append(_cap(roles[seat]))
        table.add_row(*cells)
    return table


def _draft(view: dict[str, Any]) -> Panel | None:
    draft = view.get("draft")
    if not draft:
        return None
    done = set(draft["drawn"])
    order = ", ".join(
        f"{s} ✓" if s in done else f"▶ {s}" if s == draft["drawer"] else str(s)
        for s in draft["drawers"]
    )
    lines = [
        f"Drawing order: {order}",
        f"{_cap(_seat(draft['drawer'], view))} is drawing; {draft['pile_size']} cards in the pile.",
    ]
    if draft.get("pile") is not None:
        lines.append("The pile: " + ", ".join(card_name(c) for c in draft["pile"]))
    return Panel("\n".join(lines), title="Order draft", box=box.ROUNDED, expand=False)


def _placement(view: dict[str, Any]) -> Panel | None:
    placement = view.get("placement")
    if not placement:
        return None
    extra, joker = placement["extra"], placement["joker"]
    table = Table(box=None, show_header=False, padding=(0, 1))
    for slot, (card, seat) in enumerate(zip(SLOT_CARDS, placement["order"], strict=False)):
        mark = "✓" if slot < placement["slot"] else "▶" if slot == placement["slot"] else " "
        note = " (extra card, played by the Joker)" if card == extra and joker is not None else ""
        table.add_row(mark, f"{card_name(card)}{note}", _seat(seat, view))
    if joker is None:
        about = f"Extra card: {card_name(extra)}; nobody holds the Joker."
    else:
        about = (
            f"Extra card: {card_name(extra)}. In that slot the Joker ({_seat(joker, view)})\n"
            "may instead take a placed cube's seat and move that cube to an empty one."
        )
    return Panel(Group(table, Text(about)), title="Placement", box=box.ROUNDED, expand=False)


def _nights(view: dict[str, Any]) -> Table | None:
    if not view["nights"]:
        return None
    table = Table(title="Past nights (public)", box=box.SIMPLE_HEAD)
    for name in ("Night", "Captured", "Distracted", "Poisoned", "Left the ball"):
        table.add_column(name)
    for night in view["nights"]:
        left = ", ".join(f"seat {x['seat']} ({x['how']})" for x in night["left"])
        table.add_row(
            str(night["night"]),
            *(
                ", ".join(map(str, night[key])) or "—"
                for key in ("captured", "distracted", "poisoned")
            ),
            left or "—",
        )
    return table


def _you(view: dict[str, Any]) -> Panel | None:
    you = view.get("you")
    if you is None:
        return None
    lines = Text()
    lines.append("Role: ")
    lines.append(_cap(you["role"]), style="bold")
    target = "not chosen yet" if you["target"] is None else f"seat {you['target']}"
    lines.append(f"\nTarget this night: {target}")
    if you["card"] is not None:
        lines.append(f"\nOrder card: {card_name(you['card'])}")
    if you["pile_seen"] is not None:
        lines.append("\nPile when you drew: " + ", ".join(card_name(c) for c in you["pile_seen"]))
    parts: list[RenderableType] = [lines]
    if you["results"]:
        results = Table(box=box.SIMPLE_HEAD, title="Your results")
        for name in ("Night", "Target", "Colour", "Landed on you"):
            results.add_column(name)
        for res in you["results"]:
            results.add_row(
                str(res["night"]),
                f"seat {res['target']}",
                _colour(res["colour"]),
                ", ".join(res["effects"]) or "—",
            )
        parts.append(results)
    return Panel(Group(*parts), title=f"You — seat {view['seat']}", box=box.ROUNDED, expand=False)
