"""The hub: every live table of this process, table creation, and loading from the database.

A table lives in memory while it is played; the database is the truth, so the hub rebuilds any
table by replaying its stored moves (at start-up for unfinished games, on demand for others).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

import intrigue
from intrigue.engine import InvalidOption

from ..config import Settings
from ..storage.db import HUMAN, PLAYING, Store, TableRecord
from ..storage.writer import ActionWriter
from .clock import ClockWatcher, TableClock
from .interfaces import ScaleOut
from .seats import check_seat_kinds, seat_record
from .table import LiveTable, replay_turns, to_move_of

log = logging.getLogger("intrigue.server")


class Hub:
    """Every live table, the store behind them, and table creation."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.writer = ActionWriter(store)  # group commit of every table's moves
        self.tables: dict[str, LiveTable] = {}
        # Deadlines and leavers of every live table.
        self.watcher = ClockWatcher(settings.time, self.clocks)
        # Scale-out: several processes sharing the database, woken through Redis; set by the
        # builder of the server (`intrigue.server.transport.app`), None for one process alone.
        self.bus: ScaleOut | None = None

    def clocks(self) -> list[TableClock]:
        """The clock of every live table (what the clock watcher checks)."""
        return [table.clock for table in self.tables.values()]

    async def start(self) -> None:
        """Migrate the database, rebuild every unfinished game by replay, restart its bots."""
        await asyncio.to_thread(self.store.migrate)
        if self.bus is not None:
            await self.bus.start()
        for table_id in await asyncio.to_thread(self.store.unfinished_ids):
            table = await self._load(table_id)
            if table is not None:
                table.kick_bots()
        log.info("%d unfinished table(s) restored", len(self.tables))
        self.watcher.start()

    async def stop(self) -> None:
        if self.bus is not None:
            await self.bus.stop()
        await self.watcher.stop()
        for table in list(self.tables.values()):
            await table.stop()
        await asyncio.to_thread(self.writer.close)
        await asyncio.to_thread(self.store.close)

    async def get(self, table_id: str) -> LiveTable | None:
        """The live table, loading a finished one from the database on demand."""
        table = self.tables.get(table_id)
        if table is None and len(table_id) <= 32:
            table = await self._load(table_id)
        elif table is not None and self.bus is not None and not table.state.is_over:
            await self.bus.refresh(table)  # another process may have moved it on
        return table

    async def _load(self, table_id: str) -> LiveTable | None:
        record = await asyncio.to_thread(self.store.load, table_id)
        if record is None:
            return None
        try:
            # In a worker thread: a long game takes a while to replay.
            state, turns = await asyncio.to_thread(replay_turns, record)
        except Exception:
            log.exception("table %s cannot be rebuilt by replay", table_id)
            return None
        if table_id in self.tables:  # loaded meanwhile by another request
            return self.tables[table_id]
        table = LiveTable(record, state, self.store, self.settings, self.writer, turns)
        self.tables[table_id] = table
        await table.clock.restore()
        if self.bus is not None and table.bus is None:
            await self.bus.attach(table)
        return table

    def open_tables(self) -> list[dict[str, Any]]:
        """Unfinished tables, newest first."""
        tables = [t for t in self.tables.values() if not t.state.is_over]
        tables.sort(key=lambda t: t.created, reverse=True)
        return [t.info() for t in tables]

    async def create(
        self,
        game_id: str,
        players: int | None,
        options: dict[str, Any],
        kinds: list[str] | None,
        settings: dict[str, Any] | None = None,
        custom_deal: bool = False,
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table and a secret token per human seat.

        Options that fix what chance decides (`Option.fixes`: roles, a deal, who starts) make a
        *custom deal*, accepted only with ``custom_deal`` (the lobby's "custom deal / puzzle"
        choice), so no one rigs a deal by accident or unseen: every seat and the lobby see it.
        Raises `UnknownGame`, `InvalidOption` or `ValueError` (bad seats) with a clear message.
        """
        game = intrigue.load(game_id)
        state = game.new(players, secrets.randbits(63), **options)
        fixed = game.fixed_chance(state.options)
        if fixed and not custom_deal:
            raise InvalidOption(
                f"these options fix what chance decides ({', '.join(fixed)}), so the table "
                "would be a custom deal, shown as such to every player; ask for one with "
                '"custom_deal": true'
            )
        kinds = check_seat_kinds(kinds, state.players)
        tokens = {seat: secrets.token_urlsafe(24) for seat, k in enumerate(kinds) if k == HUMAN}
        record = TableRecord(
            id=secrets.token_hex(6),
            game=game.id,
            players=state.players,
            seed=state.seed,
            options=state.options,
            status=PLAYING,
            created=self.settings.time.now(),
            seats=[seat_record(seat, kind, tokens.get(seat)) for seat, kind in enumerate(kinds)],
            settings=dict(settings or {}),
        )
        await asyncio.to_thread(self.store.create_table, record)
        turns = [to_move_of(state)]
        table = LiveTable(record, state, self.store, self.settings, self.writer, turns)
        self.tables[table.id] = table
        if self.bus is not None:
            await self.bus.attach(table, created=True)
        table.kick_bots()
        return table, tokens
