"""The Masquerade Ball in the terminal: the palace as a grid, the piles, menus and log lines.

Everything here works from one seat's view (`State.view`) and its events, never from the state,
so it cannot show anything the seat may not know.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from intrigue.engine import Action

from .board import FILES, FOUR, TWO, Board

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SIDE_STYLES = ("bold blue", "bold red", "bold magenta", "bold green")
AREA_STYLES = {"T": "on grey30", "A": "on grey19", "C": "", "B": "on dark_green"}
ABILITY_TEXT = {
    "spy": "Spy: unmask the card on {0}",
    "redeem": "Priest: redeem the card on {0} (face down again)",
    "deliver": "Nun: deliver your card on {0}",
}


def _area(geo: Board, sq: int) -> str:
    if geo.throne_of[sq] >= 0:
        return "T"
    if geo.step_of[sq] >= 0:
        return "A"
    return "C" if geo.court[sq] >= 0 else "B"


def card_text(card: dict[str, Any] | None) -> Text:
    """Two-to-four characters: rank (or ?? when unknown) and the suit; face-up cards bold."""
    if card is None:
        return Text(" ·  ", style="grey50")
    rank = card["rank"] or "??"
    if rank == "Joker":
        rank = "Jk"
    label = f"{rank:>2}{SUIT_SYMBOLS.get(card['suit'], '?')}"
    style = SIDE_STYLES[card["side"] % 4]
    if not card["up"]:
        style += " italic" if card["rank"] else " dim"
    else:
        style += " reverse"
    mark = "*" if card.get("acting") else " "
    return Text(label + mark, style=style)


def _grid(view: dict[str, Any], geo: Board, squares: list[list[int]], title: str) -> Table:
    table = Table(box=box.SQUARE, show_header=True, title=title, padding=(0, 0))
    table.add_column("", justify="right", style="grey50")
    for f in FILES:
        table.add_column(f, justify="center", min_width=4)
    targets = {p["to"] for p in view["pending"]}
    for row in squares:
        label = geo.names[row[0]][1:] if geo.courts == 2 else geo.names[row[0]][2:]
        cells: list[Text | str] = [label]
        for sq in row:
            name = geo.names[sq]
            text = card_text(view["board"].get(name))
            if name in targets:
                text = Text("⚔", style="bold yellow") + text
            text.stylize(AREA_STYLES[_area(geo, sq)])
            cells.append(text)
        table.add_row(*cells)
    return table


def _two_board(view: dict[str, Any]) -> Table:
    rows = [[r * 6 + f for f in range(6)] for r in range(7)]
    if view.get("seat") == 0:
        rows.reverse()  # North sees its own courtroom at the bottom
    return _grid(view, TWO, rows, "The palace (T throne, A ascension step, B ballroom)")


def _court_rows(c: int) -> list[list[int]]:
    return [[FOUR.cells[c, r, f] for f in range(6)] for r in range(3)]


def _four_board(view: dict[str, Any]) -> Group:
    grids = [
        _grid(view, FOUR, _court_rows(c), f"{side['name']} courtroom ({side['suit']})")
        for c, side in enumerate(view["sides"])
    ]
    ball = Table(title="Ballroom (one giant square)", box=box.SIMPLE)
    ball.add_column("slot")
    ball.add_column("card")
    ball.add_column("axis")
    for i, card in enumerate(view["ballroom"] or []):
        ball.add_row(f"ball{i}", card_text(card), card.get("axis", ""))
    top = Table.grid(padding=(0, 2))
    top.add_row(grids[0], grids[1])
    bottom = Table.grid(padding=(0, 2))
    if len(grids) == 4:
        bottom.add_row(grids[3], grids[2])
    else:  # three players: the palace has no West courtroom (MB-30)
        bottom.add_row(grids[2])
    return Group(top, ball, bottom)


def _pile(pile: dict[str, Any]) -> str:
    if "cards" in pile:
        return ", ".join(pile["cards"]) or "—"
    known = f" (you know: {', '.join(pile['known'])})" if pile["known"] else ""
    return f"{pile['count']} card(s){known}"


def _sides(view: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD)
    for col in ("side", "played by", "hand", "prison", "graveyard"):
        table.add_column(col)
    for side in view["sides"]:
        who = side["controller"]
        name = Text(f"{side['name']} {SUIT_SYMBOLS[side['suit']]}", style=SIDE_STYLES[side["side"]])
        seat = "—" if who < 0 else f"seat {who}" + (" (you)" if who == view.get("seat") else "")
        table.add_row(
            name, seat, _pile(side["hand"]), _pile(side["prison"]), _pile(side["graveyard"])
        )
    return table


def render_view(view: dict[str, Any]) -> RenderableType:
    """The whole position as one seat sees it."""
    header = Text(
        f"The Masquerade Ball — turn {view['turn']}"
        + (f" of {view['max_turns']}" if view.get("max_turns") else ""),
        style="bold",
    )
    board = _four_board(view) if view["players_board"] != 2 else _two_board(view)
    parts: list[RenderableType] = [header, board, _sides(view)]
    if view["pending"]:
        attacks = "; ".join(f"{p['from']} → {p['to']}" for p in view["pending"])
        parts.append(Text(f"Attacks waiting for their verdicts: {attacks}", style="yellow"))
    if view["holding"]:
        held = "; ".join(
            f"seat {h['seat']} on {_side(view, h['side'])}'s thrones" for h in view["holding"]
        )
        parts.append(Text(f"Holding enemy thrones: {held}", style="bold yellow"))
    window = view.get("window")
    if window:
        what = "conquest" if window["kind"] == "conquest" else "release window"
        parts.append(
            Text(f"Between turns ({what}): seat {window['seat']} decides.", style="bold yellow")
        )
    if view["must_move"]:
        parts.append(Text(f"Must still move: {', '.join(view['must_move'])}", style="red"))
    parts.append(Text(view["prompt"], style="bold cyan"))
    parts.append(
        Text("?? masked and unknown · italic masked but known · reverse face up · * acting")
    )
    return Group(*parts)


def _rank_on(view: dict[str, Any], place: str) -> str:
    card = view["board"].get(place)
    if card is None and place.startswith("ball") and place[4:].isdigit():
        ballroom = view.get("ballroom") or []
        i = int(place[4:])
        card = ballroom[i] if i < len(ballroom) else None
    if card is None:
        return "card"
    return card["rank"] or "masked card"


def describe_action(action: Action, view: dict[str, Any]) -> str:
    """A short sentence for the menu."""
    verb, args = action.verb, [str(a) for a in action.args]
    if verb == "inspect":
        return f"inspect your {_rank_on(view, args[0])} on {args[0]}"
    if verb == "move":
        src, dst = args
        what = _rank_on(view, src) if src != "ball" else "ballroom card"
        if dst in view["board"] or (dst.startswith("ball") and dst != "ball"):
            return f"{what} on {src} attacks {dst}"
        return f"move {what} from {src} to {dst}"
    if verb == "swap":
        return f"swap {args[0]} with your card on {args[1]}"
    if verb == "rotate":
        return "rotate your ballroom card (change its axis)"
    if verb in ABILITY_TEXT:
        return ABILITY_TEXT[verb].format(args[0])
    if verb == "drop":
        return f"the delivered card goes to {args[0]}"
    if verb == "play":
        cards = view["sides"][view["side_to_play"]]["hand"].get("cards", [])
        i = int(args[0])
        return f"play {cards[i] if i < len(cards) else 'card'} (hand #{i}) from your hand"
    if verb == "place":
        return "keep it in your hand" if args[0] == "hand" else f"place it on {args[0]}"
    if verb == "free":
        return f"Diplomat: bring back your prisoner #{args[0]}"
    if verb == "resurrect":
        return f"Bishop: raise graveyard card #{args[0]} (your graveyard first)"
    if verb == "release":
        window = view.get("window")
        side = window["side"] if window else view["side_to_play"]
        owners = view["sides"][side]["prisoners_of"]
        i = int(args[0])
        owner = f"{_side(view, owners[i])}'s" if i < len(owners) else "its owner's"
        return f"release prisoner #{i} to {owner} hand"
    if verb == "pass":
        window = view.get("window")
        if window and window["kind"] == "conquest":
            return "take the conquered courtroom (and its entourage) yourself"
        return "release no (more) prisoners now"
    if verb == "liberate":
        return "hand the conquered courtroom back to its first owner"
    if verb == "end":
        return "end the turn (untap; attacks are judged)"
    return str(action)


def _side(view: dict[str, Any], side: int) -> str:
    """A side as players know it: its name and suit ("North ♠")."""
    sides = view.get("sides") or []
    if not 0 <= side < len(sides):
        return "another side"
    return f"{sides[side]['name']} {SUIT_SYMBOLS.get(sides[side]['suit'], '')}".rstrip()


def describe_event(event: dict[str, Any], view: dict[str, Any]) -> str | None:
    """One log line; None for kinds the generic text covers."""
    kind = event["kind"]
    seat = event.get("seat")
    who = "you" if seat is not None and seat == view.get("seat") else f"seat {seat}"
    play = "play" if who == "you" else "plays"
    texts = {
        "setup": lambda: f"The ball begins; seat {event['first']} plays first.",
        "turn": lambda: f"Turn {event['turn']}: {who} {play} {_side(view, event['side'])}.",
        "inspect": lambda: f"{who} inspected the card on {event['square']}.",
        "saw": lambda: f"It is the {event['rank']} ({event['square']}).",
        "play": lambda: f"{who} took a card ({SUIT_SYMBOLS.get(event['suit'], '?')}) from hand.",
        "placed": lambda: f"{who} placed a card on {event['square']} ({event['how']}).",
        "move": lambda: f"{who} moved {event['frm']} → {event['to']}.",
        "attack": lambda: f"{who} attacked {event['to']} from {event['frm']}!",
        "swap": lambda: f"{who} swapped {event['a']} and {event['b']}.",
        "rotate": lambda: f"{who} rotated a ballroom card to {event['axis']}.",
        "unmask": lambda: (
            f"{who} unmasked the {event['rank']} "
            + ("attacking " if event.get("attacking") else "on ")
            + f"{event['square']} ({event['ability']})."
        ),
        "reveal": lambda: f"The card on {event['square']} is revealed: {event['rank']}.",
        "redeem": lambda: f"The card on {event['square']} is masked again.",
        "deliver": lambda: f"The Nun delivers the card on {event['square']}.",
        "drop": lambda: (
            f"It lands on {event['to']}" + (" — an attack!" if event["attack"] else ".")
        ),
        "free": lambda: (
            f"{who} freed prisoner #{event['index']} of {_side(view, event['prison'])}."
        ),
        "resurrect": lambda: (
            f"{who} raised card #{event['index']} of {_side(view, event['graveyard'])}'s graveyard."
        ),
        "released": lambda: (
            f"{who} released a prisoner of {_side(view, event['prison'])}'s prison to "
            f"{_side(view, event['to'])}'s hand."
        ),
        "liberated": lambda: (
            f"{who} handed {_side(view, event['side'])}'s courtroom back to seat {event['side']}."
        ),
        "judged": lambda: (
            f"On {event['square']}: attacker {event['attacker']}, defender {event['defender']}."
        ),
        "verdict": lambda: (
            f"Verdict on {event['square']}: "
            + {"attacker": "the attacker wins", "defender": "the defender wins", "tie": "a tie"}[
                event["winner"]
            ]
            + "".join(
                f"; the {k} flips: {v}" for k, v in event.items() if k in ("attacker", "defender")
            )
            + "."
        ),
        "untap": lambda: f"{who} untapped.",
        "conquered": lambda: (
            f"Seat {event['seat']} conquered {_side(view, event['side'])}'s courtroom!"
        ),
        "vacant": lambda: (
            f"{_side(view, event['side'])} has no card left; its courtroom is vacant."
        ),
        "eliminated": lambda: f"Seat {event['seat']} is out of the game.",
    }
    make = texts.get(kind)
    return make() if make else None


__all__ = ["FOUR", "TWO", "card_text", "describe_action", "describe_event", "render_view"]
