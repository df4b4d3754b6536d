"""Persistence: tables, seats and the ordered actions of every game, through SQLAlchemy.

The database is the authority on what happened: a move counts once its row is committed, and
a game is rebuilt by replaying its seed, options and actions (`intrigue.replay`). The schema is
created and upgraded by Alembic (``migrations/``); the models below must match it, which a test
checks.

All methods are synchronous; the server calls them from worker threads.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy import (
    text as sql_text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

MIGRATIONS = Path(__file__).with_name("migrations")
log = logging.getLogger("intrigue.server")
PLAYING, OVER = "playing", "over"
HUMAN, BOT = "human", "bot"

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class TableRow(Base):
    """One game: which game, how many players, its secret seed and its options."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # How the table is run, beyond the game's own options: clock, chat reveal, rematch origin.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, server_default=sql_text("'{}'"))
    # The id of this table's rematch, once one is started (set once).
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeatRow(Base):
    """A seat: a human (reached through a secret link, stored as its sha256) or a bot."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    # The bot level playing a human seat whose player left or timed out, until they reclaim it.
    standin: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """The ``ordinal``-th action of a table (from 0); the key makes (table, ordinal) unique."""

    __tablename__ = "actions"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Why the server made this move for a human seat ("clock", "standin"); None if they did.
    auto: Mapped[str | None] = mapped_column(String(16), nullable=True)


class MessageRow(Base):
    """A chat line: public to the table (``to_seat`` None) or a whisper to one seat."""

    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    to_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(String(500))
    step: Mapped[int] = mapped_column(Integer)  # moves played when it was said
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass
class SeatRecord:
    seat: int
    kind: str  # HUMAN or BOT
    bot: str | None = None  # the bot level (easy, medium, hard, expert) for bot seats
    token_hash: str | None = None  # sha256 hex of the seat link's token, for human seats
    standin: str | None = None  # bot level standing in for a human seat's absent player


@dataclass(frozen=True)
class ActionWrite:
    """One accepted action to store: the arguments of `Store.append_action`."""

    table_id: str
    ordinal: int
    seat: int
    action: str
    over: bool  # the action ended the game: the table's status becomes OVER with it
    auto: str | None = None
    created: datetime | None = None


@dataclass
class MessageRecord:
    """A stored chat line: said by ``seat`` to the table, or whispered to ``to_seat``."""

    id: int
    seat: int
    to_seat: int | None
    text: str
    step: int  # moves played when it was said
    created: datetime


@dataclass
class TableRecord:
    """A table as stored: enough to rebuild its game by replay."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    status: str
    created: datetime
    seats: list[SeatRecord] = field(default_factory=list)
    actions: list[tuple[int, str]] = field(default_factory=list)
    # How the table is run (tables.settings): clock, reveal_chat, rematch_of...
    settings: dict[str, Any] = field(default_factory=dict)
    messages: list[MessageRecord] = field(default_factory=list)  # chat, in order


@dataclass(frozen=True)
class StoredAction:
    seat: int
    action: str
    auto: str | None  # why the server moved for a human seat, if it did
    created: datetime


def is_conflict(exc: BaseException) -> bool:
    """Whether a failed insert means the row was already there (another process was first)."""
    return isinstance(exc, IntegrityError)


