"""Words shared by every game's texts: naming seats for the reader, and the end of a game.

Game packages word their own events (``render.describe_event``); the engine only words what
every game has in common, so no game repeats it.
"""

from __future__ import annotations

from typing import Any


def seat_name(seat: int, view: dict[str, Any]) -> str:
    """``you`` for the view's own seat, else ``seat N``."""
    return "you" if seat == view.get("seat") else f"seat {seat}"


def name_list(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def game_over_text(event: dict[str, Any], view: dict[str, Any]) -> str:
    """The log line of a ``game_over`` event (its payload is the outcome)."""
    winners = list(event.get("winners") or [])
    if not winners:
        verdict = "a draw"
    else:
        names = [seat_name(s, view) for s in winners]
        alone = len(names) == 1 and names[0] != "you"
        verdict = f"{name_list(names)} {'wins' if alone else 'win'}"
    reason = event.get("reason")
    text = f"Game over: {verdict}" + (f" — {reason}" if reason else "")
    if event.get("capped"):
        text += " (the game reached its turn limit)"
    return text + "."
