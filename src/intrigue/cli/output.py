"""Terminal output shared by the commands: the console, screen hiding, events and outcomes.

Nothing here knows any particular game: games draw themselves through ``Game.render`` and
``Game.describe_action`` and describe their log events with ``Game.describe_event``.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, RenderableType
from rich.text import Text

from intrigue.engine import Game

# Event kinds every game's log ends with; the commands print the outcome themselves.
OUTCOME_KINDS = frozenset({"game_over"})


def make_console(*, stderr: bool = False) -> Console:
    """A console that honours NO_COLOR and TERM=dumb (rich reads both) and COLUMNS."""
    return Console(highlight=False, emoji=False, stderr=stderr)


def show(console: Console, renderable: RenderableType | str) -> None:
    """Print a renderable; plain strings are printed literally, never as markup."""
    if isinstance(renderable, str):
        renderable = Text(renderable)
    console.print(renderable)


def say(console: Console, text: str, style: str | None = None) -> None:
    console.print(Text(text, style=style or ""))


def hide_screen(console: Console) -> None:
    """Clear the screen; where that is impossible, scroll the old text out of sight."""
    if console.is_terminal and not console.is_dumb_terminal:
        console.clear()
        # Also erase the scrollback (xterm and most emulators), or scrolling up would show it.
        console.file.write("\x1b[3J")
        console.file.flush()
    else:
        console.print("\n" * max(console.height, 24), end="")


# -- events -------------------------------------------------------------------------------------
def generic_event_text(event: dict[str, Any]) -> str:
    """``kind: key=value, ...`` for events a game does not describe itself."""
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("kind", "private"))
    text = f"{event.get('kind', '?')}: {fields}" if fields else str(event.get("kind", "?"))
    return text + (" (only you see this)" if event.get("private") else "")


def event_lines(game: Game, events: list[dict[str, Any]], view: dict[str, Any]) -> list[str]:
    """One readable line per event, leaving out the final outcome (printed separately)."""
    lines = []
    for event in events:
        if event.get("kind") in OUTCOME_KINDS:
            continue
        text = game.describe_event(event, view)
        lines.append(text if text is not None else generic_event_text(event))
    return lines


def print_events(
    console: Console, game: Game, events: list[dict[str, Any]], view: dict[str, Any], title: str
) -> None:
    lines = event_lines(game, events, view)
    if not lines:
        return
    say(console, title, "bold")
    for line in lines:
        say(console, f"  {line}")


# -- the end ------------------------------------------------------------------------------------
def _list_seats(seats: list[int]) -> str:
    names = [f"seat {s}" for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def outcome_lines(view: dict[str, Any]) -> list[str]:
    """The outcome as text: winners, reason, whether it was cut off, any unmasked roles."""
    outcome = view.get("outcome")
    if not outcome:
        return []
    winners = outcome["winners"]
    if winners:
        verb = "wins" if len(winners) == 1 else "win"
        lines = [f"Winners: {_list_seats(winners)} {verb}."]
    else:
        drawn = [s for s, r in enumerate(outcome["returns"]) if r >= 0]
        some = 0 < len(drawn) < len(outcome["returns"])  # the others were out before the end
        among = f" among {_list_seats(drawn)}" if some else ""
        lines = [f"The game is a draw{among}."]
    lines.append(f"Reason: {outcome['reason']}.")
    if outcome.get("capped"):
        lines.append("(The game was cut off by its turn limit.)")
    roles = view.get("roles")
    if isinstance(roles, list) and roles:
        unmasked = ", ".join(f"seat {s} {str(r).capitalize()}" for s, r in enumerate(roles))
        lines.append(f"Unmasked: {unmasked}.")
    return lines


def print_outcome(console: Console, view: dict[str, Any], you: int | None = None) -> None:
    say(console, "=== Game over ===", "bold")
    for line in outcome_lines(view):
        say(console, line)
    outcome = view.get("outcome")
    if you is not None and outcome:
        result = outcome["returns"][you]
        verdict = "You won." if result > 0 else "You lost." if result < 0 else "A draw for you."
        say(console, f"Seat {you}: {verdict}", "bold")