def aware(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def actions_since(store: Store, table_id: str, ordinal: int) -> list[StoredAction]:
    """The table's stored actions from ``ordinal`` on, in order (stopping at a gap)."""
    with Session(store.engine) as session:
        rows = session.execute(
            select(
                ActionRow.ordinal,
                ActionRow.seat,
                ActionRow.action,
                ActionRow.auto,
                ActionRow.created,
            )
            .where(ActionRow.table_id == table_id, ActionRow.ordinal >= ordinal)
            .order_by(ActionRow.ordinal)
        ).all()
    found = []
    for expected, (number, seat, action, auto, created) in enumerate(rows, start=ordinal):
        if number != expected:
            break  # cannot happen while every process appends at len(history)
        found.append(StoredAction(seat, action, auto, aware(created)))
    return found


# The database cannot be reached or refused to wait (locked): the request changed nothing.
DB_UNAVAILABLE = (OperationalError, InterfaceError)
# What a client is told meanwhile.
DB_DOWN = "the database is unavailable right now, so nothing was saved; retry in a moment"


def driver_words(exc: BaseException) -> BaseException:
    """The database driver's own error under SQLAlchemy's (its message without the SQL)."""
    return getattr(exc, "orig", None) or exc


def log_store_failure(exc: BaseException, message: str, *args: object) -> None:
    """Log a write the database refused: a one-line warning for an outage (it happens and
    heals; bots and clocks retry every second), a traceback for anything else (a bug)."""
    if isinstance(exc, DB_UNAVAILABLE):
        log.warning(message + " (the database is unavailable: %s)", *args, driver_words(exc))
    else:
        log.error(message, *args, exc_info=exc)


def now() -> datetime:
    return datetime.now(UTC)


# SQLite's ``synchronous`` setting, chosen with ``?synchronous=full`` on the database URL.
# NORMAL (the default here) in WAL mode: a commit is written to the log but not flushed to the
# disk, so it survives the server process being killed, but the last commits may be lost if the
# machine itself crashes or loses power (the database stays consistent). FULL flushes every
# commit, which under load cost more than all the rest of a move (docs/performance.md).
SQLITE_SYNCHRONOUS = ("normal", "full", "extra", "off")
DEFAULT_SQLITE_SYNCHRONOUS = "normal"
# Seconds a SQLite write waits for another process's lock before the request is answered 503
# (a database locked for longer is as good as unavailable; a player should hear so at once).
SQLITE_BUSY_TIMEOUT = 2.0


class DatabaseDamaged(RuntimeError):
    """The database file fails SQLite's integrity check: the server refuses to serve it."""


def make_engine(url: str) -> Engine:
    """A SQLAlchemy engine; SQLite gets WAL, foreign keys, use from worker threads and the
    ``synchronous`` level of the URL's ``synchronous`` parameter (default NORMAL)."""
    if not url.startswith("sqlite"):
        return create_engine(url, pool_pre_ping=True)
    parsed = make_url(url)
    synchronous = str(parsed.query.get("synchronous", DEFAULT_SQLITE_SYNCHRONOUS)).lower()
    if synchronous not in SQLITE_SYNCHRONOUS:
        raise ValueError(f"synchronous must be one of {', '.join(SQLITE_SYNCHRONOUS)}")
    parsed = parsed.difference_update_query(["synchronous"])
    connect_args: dict[str, Any] = {"check_same_thread": False}
    if "timeout" not in parsed.query:  # ?timeout=S on the URL sets it (the fault tests do)
        # How long a writer waits for another process's write lock, in seconds.
        connect_args["timeout"] = SQLITE_BUSY_TIMEOUT
    engine = create_engine(parsed, connect_args=connect_args)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous.upper()}")
        cursor.close()

    return engine


class FairLock:
    """A lock granted in the order it was asked for.

    ``threading.Lock`` lets the thread that releases it take it straight back, and SQLite's own
    busy handler polls at up to 100 ms: either way the writer thread, committing batch after
    batch under load, could keep a table's creation waiting until it timed out.
    """

    def __init__(self) -> None:
        self._turns = threading.Condition()
        self._next_ticket = 0
        self._serving = 0

    def __enter__(self) -> None:
        with self._turns:
            ticket = self._next_ticket
            self._next_ticket += 1
            self._turns.wait_for(lambda: self._serving == ticket)

    def __exit__(self, *_exc: object) -> None:
        with self._turns:
            self._serving += 1
            self._turns.notify_all()


