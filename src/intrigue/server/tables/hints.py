"""Hints for a person learning a game: each turn, the move the medium bot would play for their
seat, in the game's own words, and why where the heuristic can say it.

A table created with ``"hints": true`` (the lobby's *First game* does so) gives them: whenever a
human seat is to move at a new step and has a connection here, the seat's view and legal moves
(exactly what a bot in that seat would be given; never the state) go to the table's bot pool,
which thinks about them where bots think and charges the table's thinking budget
(`BotPool.advise`, `intrigue.bots.advice`). The answer is sent to that seat's connections
only, as ``{"type": "hint", "step", "action", "text", "reason"}``, and kept for the step, so
a reconnection or another tab of the seat gets it again without thinking twice. It is never
logged. A seat's player switches hints off (and on) with ``{"type": "hints", "on": false}``;
this is kept in memory (a restart turns them back on) and told to every connection of the seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from intrigue.bots.advice import Advice
from intrigue.engine import State

from .connection import Client
from .interfaces import TableFace
from .messages import ClientError, action_text

HINT, HINTS = "hint", "hints"  # server -> seat: a hint; client -> server: switch them on/off
log = logging.getLogger("intrigue.server")


def hint_message(
    state: State, seat: int, view: dict[str, Any], advice: Advice | None
) -> dict[str, Any]:
    """The hint for ``seat`` at the state's step (``action`` null: none to give, e.g. once the
    table's thinking budget is spent); the move's text is the one its button carries."""
    message: dict[str, Any] = {"type": HINT, "step": state.actions_played, "action": None}
    if advice is not None:
        message["action"] = str(advice.action)
        message["text"] = action_text(state, advice.action, view)
        message["reason"] = advice.reason
    return message


class TableHints:
    """A table's hints: which seats want them, the hint of each seat for the current step, and
    the task that thinks of them (one at a time, like the table's bots)."""

    def __init__(self, table: TableFace, enabled: bool) -> None:
        self.table = table
        self.enabled = enabled  # the table was created with hints (a First game)
        self.off: set[int] = set()  # seats whose player switched them off
        self.given: dict[int, dict[str, Any]] = {}  # seat -> its hint message, for one step
        self.task: asyncio.Task[None] | None = None

    def annotate(self, sync: dict[str, Any], seat: int | None) -> None:
        """Tell a seat's sync that the table gives hints, and whether the seat wants them."""
        if self.enabled and seat is not None:
            sync[HINTS] = {"on": seat not in self.off}

    def joined(self, client: Client) -> None:
        """A new connection of a seat gets the step's hint at once, if there is one."""
        hint = self._current(client.seat)
        if hint is not None and client.seat not in self.off:
            client.send(hint)
        self.refresh()

    def refresh(self) -> None:
        """After a move or a connection: start thinking if a seat needs a hint."""
        if self._wanted() and (self.task is None or self.task.done()):
            self.task = asyncio.create_task(self._think(), name=f"hints-{self.table.id}")

    async def receive(self, client: Client, data: dict[str, Any]) -> None:
        """``{"type": "hints", "on": bool}`` from a seat: switch its hints off or on."""
        on = data.get("on")
        if not isinstance(on, bool):
            raise ClientError('"on" must be true or false')
        if client.seat is None:
            raise ClientError("spectators get no hints; open a seat link")
        if not self.enabled:
            raise ClientError("this table gives no hints (a First game table does)")
        if on:
            self.off.discard(client.seat)
        else:
            self.off.add(client.seat)
        for other in self._connections(client.seat):
            other.send({"type": HINTS, "on": on})
            hint = self._current(client.seat)
            if on and hint is not None:
                other.send(hint)
        self.refresh()

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    # -- inside ----------------------------------------------------------------------------
    def _connections(self, seat: int | None) -> list[Client]:
        return [c for c in self.table.clients if c.seat == seat and not c.closed]

    def _current(self, seat: int | None) -> dict[str, Any] | None:
        hint = self.given.get(seat) if seat is not None else None
        if hint is None or hint["step"] != self.table.state.actions_played:
            return None
        return hint

    def _wanted(self) -> list[int]:
        """Human seats to move, connected here, with hints on and none for this step yet."""
        table = self.table
        state = table.state
        if not self.enabled or state.is_over:
            return []
        connected = {c.seat for c in table.clients if not c.closed}
        return [
            seat
            for seat in state.to_move
            if seat not in table.bots  # bots and stand-ins need no hint
            and seat in connected
            and seat not in self.off
            and self._current(seat) is None
        ]

    async def _think(self) -> None:
        """Give every seat that wants one its hint; a position that changed while the pool
        thought is thought about again (each position once)."""
        try:
            while seats := self._wanted():
                state, seat = self.table.state, seats[0]
                view, legal = state.view(seat), state.legal_actions(seat)
                advice = await self.table.pool.advise(self.table.id, view, legal)
                if self.table.state is not state:
                    continue  # the table moved on meanwhile
                hint = self.given[seat] = hint_message(state, seat, view, advice)
                if seat not in self.off:
                    for client in self._connections(seat):
                        client.send(hint)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: no hint could be given", self.table.id)
