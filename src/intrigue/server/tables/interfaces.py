"""What the parts of a live table see of it, and what a table tells other server processes.

A `LiveTable` owns its clock and its chat; they need a few things of their owner (its state, its
connections, its lock, a way to play a move the server makes), so they are handed the table
through `TableFace` rather than importing `intrigue.server.tables.table` (which imports them).
Likewise the tables never import the scale-out layer: a table holds an optional `ScaleOut` link
(`intrigue.server.scaleout.bus.Bus` implements it), set by whoever builds the server.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from intrigue.bots import Bot
from intrigue.engine import Action, Rng, State

from ..config import Settings
from ..storage.db import MessageRecord, Store
from .botpool import BotPool
from .connection import Client


class TableFace(Protocol):
    """The live table as its clock and chat use it."""

    id: str
    store: Store
    settings: Settings
    state: State
    lock: asyncio.Lock
    clients: set[Client]
    bots: dict[int, Bot]
    bot_rngs: dict[int, Rng]
    pool: BotPool
    bus: ScaleOut | None

    def kick_bots(self) -> None:
        """Start the bot runner if a bot is to move."""

    async def play_bot(
        self, seen: State, seat: int, action: Action, auto: str | None = None
    ) -> None:
        """Play a move the server made for ``seat`` (a bot's, or the clock's: ``auto``)."""


class ScaleOut(Protocol):
    """The link of a table to the other server processes sharing its database."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def attach(self, table: Any, created: bool = False) -> None:
        """A table loaded or created here joins the link."""

    async def refresh(self, table: Any) -> None:
        """Bring the table up to date before it is shown."""

    def in_charge(self, table: Any) -> bool:
        """Whether this process plays the table's bots, clock moves and stand-ins."""
        ...

    def moved(self, table: Any, ordinal: int) -> None: ...

    def said(self, table: Any, line: MessageRecord) -> None: ...

    def told(self, table: Any, text: str) -> None: ...

    def voted(self, table: Any, target: int, voter: int) -> None: ...

    def rematched(self, table: Any) -> None: ...

    def credential_changed(self, table: Any, seat: int) -> None:
        """``seat`` has a new secret (a claim or a sign-out made here)."""

    def presence_changed(self, table: Any) -> None: ...

    def seats_elsewhere(self, table_id: str) -> set[int]:
        """The table's seats connected to other processes."""
        ...