class SqliteActionWrites:
    """`Store.append_actions` on SQLite, through the driver itself.

    SQLAlchemy's statement cache, execution context and connection wrapper cost about as much
    CPU as SQLite's own insert and commit for the few rows of a typical batch, and the writer
    thread holds the interpreter lock (which the event loop needs) for all of it. The SQL is
    the one SQLAlchemy compiles for the models, the times are stored in its format, and the
    driver's errors are raised as SQLAlchemy's (`IntegrityError` for a row already stored,
    `OperationalError` for a database unavailable), as the Core statements raised them.

    The rows go in as one multi-row ``INSERT`` (up to `ROWS_A_STATEMENT`), not ``executemany``:
    the driver lets go of the interpreter lock around every step of a statement, and each row
    of an ``executemany`` is a step, so the writer thread took the lock back from the event
    loop once a row; one statement takes it back once. For the same reason a batch that is one
    statement and ends no table (nearly every batch) runs it in SQLite's autocommit mode, where
    a statement is a transaction of its own (all its rows or none): one step instead of three
    (``BEGIN``, the ``INSERT``, ``COMMIT``).
    """

    ROWS_A_STATEMENT = 500  # 3,000 parameters, far below SQLite's 32,766

    def __init__(self, engine: Engine, writers: contextlib.AbstractContextManager[None]) -> None:
        self.engine = engine
        self.writers = writers
        dialect = engine.dialect
        compiled = insert(ActionRow).compile(dialect=dialect)
        self.columns = tuple(compiled.positiontup or ())
        self.insert_sql = compiled.string
        head, values, tail = self.insert_sql.partition(" VALUES ")
        if not values or tail.count("?") != len(self.columns):
            raise RuntimeError(f"unexpected insert statement: {self.insert_sql}")
        self._insert_head, self._row_marks = head + values, tail
        self._inserts: dict[int, str] = {}
        self.end_sql = f"UPDATE {TableRow.__tablename__} SET status = ? WHERE id = ?"
        stamp = ActionRow.__table__.c.created.type.dialect_impl(dialect).bind_processor(dialect)
        self.stamp = stamp or str
        self.error = dialect.loaded_dbapi.Error
        if self.columns != ("table_id", "ordinal", "seat", "action", "created", "auto"):
            raise RuntimeError(f"actions' columns changed: {self.columns}; update `rows`")

    def rows(self, writes: Sequence[ActionWrite]) -> list[tuple[Any, ...]]:
        stamp = self.stamp
        return [
            (w.table_id, w.ordinal, w.seat, w.action, stamp(w.created or now()), w.auto)
            for w in writes
        ]

    def insert_statement(self, count: int) -> str:
        """The ``INSERT`` of ``count`` rows (built once for each count)."""
        sql = self._inserts.get(count)
        if sql is None:
            sql = self._inserts[count] = self._insert_head + ", ".join([self._row_marks] * count)
        return sql

    def append(self, writes: Sequence[ActionWrite], ended: list[str]) -> None:
        """Insert ``writes`` and mark the ``ended`` tables over, in one transaction."""
        rows = self.rows(writes)
        with self.writers:
            connection = self.engine.raw_connection()
            try:
                cursor = connection.cursor()
                try:
                    if not ended and len(rows) <= self.ROWS_A_STATEMENT:
                        self._insert_alone(connection.driver_connection, cursor, rows)
                    else:
                        self._insert_in_transaction(cursor, rows, ended)
                        connection.commit()
                except self.error as exc:
                    connection.rollback()
                    raise DBAPIError.instance(self.insert_sql, None, exc, self.error) from exc
                finally:
                    cursor.close()
            finally:
                connection.close()  # back to the pool

    def _insert(self, cursor: Any, rows: list[tuple[Any, ...]]) -> None:
        """One multi-row ``INSERT`` of ``rows`` (at most `ROWS_A_STATEMENT`)."""
        cursor.execute(self.insert_statement(len(rows)), [value for row in rows for value in row])

    def _insert_alone(self, driver: Any, cursor: Any, rows: list[tuple[Any, ...]]) -> None:
        """``rows`` as one statement in autocommit mode: its own transaction. The pooled
        connection is given back in the mode it came in, for SQLAlchemy's transactions."""
        mode = driver.isolation_level
        driver.isolation_level = None  # no transaction is open here: nothing to commit
        try:
            self._insert(cursor, rows)
        finally:
            driver.isolation_level = mode

    def _insert_in_transaction(
        self, cursor: Any, rows: list[tuple[Any, ...]], ended: list[str]
    ) -> None:
        """``rows`` in statements of `ROWS_A_STATEMENT`, then the ``ended`` tables marked
        over; the driver opens the transaction before the first, the caller commits it."""
        size = self.ROWS_A_STATEMENT
        for start in range(0, len(rows), size):
            self._insert(cursor, rows[start : start + size])
        if ended:
            cursor.executemany(self.end_sql, [(OVER, table) for table in ended])


