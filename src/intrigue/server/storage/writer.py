"""Group commit: one writer thread per server process stores the moves of every table.

Under load, committing each move in its own transaction (and its own worker thread) cost most of
the server's time: a transaction, an fsync and a thread hand-off per move, and SQLite writers
queueing on its single write lock. Instead every accepted move is put on one queue; the writer
thread takes ALL the moves waiting at that moment, commits them in one transaction
(`Store.append_actions`), and only then wakes the tables that made them (one wake-up of the
event loop per batch). The durability rule is unchanged: a table hears that its move was stored
only after the transaction holding its row has committed, and only then tells its players.

A table may hand over several of its moves at once (`ActionWriter.append_all`: the moves that
arrived while its previous one was being stored, each played on the position the one before it
left): they are stored together or not at all, since a later one means nothing without the
earlier ones.

If the database refuses a batch because one row's (table_id, ordinal) is already stored (say by
another server process sharing the database), its tables' moves are retried one transaction per
table's group, so that only the moves that really conflict are refused. Any other failure (the
database is unavailable) refuses every move of the batch: none of them is played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError

from .db import ActionWrite, Store

log = logging.getLogger("intrigue.server")

MAX_BATCH = 1000  # tables' groups of moves in one transaction at most (a bound on its size)


@dataclass
class _Pending:
    writes: list[ActionWrite]  # one table's moves, in order: stored together or not at all
    future: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop


_STOP = None  # put on the queue to end the thread


class ActionWriter:
    """Stores accepted moves for every table of one process, many per transaction."""

    def __init__(self, store: Store, max_batch: int = MAX_BATCH) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[_Pending | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        # Figures for benchmarks: transactions committed and moves stored.
        self.batches = 0
        self.writes = 0

    async def append(self, write: ActionWrite) -> None:
        """Store ``write``; returns once committed, raises what the database raised."""
        await self.append_all([write])

    async def append_all(self, writes: list[ActionWrite]) -> None:
        """Store one table's ``writes`` (consecutive moves) in one transaction, all or none;
        returns once committed, raises what the database raised."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._ensure_started()
        self._queue.put(_Pending(writes, future, loop))
        await future

    def close(self) -> None:
        """Store what is queued, then stop the thread (a later `append` starts a new one)."""
        with self._start_lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(_STOP)
            thread.join()

    def _ensure_started(self) -> None:
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    # A daemon: a server that exits without `close` must not hang on it.
                    self._thread = threading.Thread(
                        target=self._run, name="intrigue-writer", daemon=True
                    )
                    self._thread.start()

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is _STOP:
                return
            batch = [first]
            # Everything waiting now goes into the same transaction.
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stopping = True
                    break
                batch.append(item)
            self._settle(batch, self._write([p.writes for p in batch]))

    def _write(self, groups: list[list[ActionWrite]]) -> list[BaseException | None]:
        """Commit the groups of moves: together if possible, else group by group; an outcome
        per group."""
        try:
            self._store([write for group in groups for write in group])
            return [None] * len(groups)
        except IntegrityError as exc:
            if len(groups) == 1:
                return [exc]
            log.warning("a batch of %d tables' moves was refused; storing them apart", len(groups))
        except Exception as exc:
            # The database is unavailable: every move of the batch fails (and is not played).
            return [exc] * len(groups)
        outcomes: list[BaseException | None] = []
        for group in groups:
            try:
                self._store(group)
                outcomes.append(None)
            except Exception as exc:
                outcomes.append(exc)
        return outcomes

    def _store(self, writes: list[ActionWrite]) -> None:
        self.store.append_actions(writes)
        self.batches += 1
        self.writes += len(writes)

    @staticmethod
    def _settle(batch: list[_Pending], outcomes: list[BaseException | None]) -> None:
        """Wake the waiting tables: one call into each event loop for the whole batch."""
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[_Pending, BaseException | None]]] = {}
        for pending, outcome in zip(batch, outcomes, strict=True):
            by_loop.setdefault(pending.loop, []).append((pending, outcome))
        for loop, settled in by_loop.items():
            # RuntimeError: that event loop is closed, so nobody waits any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_resolve, settled)


def _resolve(settled: list[tuple[_Pending, BaseException | None]]) -> None:
    for pending, outcome in settled:
        if pending.future.done():
            continue  # the waiting task was cancelled
        if outcome is None:
            pending.future.set_result(None)
        else:
            pending.future.set_exception(outcome)
