"""The hub: every live table of this process, table creation, and loading from the database.

A table lives in memory while it is played; the database is the truth, so the hub rebuilds any
table by replaying its stored moves (at start-up for unfinished games, on demand for others).
A table nobody is connected to and that has nothing to do (finished; or no bot to move and no
clock running) is evicted from memory after ``Settings.evict_after`` seconds (a finished one
after ``evict_finished_after``), and rebuilt the same way when next opened. Creation is capped:
``max_open_tables`` unfinished tables in memory, ``max_bot_tables`` of them with no human seat
(bots playing bots cost CPU and nobody watches them by necessity).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any

import intrigue
from intrigue.engine import InvalidOption

from ..config import Settings
from ..storage.db import HUMAN, PLAYING, Store, TableRecord
from ..storage.writer import ActionWriter
from .botpool import BotPool
from .clock import ClockWatcher, TableClock
from .interfaces import ScaleOut
from .seats import check_seat_kinds, seat_record
from .table import LiveTable, replay_turns, to_move_of

log = logging.getLogger("intrigue.server")


class ServerFull(Exception):
    """A table cannot be created now: a cap on open tables is reached (a 503 with the text)."""


# Finished tables whose lobby entry is kept after they leave memory (a few hundred bytes each).
FINISHED_KEPT = 20_000


class Hub:
    """Every live table, the store behind them, and table creation."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.writer = ActionWriter(store)  # group commit of every table's moves
        self.tables: dict[str, LiveTable] = {}
        # What the lobby lists of finished tables that left memory (`finished_info`).
        self._finished: OrderedDict[str, dict[str, Any]] = OrderedDict()
        # Where every table's bots think: worker processes, first come first served.
        self.pool = BotPool(settings.bot_processes, settings.bot_budget, settings.bot_move_seconds)
        # Deadlines and leavers of every live table.
        self.watcher = ClockWatcher(settings.time, self.clocks)
        # Scale-out: several processes sharing the database, woken through Redis; set by the
        # builder of the server (`intrigue.server.transport.app`), None for one process alone.
        self.bus: ScaleOut | None = None
        self._sweeper: asyncio.Task[None] | None = None

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
        if self.settings.evict_after > 0:
            self._sweeper = asyncio.create_task(self._sweep(), name="evict-idle-tables")

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self.bus is not None:
            await self.bus.stop()
        await self.watcher.stop()
        for table in list(self.tables.values()):
            await table.stop()
        await asyncio.to_thread(self.pool.close)
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
        table = LiveTable(record, state, self.store, self.settings, self.writer, turns, self.pool)
        self.tables[table_id] = table
        await table.clock.restore()
        if self.bus is not None and table.bus is None:
            await self.bus.attach(table)
        return table

    def finished_info(self, table_id: str) -> dict[str, Any] | None:
        """`LiveTable.info` of a finished table evicted from memory (it no longer changes), so
        that a lobby polling "your tables" does not reload and replay it (None: not known)."""
        return self._finished.get(table_id)

    def _remember_finished(self, table: LiveTable) -> None:
        self._finished[table.id] = table.info()
        self._finished.move_to_end(table.id)
        if len(self._finished) > FINISHED_KEPT:
            self._finished.popitem(last=False)  # the longest known

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
        kinds = check_seat_kinds(kinds, state.players)
        self._check_room(HUMAN not in kinds)
        fixed = game.fixed_chance(state.options)
        if fixed and not custom_deal:
            raise InvalidOption(
                f"these options fix what chance decides ({', '.join(fixed)}), so the table "
                "would be a custom deal, shown as such to every player; ask for one with "
                '"custom_deal": true'
            )
        tokens = {seat: secrets.token_urlsafe(24) for seat, k in enumerate(kinds) if k == HUMAN}
        record = TableRecord(
            id=self.settings.new_table_id(),
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
        table = LiveTable(record, state, self.store, self.settings, self.writer, turns, self.pool)
        self.tables[table.id] = table
        if self.bus is not None:
            await self.bus.attach(table, created=True)
        table.kick_bots()
        return table, tokens

    # -- caps and eviction ------------------------------------------------------------------
    def _check_room(self, bots_only: bool) -> None:
        """`ServerFull` if a cap on unfinished tables in memory is reached."""
        settings = self.settings
        playing = [t for t in self.tables.values() if not t.state.is_over]
        if settings.max_open_tables and len(playing) >= settings.max_open_tables:
            raise ServerFull(
                f"the server has {len(playing)} open tables, its most; try again later"
            )
        if bots_only and settings.max_bot_tables:
            robots = sum(1 for t in playing if t.bots_only)
            if robots >= settings.max_bot_tables:
                raise ServerFull(
                    f"the server already runs {robots} tables with only bots, its most; "
                    "seat a human, or try again later"
                )

    def idle(self, table: LiveTable, now: float) -> bool:
        """Whether ``table`` may leave memory: nobody connected, nothing happened for
        ``evict_after`` seconds, and nothing will happen by itself (finished; or no bot to
        move, no clock running and no other process relying on this replica)."""
        if table.clients or now - table.touched < self._evict_after(table.state.is_over):
            return False
        if table.state.is_over:
            return True
        if self.bus is not None or table.clock.limit is not None:
            return False
        return not table.bots_to_move() and (table.bot_task is None or table.bot_task.done())

    def _evict_after(self, finished: bool) -> float:
        """Seconds an idle table stays in memory (finished: the shorter of the two settings)."""
        settings = self.settings
        if finished and settings.evict_finished_after > 0:
            return min(settings.evict_after, settings.evict_finished_after)
        return settings.evict_after

    async def evict_idle(self) -> list[str]:
        """Drop the idle tables from memory (they reload from the database when opened)."""
        now = time.monotonic()
        gone = [table_id for table_id, t in self.tables.items() if self.idle(t, now)]
        for table_id in gone:
            table = self.tables.pop(table_id)
            if table.state.is_over:
                self._remember_finished(table)
            await table.stop()
            self.pool.forget(table_id)
        if gone:
            log.debug("%d idle table(s) evicted from memory", len(gone))
        return gone

    async def _sweep(self) -> None:
        pause = min(max(self._evict_after(finished=True) / 2, 0.05), 30.0)
        while True:
            await asyncio.sleep(pause)
            try:
                await self.evict_idle()
            except Exception:
                log.exception("evicting idle tables failed")
