"""Errors raised by the engine and by every game.

`InvalidAction` means the input is malformed (it names no action of the game at all);
`IllegalAction` means a well-formed action that the rules forbid right now. Both leave the state
exactly as it was.
"""

from __future__ import annotations

from typing import Any


class IntrigueError(Exception):
    """Base class of every error intrigue raises on purpose."""


class InvalidAction(IntrigueError, ValueError):
    """Text or JSON that does not describe any action of this game."""


class InvalidOption(IntrigueError, ValueError):
    """A game option that is unknown, of the wrong type or out of range."""


class UnknownGame(IntrigueError, KeyError):
    """No game is registered under this id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class IllegalAction(IntrigueError):
    """A well-formed action that the rules do not allow for this seat now.

    Attributes name the seat, the action and the reason, so a server or a terminal can tell
    the player exactly what was wrong.
    """

    def __init__(self, seat: int | None, action: Any, reason: str) -> None:
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"seat {seat} cannot play {str(action)!r}: {reason}")
