"""Group commit (`intrigue.server.storage.writer`): many moves per transaction, none heard of
before its row is committed, and a refused row refuses only its own move."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from intrigue.server.storage.db import (
    OVER,
    PLAYING,
    ActionWrite,
    FairLock,
    Store,
    TableRecord,
    TableRow,
    now,
)
from intrigue.server.storage.writer import ActionWriter


def make_store(tmp_path: Path, tables: int) -> Store:
    store = Store(f"sqlite:///{tmp_path / 'writer.sqlite3'}")
    store.migrate()
    for i in range(tables):
        store.create_table(
            TableRecord(
                id=f"t{i}", game="masquerade-murder", players=5, seed=i, options={},
                status=PLAYING, created=now(),
            )
        )  # fmt: skip
    return store


class GatedStore(Store):
    """Holds its first transaction until `gate` opens, so later moves queue up behind it."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.transactions: list[list[ActionWrite]] = []

    def append_actions(self, writes):  # type: ignore[no-untyped-def]
        self.transactions.append(list(writes))
        self.entered.set()
        assert self.gate.wait(10)
        super().append_actions(writes)


def gated(tmp_path: Path, tables: int) -> GatedStore:
    make_store(tmp_path, tables).close()
    return GatedStore(f"sqlite:///{tmp_path / 'writer.sqlite3'}")


def stored(url: str, table_id: str) -> list[tuple[int, str]]:
    reader = Store(url)  # a connection of its own: sees only what is committed
    try:
        record = reader.load(table_id)
        assert record is not None
        return record.actions
    finally:
        reader.close()


async def wait_for(event: threading.Event) -> None:
    assert await asyncio.to_thread(event.wait, 10)


def test_moves_waiting_together_are_committed_in_one_transaction(tmp_path):
    store = gated(tmp_path, tables=6)
    writer = ActionWriter(store)

    async def run() -> None:
        first = asyncio.create_task(writer.append(ActionWrite("t0", 0, 0, "draw ace", False)))
        await wait_for(store.entered)  # the first transaction is under way...
        rest = [
            asyncio.create_task(writer.append(ActionWrite(f"t{i}", 0, i % 5, "draw two", i == 5)))
            for i in range(1, 6)
        ]
        await asyncio.sleep(0.05)
        # ...and nobody has heard of any move yet: none is committed.
        assert not first.done() and not any(task.done() for task in rest)
        store.gate.set()
        await asyncio.gather(first, *rest)

    asyncio.run(run())
    writer.close()
    # The five moves that queued up while the first was being stored went in together.
    assert [len(t) for t in store.transactions] == [1, 5]
    assert (writer.batches, writer.writes) == (2, 6)
    for i in range(6):
        assert stored(store.url, f"t{i}") == [(i % 5, "draw ace" if i == 0 else "draw two")]
    record = store.load("t5")
    assert record is not None and record.status == OVER  # the move that ended the game
    assert store.load("t4").status == PLAYING  # type: ignore[union-attr]
    store.close()


def test_a_move_returns_only_once_its_row_is_committed(tmp_path):
    store = make_store(tmp_path, tables=1)
    writer = ActionWriter(store)

    async def run() -> None:
        for ordinal in range(5):
            await writer.append(ActionWrite("t0", ordinal, ordinal, f"move {ordinal}", False))
            # Another connection already reads it: it is committed, not merely queued.
            assert len(stored(store.url, "t0")) == ordinal + 1

    asyncio.run(run())
    writer.close()
    store.close()


def test_a_taken_ordinal_refuses_only_that_move_of_the_batch(tmp_path):
    store = gated(tmp_path, tables=3)
    store.gate.set()
    store.append_actions([ActionWrite("t1", 0, 0, "stored elsewhere", False)])
    store.gate.clear()
    store.entered.clear()
    writer = ActionWriter(store)

    async def run() -> list[BaseException | None]:
        first = asyncio.create_task(writer.append(ActionWrite("t0", 0, 0, "a", False)))
        await wait_for(store.entered)
        # Queued together: t1's ordinal 0 is already stored (say by another server process).
        batch = [
            writer.append(ActionWrite("t2", 0, 0, "b", False)),
            writer.append(ActionWrite("t1", 0, 3, "c", False)),
            writer.append(ActionWrite("t0", 1, 1, "d", False)),
        ]
        tasks = [asyncio.create_task(coro) for coro in batch]
        await asyncio.sleep(0.05)
        store.gate.set()
        await first
        return await asyncio.gather(*tasks, return_exceptions=True)

    outcomes = asyncio.run(run())
    writer.close()
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], IntegrityError)
    assert stored(store.url, "t0") == [(0, "a"), (1, "d")]
    assert stored(store.url, "t1") == [(0, "stored elsewhere")]  # nothing overwritten
    assert stored(store.url, "t2") == [(0, "b")]
    store.close()


