"""Bot pacing: each table's "bot speed", chosen at creation (``tables.settings["bot_speed"]``).

A bot waits before each of its moves so that people can follow the game. The pause is a
multiple of the server's ``bot_delay`` (``--bot-delay``, 0.8 s unless set): a bot that starts
its turn pauses longer than one making the next move of the same turn, so a round of bots in
Shadows over Japan (several actions each) takes seconds, not tens of seconds.

* ``instant`` — no pause at all;
* ``normal`` (the default) — 0.75 times the delay before a bot's first move of a turn and 0.3
  times before each following move (0.6 s and 0.24 s at the default delay);
* ``slow`` — 1.5 and 1 times (1.2 s and 0.8 s), the old pace and more, for a table screen.

A server started with ``--bot-delay 0`` (the tests) plays every table's bots at once.
"""

from __future__ import annotations

from typing import Any

SPEEDS = ("instant", "normal", "slow")
DEFAULT_SPEED = "normal"
# Multiples of the server's bot delay: (a bot's first move of a turn, each following move).
FACTORS = {"instant": (0.0, 0.0), "normal": (0.75, 0.3), "slow": (1.5, 1.0)}


def bot_speed(value: Any) -> str:
    """A checked bot speed for ``POST /api/tables`` (None: the default); `ValueError` names
    the allowed speeds."""
    if value is None:
        return DEFAULT_SPEED
    if isinstance(value, str) and value.strip().lower() in SPEEDS:
        return value.strip().lower()
    raise ValueError(f"bot_speed must be one of {', '.join(SPEEDS)}, not {value!r:.40}")


def bot_pause(speed: str | None, delay: float, same_turn: bool) -> float:
    """Seconds a bot waits before its move at a table of ``speed`` (an unknown or missing speed
    is the default): ``same_turn`` when its previous move was the one just played."""
    first, following = FACTORS.get(speed or DEFAULT_SPEED, FACTORS[DEFAULT_SPEED])
    return max(0.0, delay) * (following if same_turn else first)