class Store:
    """The server's database: create tables, append actions, load games back."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one write lock per database: the writers of this process take turns for
        # it here, in order. PostgreSQL locks rows, so its writers need no turns.
        self._writers: contextlib.AbstractContextManager[None] = (
            FairLock() if self.engine.dialect.name == "sqlite" else contextlib.nullcontext()
        )
        self._sqlite_writes = (
            SqliteActionWrites(self.engine, self._writers)
            if self.engine.dialect.name == "sqlite"
            else None
        )

    @contextlib.contextmanager
    def writing(self) -> Iterator[Session]:
        """A session in a write transaction, committed on leaving (rolled back on an error)."""
        with self._writers, self._sessions.begin() as session:
            yield session

    def check_integrity(self) -> None:
        """`DatabaseDamaged` if a SQLite file is not a database or fails ``PRAGMA
        quick_check`` (serving it would answer bare errors and write into the damage)."""
        where = self.engine.url.database
        if self.engine.dialect.name != "sqlite" or not where or not Path(where).exists():
            return  # a new file is created sound by the migration
        try:
            # Read-only, past the engine (which would switch the file to WAL: a write).
            with contextlib.closing(sqlite3.connect(f"file:{where}?mode=ro", uri=True)) as db:
                problems = [row[0] for row in db.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise  # busy, not broken
            raise DatabaseDamaged(_damaged(where, str(exc))) from None
        if problems != ["ok"]:
            raise DatabaseDamaged(_damaged(where, "; ".join(problems[:3])))

    def migrate(self) -> None:
        """Create or upgrade the schema to the newest Alembic revision (after checking a SQLite
        file's integrity: `DatabaseDamaged`)."""
        self.check_integrity()
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # Server processes starting together (uvicorn workers) migrate one at a time.
                connection.execute(sql_text("SELECT pg_advisory_xact_lock(7350874205843521)"))
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, record: TableRecord) -> None:
        with self.writing() as session:
            session.add(
                TableRow(
                    id=record.id,
                    game=record.game,
                    players=record.players,
                    seed=record.seed,
                    options=record.options,
                    status=record.status,
                    created=record.created,
                    settings=record.settings,
                )
            )
            session.flush()  # the table row first: seats refer to it
            session.add_all(
                SeatRow(
                    table_id=record.id, seat=s.seat, kind=s.kind, bot=s.bot, token_hash=s.token_hash
                )
                for s in record.seats
            )

    def append_action(
        self,
        table_id: str,
        ordinal: int,
        seat: int,
        action: str,
        over: bool,
        auto: str | None = None,
        created: datetime | None = None,
    ) -> None:
        """Commit one accepted action (and the table's end, if it ended the game).

        ``auto`` says why the server moved for a human seat (``"clock"``, ``"standin"``).
        Raises (IntegrityError) if that ordinal is already stored: nothing is overwritten.
        """
        self.append_actions([ActionWrite(table_id, ordinal, seat, action, over, auto, created)])

    def append_actions(self, writes: Sequence[ActionWrite]) -> None:
        """Commit several accepted actions in ONE transaction (group commit): all or none.

        The (table_id, ordinal) key stays the ordering authority: if any ordinal is already
        stored, this raises (IntegrityError) and none of ``writes`` is stored.
        """
        if not writes:
            return
        ended = sorted({w.table_id for w in writes if w.over})
        if self._sqlite_writes is not None:
            self._sqlite_writes.append(writes, ended)
            return
        rows = [
            {
                "table_id": w.table_id,
                "ordinal": w.ordinal,
                "seat": w.seat,
                "action": w.action,
                "created": w.created or now(),
                "auto": w.auto,
            }
            for w in writes
        ]
        # Core statements, not ORM objects: the per-row unit-of-work bookkeeping was most of
        # the cost of a move under load.
        with self._writers, self.engine.begin() as connection:
            connection.execute(insert(ActionRow), rows)
            if ended:
                connection.execute(
                    update(TableRow).where(TableRow.id.in_(ended)).values(status=OVER)
                )

    def unfinished_ids(self) -> list[str]:
        with Session(self.engine) as session:
            rows = session.scalars(
                select(TableRow.id).where(TableRow.status == PLAYING).order_by(TableRow.created)
            )
            return list(rows)

    def load(self, table_id: str) -> TableRecord | None:
        """The table with its seats and actions in order, or None if there is no such table."""
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
            )
            actions = session.scalars(
                select(ActionRow).where(ActionRow.table_id == table_id).order_by(ActionRow.ordinal)
            )
            return TableRecord(
                id=row.id,
                game=row.game,
                players=row.players,
                seed=row.seed,
                options=dict(row.options),
                status=row.status,
                created=row.created,
                seats=[SeatRecord(s.seat, s.kind, s.bot, s.token_hash, s.standin) for s in seats],
                actions=[(a.seat, a.action) for a in actions],
                settings=dict(row.settings or {}),
                messages=self.messages(table_id, session),
            )

    def add_message(
        self,
        table_id: str,
        seat: int,
        to_seat: int | None,
        text: str,
        step: int,
        created: datetime | None = None,
    ) -> MessageRecord:
        """Commit one chat line (a whisper if ``to_seat`` is set) and return it as stored;
        ``created`` is the server's time (default: the wall clock)."""
        with self.writing() as session:
            row = MessageRow(
                table_id=table_id,
                seat=seat,
                to_seat=to_seat,
                text=text,
                step=step,
                created=created or now(),
            )
            session.add(row)
            session.flush()  # assigns the id
            return _message_record(row)

    def messages(self, table_id: str, session: Session | None = None) -> list[MessageRecord]:
        """The table's chat lines in the order they were said."""
        with contextlib.nullcontext(session) if session is not None else Session(self.engine) as s:
            rows = s.scalars(
                select(MessageRow).where(MessageRow.table_id == table_id).order_by(MessageRow.id)
            )
            return [_message_record(r) for r in rows]


def _message_record(row: MessageRow) -> MessageRecord:
    return MessageRecord(row.id, row.seat, row.to_seat, row.text, row.step, row.created)


def _damaged(where: str, problem: str) -> str:
    return (
        f"the database {where} is damaged ({problem[:200]}); the server will not serve or write "
        "to it: restore it from a backup (or move it aside to start afresh)"
    )