class DownStore(Store):
    """A database that cannot be reached."""

    def append_actions(self, writes):  # type: ignore[no-untyped-def]
        raise OperationalError("INSERT", {}, Exception("connection refused"))


def test_an_unreachable_database_refuses_every_move_and_the_writer_goes_on(tmp_path):
    make_store(tmp_path, tables=2).close()
    url = f"sqlite:///{tmp_path / 'writer.sqlite3'}"
    down = ActionWriter(DownStore(url))

    async def run() -> None:
        for table in ("t0", "t1"):
            with pytest.raises(OperationalError):
                await down.append(ActionWrite(table, 0, 0, "a", False))

    asyncio.run(run())
    down.close()
    assert stored(url, "t0") == [] and stored(url, "t1") == []
    # Back up: a writer on a working store stores what it is given.
    writer = ActionWriter(Store(url))
    asyncio.run(writer.append(ActionWrite("t0", 0, 0, "a", False)))
    writer.close()
    assert stored(url, "t0") == [(0, "a")]


def test_sqlite_writers_get_the_write_lock_in_the_order_they_asked() -> None:
    """`FairLock`: the writer thread, committing batch after batch, cannot starve a table's
    creation (under load on SQLite that used to end in "database is locked")."""
    lock = FairLock()
    order: list[str] = []
    lock.__enter__()  # the writer thread, mid-batch

    def writer(name: str) -> None:
        with lock:
            order.append(name)

    waiting = []
    for name in ("create table", "chat line", "next batch"):
        thread = threading.Thread(target=writer, args=(name,))
        thread.start()
        waiting.append(thread)
        while lock._next_ticket < len(waiting) + 1:  # queued before the next one asks
            threading.Event().wait(0.001)
    lock.__exit__(None, None, None)
    for thread in waiting:
        thread.join(5)
    assert order == ["create table", "chat line", "next batch"]


def test_a_failed_write_transaction_stores_nothing_and_frees_the_turn(tmp_path: Path) -> None:
    store = make_store(tmp_path, 1)
    with pytest.raises(IntegrityError), store.writing() as session:
        session.add(
            TableRow(id="t9", game="masquerade-murder", players=5, seed=9, options={},
                     status=PLAYING, created=now())
        )  # fmt: skip
        session.flush()
        session.add(TableRow(id="t0", game="masquerade-murder", players=5, seed=0, options={},
                             status=PLAYING, created=now()))  # fmt: skip
    assert store.load("t9") is None
    store.append_action("t0", 0, 0, "pass", over=False)  # the turn was handed on
    assert store.load("t0").actions == [(0, "pass")]


def test_sqlite_moves_are_stored_as_sqlalchemy_would_store_them(tmp_path: Path) -> None:
    """SQLite's moves skip SQLAlchemy (`SqliteActionWrites`): the rows, their times and the
    end of a table must read back exactly as rows written by SQLAlchemy's own statements."""
    from sqlalchemy import insert, select, update

    from intrigue.server.storage.db import ActionRow, aware

    store = make_store(tmp_path, tables=4)
    moment = datetime(2026, 11, 29, 3, 4, 5, 678901, tzinfo=UTC)
    store.append_actions(
        [
            ActionWrite("t0", 0, 2, "vote:1", False, created=moment),
            ActionWrite("t1", 0, 0, "pass", True, auto="clock", created=moment),
        ]
    )
    with store.engine.begin() as connection:  # the same moves the SQLAlchemy way
        connection.execute(
            insert(ActionRow),
            [
                dict(table_id="t2", ordinal=0, seat=2, action="vote:1", created=moment, auto=None),
                dict(table_id="t3", ordinal=0, seat=0, action="pass", created=moment, auto="clock"),
            ],
        )
        connection.execute(update(TableRow).where(TableRow.id == "t3").values(status=OVER))
    with store.engine.connect() as connection:
        raw = connection.exec_driver_sql(
            "SELECT table_id, ordinal, seat, action, created, auto FROM actions ORDER BY table_id"
        ).all()
        rows = connection.execute(select(ActionRow.created, TableRow.status).join(TableRow)).all()
    assert [row[1:] for row in raw[:2]] == [row[1:] for row in raw[2:]]  # byte for byte
    assert [(aware(created), status) for created, status in rows] == [
        (moment, PLAYING), (moment, OVER), (moment, PLAYING), (moment, OVER)
    ]  # fmt: skip
    # A row already stored refuses the whole batch, as SQLAlchemy's error.
    with pytest.raises(IntegrityError):
        store.append_actions(
            [ActionWrite("t2", 1, 0, "x", True), ActionWrite("t0", 0, 0, "again", False)]
        )
    assert store.load("t2").actions == [(2, "vote:1")] and store.load("t2").status == PLAYING
    store.close()


def test_a_batch_longer_than_one_statement_is_stored_whole_and_in_order(tmp_path: Path) -> None:
    """SQLite's rows go in as multi-row INSERTs of at most `ROWS_A_STATEMENT` rows: a batch of
    several statements is one transaction, every row in its place; a conflict in the last
    statement stores none of the batch."""
    from intrigue.server.storage.db import SqliteActionWrites

    size = SqliteActionWrites.ROWS_A_STATEMENT
    count = 2 * size + 3
    store = make_store(tmp_path, tables=2)
    store.append_actions(
        [ActionWrite(f"t{i % 2}", i // 2, i % 5, f"move:{i}", False) for i in range(count)]
    )
    for table in (0, 1):
        assert store.load(f"t{table}").actions == [
            (i % 5, f"move:{i}") for i in range(table, count, 2)
        ]
    batch = [ActionWrite("t0", count + i, 0, f"more:{i}", False) for i in range(size + 1)]
    batch.append(ActionWrite("t1", 0, 0, "again", False))  # taken: refuses the whole batch
    with pytest.raises(IntegrityError):
        store.append_actions(batch)
    assert len(store.load("t0").actions) == (count + 1) // 2
    store.close()


def test_a_locked_sqlite_database_refuses_moves_as_unavailable(tmp_path: Path) -> None:
    """Another process holding SQLite's write lock past the busy timeout: the driver's error
    comes out as SQLAlchemy's `OperationalError`, what the server answers as unavailable."""
    store = make_store(tmp_path, tables=1)
    store.close()
    store = Store(f"sqlite:///{tmp_path / 'writer.sqlite3'}?timeout=0.05")
    holder = sqlite3.connect(tmp_path / "writer.sqlite3")
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(OperationalError, match="locked"):
            store.append_action("t0", 0, 0, "pass", over=False)
    finally:
        holder.rollback()
        holder.close()
    store.append_action("t0", 0, 0, "pass", over=False)  # the connection was given back clean
    assert store.load("t0").actions == [(0, "pass")]
    store.close()


def test_a_batch_of_one_statement_is_a_transaction_of_its_own(tmp_path: Path) -> None:
    """A batch that is one INSERT and ends no table runs in SQLite's autocommit mode (one step
    of the driver): a conflict in its last row stores none of its rows, and the connection goes
    back to the pool in its own mode, so a SQLAlchemy transaction on it still rolls back."""
    store = make_store(tmp_path, tables=2)
    pooled = store.engine.raw_connection()  # the pool's one connection, used in turn by all
    statements: list[str] = []
    pooled.driver_connection.set_trace_callback(statements.append)
    pooled.close()
    store.append_actions([ActionWrite("t0", 0, 0, "a", False), ActionWrite("t1", 0, 1, "b", False)])
    assert [sql.split(" ", 1)[0] for sql in statements] == ["INSERT"]  # no BEGIN, no COMMIT
    with pytest.raises(IntegrityError):
        store.append_actions(
            [ActionWrite("t0", 1, 0, "c", False), ActionWrite("t1", 0, 0, "again", False)]
        )
    assert store.load("t0").actions == [(0, "a")]
    assert store.load("t1").actions == [(1, "b")]
    with pytest.raises(RuntimeError), store.writing() as session:
        session.add(
            TableRow(id="t9", game="masquerade-murder", players=5, seed=9, options={},
                     status=PLAYING, created=now())
        )  # fmt: skip
        session.flush()  # the row is in the open transaction, which the error rolls back
        raise RuntimeError("rolled back")
    assert store.load("t9") is None
    store.close()
