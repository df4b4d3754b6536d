"""Faults, on SQLite and on PostgreSQL: the server killed at random moments, and the database
unavailable for a moment.

**Kills.** Several Masquerade Murder tables (humans and bots mixed, bots without delay) are
played at once by WebSocket clients choosing random legal moves, each in a thread, while the
server process is SIGKILLed at random moments (after a seeded random number of acknowledged
moves, so the games' progress, not the machine's speed, sets them) and started again on the same
port and database; the clients reconnect. After each kill: every move a client saw acknowledged (the
update with ``accepted``) is stored at its place, what was stored before an earlier kill is
unchanged, every stored record replays; after each restart every unfinished game goes on; in
the end every game is over and each seat's last view is the view of the replayed record.

**Outages.** The database refuses writes — SQLite: another connection holds the write lock
(``BEGIN EXCLUSIVE``; in WAL mode reads go on) and the server's busy timeout is 0.5 s;
PostgreSQL: another session holds EXCLUSIVE locks on the game tables and the server's
``lock_timeout`` is 0.5 s — or is gone (PostgreSQL reached through a TCP relay on 127.0.0.1
that the test stops and starts again). The mover gets a clear error, nothing is half-applied,
the other connections hear nothing, and moves go through once the database is back; bots and
clocks try again by themselves.

PostgreSQL is ``INTRIGUE_TEST_POSTGRES`` or postgresql+psycopg://127.0.0.1:5432/test, a schema
of its own per test; those cases are skipped, with the reason, when none is reachable.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from server_driver import (
    TIMEOUT,
    Player,
    ProcessServer,
    ThreadServer,
    create_table,
    first_action,
    free_port,
    hello,
    is_over,
    play_until,
    wait_until,
)
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

import intrigue
from intrigue.engine import Record, State
from intrigue.server.config import Settings, normalise_database_url
from intrigue.server.storage.db import Store, TableRecord
from intrigue.server.timesource import FakeTime

SAVE_FAILED = "the server could not save this move, so it was not played; retry"
SLOW_DOWN = "too many messages; slow down"
DB_DOWN = "the database is unavailable right now, so nothing was saved; retry in a moment"
GAME_FIELDS = ("seat", "view", "events", "legal_actions")  # what a sync says about the game
WAIT = 0.5  # seconds the server waits for a locked database before it gives up on a write


# -- databases ------------------------------------------------------------------------------
def pg_base_url() -> str:
    url = os.environ.get("INTRIGUE_TEST_POSTGRES") or "postgresql+psycopg://127.0.0.1:5432/test"
    return normalise_database_url(url)


def pg_url(schema: str, port: int | None = None, lock_timeout_ms: int | None = None) -> str:
    """The PostgreSQL URL working in ``schema`` (through ``port``, with a lock timeout)."""
    options = f"-csearch_path={schema}"
    if lock_timeout_ms is not None:
        options += f" -clock_timeout={lock_timeout_ms}"
    url = make_url(pg_base_url()).update_query_dict({"options": options})
    if port is not None:
        url = url.set(host="127.0.0.1", port=port)
    return url.render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def pg_reachable() -> None:
    """Skip (with the reason) when no PostgreSQL answers."""
    engine = create_engine(pg_base_url(), connect_args={"connect_timeout": 3})
    try:
        with engine.connect():
            pass
    except Exception as exc:
        shown = make_url(pg_base_url()).render_as_string(hide_password=True)
        pytest.skip(f"no PostgreSQL reachable at {shown} ({type(exc).__name__})")
    finally:
        engine.dispose()


@pytest.fixture
def pg_schema(pg_reachable: None) -> Iterator[str]:
    """A fresh schema for one test, dropped afterwards."""
    schema = f"intrigue_faults_{secrets.token_hex(4)}"
    admin = create_engine(pg_base_url())
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield schema
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def load_all(url: str, table_ids: list[str]) -> dict[str, TableRecord]:
    store = Store(url)
    try:
        records = {table_id: store.load(table_id) for table_id in table_ids}
    finally:
        store.close()
    assert all(records.values()), "a table is missing from the database"
    return records  # type: ignore[return-value]


def stored_actions(url: str, table_id: str) -> list[tuple[int, str]]:
    return load_all(url, [table_id])[table_id].actions


def replay(record: TableRecord) -> State:
    return intrigue.replay(
        Record(record.game, record.players, record.seed, record.options, record.actions)
    )


# -- kills ------------------------------------------------------------------------------------
SEED = 11
KILLS = 3  # kill/restart cycles per database
# Acknowledged moves (of all tables together) between a restart and the next kill.
KILL_AFTER_ACKS = (10, 30)
# (seat kinds, max_turns): 8 tables, 16 human seats; random play lasts 15 moves per night,
# so every game with humans outlasts the kills (about a fifth of its moves per human seat).
TABLES = (
    (["human", "easy", "medium", "easy", "human"], 8),
    (["easy", "human", "medium", "human", "easy"], 8),
    (["human", "human", "human", "human", "human"], 8),
    (["easy", "easy", "easy", "easy", "easy"], 12),  # bots only: the server plays it alone
    (["human", "medium", "medium", "medium", "medium"], 8),
    (["easy", "easy", "human", "easy", "easy"], 8),
    (["human", "human", "easy", "easy", "medium"], 8),
    (["medium", "human", "easy", "human", "human"], 8),
)


class Seat(threading.Thread):
    """A human seat's client: plays random legal moves, reconnects whenever the server is
    gone, and records each move it saw acknowledged as ``(ordinal, action)``."""

    def __init__(
        self, server: ProcessServer, table_id: str, seat: int, token: str, seed: int
    ) -> None:
        super().__init__(name=f"seat-{table_id}-{seat}", daemon=True)
        self.server = server
        self.table_id = table_id
        self.seat = seat
        self.token = token
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.acks: list[tuple[int, str]] = []
        self.errors: list[str] = []
        self.latest: dict[str, Any] | None = None  # the last sync or update
        self.connections = 0
        self.failure: BaseException | None = None

    @property
    def over(self) -> bool:
        return self.latest is not None and is_over(self.latest)

    def run(self) -> None:
        try:
            while not self.over and not self.stop.is_set():
                try:
                    self._connection()
                except (ConnectionClosed, InvalidHandshake, OSError):
                    time.sleep(0.05)  # the server is down: knock again
        except BaseException as exc:  # the test reports it
            self.failure = exc

    def _connection(self) -> None:
        url = f"{self.server.ws_url}/ws/{self.table_id}"
        with connect(url, open_timeout=TIMEOUT, max_size=2**22) as ws:
            ws.send(json.dumps(hello(self.token)))
            self.connections += 1
            synced = waiting = False  # no move is chosen before this connection's sync
            while not self.stop.is_set():
                latest = self.latest
                if synced and not waiting and latest is not None and latest["legal_actions"]:
                    move = self.rng.choice(latest["legal_actions"])["action"]
                    step = latest["view"]["step"]
                    ws.send(json.dumps({"type": "act", "action": move, "step": step}))
                    waiting = True
                try:
                    message = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    continue
                if message["type"] in ("sync", "update"):
                    synced, self.latest = True, message
                    if message.get("accepted") is not None:
                        # The step the move was played at (moves sent while the table stored
                        # another are played and answered together: the view may be later).
                        self.acks.append((message["accepted_step"], message["accepted"]))
                        waiting = False
                    if is_over(message):
                        return
                elif message["type"] == "error":
                    if message["message"] == SLOW_DOWN:
                        time.sleep(0.2)  # a polite client waits for its rate limit
                    else:
                        self.errors.append(message["message"])
                    waiting = False


@pytest.fixture(params=["sqlite", "postgres"])
def kill_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'kills.sqlite3'}"
    return pg_url(request.getfixturevalue("pg_schema"))


def check_stored(
    url: str, seats: list[Seat], before: dict[str, TableRecord], table_ids: list[str]
) -> dict[str, TableRecord]:
    """The database (server dead or stopped) against every acknowledged move so far."""
    records = load_all(url, table_ids)
    for table_id, record in records.items():
        earlier = before[table_id].actions if table_id in before else []
        assert record.actions[: len(earlier)] == earlier, f"table {table_id} lost or changed moves"
        for seat in (s for s in seats if s.table_id == table_id):
            for ordinal, action in list(seat.acks):
                assert ordinal < len(record.actions), f"table {table_id} lost move {ordinal}"
                assert record.actions[ordinal] == (seat.seat, action), (table_id, ordinal)
        state = replay(record)  # a corrupted record would not replay
        assert (record.status == "over") == state.is_over, table_id
    return records


def went_on(server: ProcessServer, records: dict[str, TableRecord]) -> bool:
    """Whether every game still on when the server was killed got past its stored moves."""
    response = httpx.get(f"{server.url}/api/tables", timeout=TIMEOUT)
    steps = {info["id"]: info["step"] for info in response.json()["tables"]}  # unfinished ones
    for table_id, record in records.items():
        if record.status == "playing" and table_id in steps:
            assert steps[table_id] >= len(record.actions), f"{table_id} lacks stored moves"
            if steps[table_id] == len(record.actions):
                return False
    return True


def ended(server: ProcessServer, table_ids: list[str]) -> bool:
    response = httpx.get(f"{server.url}/api/tables", timeout=TIMEOUT)
    return not {info["id"] for info in response.json()["tables"]} & set(table_ids)


def acknowledged(seats: list[Seat]) -> int:
    return sum(len(seat.acks) for seat in seats)


def check_alive(seats: list[Seat]) -> None:
    for seat in seats:
        if seat.failure is not None:
            raise AssertionError(f"{seat.name} failed") from seat.failure


def test_kills_at_random_moments_lose_no_acknowledged_move(kill_db, tmp_path):
    rng = random.Random(SEED)
    log = tmp_path / "server.log"
    server = ProcessServer(kill_db, log).start()
    seats: list[Seat] = []
    try:
        tables = [
            create_table(server.url, seats=kinds, options={"max_turns": turns})
            for kinds, turns in TABLES
        ]
        ids = [t["id"] for t in tables]
        for table in tables:
            for link in table["links"]:
                seed = rng.randrange(2**32)
                seats.append(Seat(server, table["id"], link["seat"], link["token"], seed))
        for seat in seats:
            seat.start()
        records: dict[str, TableRecord] = {}
        mid_play = 0  # kills that came while some game was still on
        for _ in range(KILLS):
            # Kill after a random number of acknowledged moves, then a random instant later;
            # Masquerade Murder may end any night, so the players' games may all end first.
            target = acknowledged(seats) + rng.randint(*KILL_AFTER_ACKS)
            wait_until(
                lambda t=target: acknowledged(seats) >= t or all(s.over for s in seats),
                "moves before the kill",
            )
            time.sleep(rng.uniform(0, 0.05))
            server.kill()
            records = check_stored(kill_db, seats, records, ids)
            mid_play += any(r.status == "playing" for r in records.values())
            server.start()  # the same port: the clients reconnect where they were
            check_alive(seats)
            wait_until(partial(went_on, server, records), "every game to go on after a restart")
        # The first kill, 10-30 moves in, always finds games on; a later one may not.
        assert mid_play >= 1, "no kill came while a game was on: the test tested nothing"
        for seat in seats:
            seat.join(TIMEOUT)
            check_alive(seats)
            assert seat.over, f"{seat.name} did not see its game end"
        wait_until(partial(ended, server, ids), "the bots-only game to end")
    finally:
        for seat in seats:
            seat.stop.set()
        server.stop()
    final = check_stored(kill_db, seats, records, ids)
    assert all(record.status == "over" for record in final.values())
    for seat in seats:
        assert seat.errors == [], (seat.name, seat.errors)
        assert seat.latest is not None
        assert replay(final[seat.table_id]).view(seat.seat) == seat.latest["view"]
    # Some seats played across kills, reconnecting each time.
    assert max(seat.connections for seat in seats) > 1
    assert "Traceback" not in log.read_text()


# -- outages ----------------------------------------------------------------------------------
class Outage(Protocol):
    url: str  # the database URL the server uses
    reads_work: bool  # whether the server can still read during the outage

    def down(self) -> None: ...

    def up(self) -> None: ...

    def close(self) -> None: ...


class SqliteLock:
    """Another connection holds SQLite's write lock; the server's writes give up after WAIT."""

    reads_work = True  # WAL: readers are not blocked by the writer

    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}?timeout={WAIT}"  # sqlite3's busy timeout, in seconds
        self._holder: sqlite3.Connection | None = None

    def down(self) -> None:
        self._holder = sqlite3.connect(self.path, timeout=TIMEOUT, isolation_level=None)
        self._holder.execute("BEGIN EXCLUSIVE")

    def up(self) -> None:
        if self._holder is not None:
            self._holder.execute("ROLLBACK")
            self._holder.close()
            self._holder = None

    def close(self) -> None:
        self.up()


class PostgresLock:
    """Another session holds EXCLUSIVE locks on the game tables (plain reads go on); the
    server's statements give up after a lock_timeout of WAIT."""

    reads_work = True

    def __init__(self, schema: str) -> None:
        self.url = pg_url(schema, lock_timeout_ms=int(WAIT * 1000))
        self._admin = create_engine(pg_url(schema))
        self._holder: Connection | None = None

    def down(self) -> None:
        self._holder = self._admin.connect()
        self._holder.begin()
        self._holder.execute(text("LOCK TABLE tables, seats, actions, messages IN EXCLUSIVE MODE"))

    def up(self) -> None:
        if self._holder is not None:
            self._holder.rollback()
            self._holder.close()
            self._holder = None

    def close(self) -> None:
        self.up()
        self._admin.dispose()


class TcpRelay:
    """A TCP relay on 127.0.0.1 that the test can stop — refusing new connections and cutting
    the open ones, as when a database host goes away — and start again on the same port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()

    def start(self) -> None:
        listener = socket.create_server(("127.0.0.1", self.port))  # SO_REUSEADDR on POSIX
        listener.settimeout(0.05)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        with self._lock:
            listener, self._listener = self._listener, None
            cut = list(self._open)
        if listener is not None:
            listener.close()
        self._cut(*cut)

    def _accept(self, listener: socket.socket) -> None:
        while self._listener is listener:
            try:
                client, _ = listener.accept()
                upstream = socket.create_connection(self.target, timeout=TIMEOUT)
            except TimeoutError:
                continue
            except OSError:
                return  # stopped
            with self._lock:
                if self._listener is not listener:  # stopped meanwhile
                    self._cut(client, upstream)
                    return
                self._open |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                source.settimeout(None)
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            self._cut(source, sink)

    def _cut(self, *sockets: socket.socket) -> None:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
            self._open.discard(sock)


class PostgresGone:
    """PostgreSQL reached through a `TcpRelay`: stopping the relay makes it unreachable."""

    reads_work = False

    def __init__(self, schema: str) -> None:
        target = make_url(pg_base_url())
        self.relay = TcpRelay((target.host or "127.0.0.1", target.port or 5432))
        self.relay.start()
        self.url = pg_url(schema, port=self.relay.port)

    def down(self) -> None:
        self.relay.stop()

    def up(self) -> None:
        if self.relay._listener is None:
            self.relay.start()

    def close(self) -> None:
        self.relay.stop()


@pytest.fixture
def outage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Outage]:
    kind = request.param
    made: Outage
    if kind == "sqlite-lock":
        made = SqliteLock(tmp_path / "outage.sqlite3")
    elif kind == "postgres-lock":
        made = PostgresLock(request.getfixturevalue("pg_schema"))
    else:
        made = PostgresGone(request.getfixturevalue("pg_schema"))
    yield made
    made.close()


class StoreFailures(logging.Handler):
    """Counts the server's "could not store" log records (the server runs in this process),
    and those of them that carry a traceback (an outage should be a one-line warning)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.tracebacks = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().find("could not store") >= 0:
            self.count += 1
            self.tracebacks += record.exc_info is not None


@pytest.fixture
def store_failures() -> Iterator[StoreFailures]:
    handler = StoreFailures()
    logger = logging.getLogger("intrigue.server")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


@pytest.fixture
def opened() -> Iterator[list[Player]]:
    players: list[Player] = []
    yield players
    for player in players:
        player.close()


def join(server: ThreadServer, opened: list[Player], table_id: str, token: str | None) -> Player:
    player = Player(server.ws_url, table_id, token)
    opened.append(player)
    return player


ALL_OUTAGES = ["sqlite-lock", "postgres-lock", "postgres-gone"]


@pytest.mark.parametrize("outage", ALL_OUTAGES, indirect=True)
def test_a_move_during_an_outage_is_refused_whole_and_plays_afterwards(outage, opened):
    server = ThreadServer(Settings(database_url=outage.url, bot_delay=0)).start()
    try:
        table = create_table(server.url, seats=["human"] * 5)
        table_id, tokens = table["id"], [link["token"] for link in table["links"]]
        mover = join(server, opened, table_id, tokens[0])
        before = mover.sync()
        others = [join(server, opened, table_id, tokens[1]), join(server, opened, table_id, None)]
        for other in others:
            other.sync()
        outage.down()
        try:
            assert mover.act("target 1") == {"type": "error", "message": SAVE_FAILED}
            # Nothing half-applied: a new connection of the seat gets the old picture.
            again = join(server, opened, table_id, tokens[0])
            resync = again.sync()
            assert {k: resync[k] for k in GAME_FIELDS} == {k: before[k] for k in GAME_FIELDS}
            assert server.hub.tables[table_id].state.history == []
            mover.send({"type": "say", "text": "anyone there?"})
            chat = mover.recv()
            assert chat["type"] == "error" and "could not save" in chat["message"], chat
            response = httpx.post(
                f"{server.url}/api/tables", json={"game": "masquerade-murder"}, timeout=TIMEOUT
            )
            assert response.status_code == 503, response.text
            assert response.json() == {"detail": DB_DOWN}
            check_unloaded_table(server, outage)
        finally:
            outage.up()
        assert stored_actions(outage.url, table_id) == []
        assert mover.act("target 1")["accepted"] == "target 1"
        # The others heard nothing of the refused move: their next message is the stored one.
        for other in [*others, again]:
            update = other.recv()
            assert update["type"] == "update" and update["view"]["step"] == 1, update
            assert "accepted" not in update
        assert stored_actions(outage.url, table_id) == [(0, "target 1")]
    finally:
        server.stop()


@pytest.mark.parametrize("outage", ["sqlite-lock", "postgres-gone"], indirect=True)
def test_a_vote_that_cannot_be_stored_gets_a_clear_error(outage, opened):
    server = ThreadServer(Settings(database_url=outage.url, bot_delay=0)).start()
    try:
        table = create_table(server.url, seats=["human", "human", "human", "easy", "easy"])
        table_id, tokens = table["id"], [link["token"] for link in table["links"]]
        voters = [join(server, opened, table_id, tokens[seat]) for seat in (0, 1)]
        for voter in voters:
            voter.sync()
        gone = join(server, opened, table_id, tokens[2])  # seat 2 comes and goes: votable
        gone.sync()
        gone.close()
        wait_until(lambda: 2 in server.hub.tables[table_id].clock.away, "seat 2 to be away")
        voters[0].send({"type": "vote_replace", "seat": 2})
        for voter in voters:
            assert "1 of 2 votes" in next_of(voter, "table")["notes"][0]["text"]
        outage.down()
        try:
            # The second vote puts a stand-in on seat 2, which must be stored first.
            voters[1].send({"type": "vote_replace", "seat": 2})
            assert next_of(voters[1], "error") == {"type": "error", "message": DB_DOWN}
            assert server.hub.tables[table_id].clock.standins == {}
        finally:
            outage.up()
        voters[1].send({"type": "vote_replace", "seat": 2})  # the same connection, still open
        for voter in voters:
            assert "plays seat 2" in next_of(voter, "table")["notes"][0]["text"]
    finally:
        server.stop()


def next_of(player: Player, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (the bots' updates may come first)."""
    while (message := player.recv())["type"] != kind:
        pass
    return message


def check_unloaded_table(server: ThreadServer, outage: Outage) -> None:
    """A connection to a table the server must read first: refused with "try again later"
    (1013) when the database cannot be read, else the usual answer for an unknown table."""
    with connect(f"{server.ws_url}/ws/notatable", open_timeout=TIMEOUT) as ws:
        ws.send(json.dumps(hello(None)))
        message = json.loads(ws.recv(timeout=TIMEOUT))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None
    if outage.reads_work:
        assert closed.value.rcvd.code == 4404
    else:
        assert message == {"type": "error", "message": DB_DOWN}
        assert closed.value.rcvd.code == 1013


@pytest.mark.parametrize("outage", ["sqlite-lock", "postgres-lock"], indirect=True)
def test_bots_retry_until_the_database_takes_their_moves(outage, store_failures, opened):
    # A table whose four bots are to move, stored by a server whose bots wait (then stopped).
    first = ThreadServer(Settings(database_url=outage.url, bot_delay=600)).start()
    try:
        table = create_table(
            first.url, seats=["human", "easy", "medium", "easy", "medium"], options={"max_turns": 2}
        )
    finally:
        first.stop()
    table_id = table["id"]
    outage.down()
    try:
        # Started again, the server restores the table (reads work) and its bots try to move.
        server = ThreadServer(Settings(database_url=outage.url, bot_delay=0)).start()
        wait_until(lambda: store_failures.count > 0, "a bot move to be refused")
        assert server.hub.tables[table_id].state.history == []
        assert store_failures.tracebacks == 0
    finally:
        outage.up()
    try:
        live = server.hub.tables[table_id]
        wait_until(lambda: len(live.state.history) == 4, "the bots to move after the outage")
        player = join(server, opened, table_id, table["links"][0]["token"])
        player.sync()
        play_until(player, is_over, first_action)
    finally:
        server.stop()
    stored = load_all(outage.url, [table_id])[table_id]
    assert stored.status == "over" and replay(stored).view(0) == player.latest["view"]


@pytest.mark.parametrize("outage", ALL_OUTAGES, indirect=True)
def test_the_clock_moves_once_the_database_is_back(outage, store_failures, opened):
    fake = FakeTime()
    server = ThreadServer(Settings(database_url=outage.url, bot_delay=0, time=fake)).start()
    try:
        body = {"game": "masquerade-murder", "seats": ["human"] * 5}
        body["clock"] = {"mode": "move", "seconds": 5}
        response = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
        assert response.status_code == 201, response.text
        table_id = response.json()["id"]
        player = join(server, opened, table_id, response.json()["links"][0]["token"])
        player.sync()
        live = server.hub.tables[table_id]
        outage.down()
        try:
            fake.advance(10)  # every seat's clock runs out: the clock bot's move is refused
            check_clocks(server)
            assert store_failures.count > 0 and live.state.history == []
            assert store_failures.tracebacks == 0
        finally:
            outage.up()
        check_clocks(server)  # the next check (each second on the wall clock) plays them
        assert len(live.state.history) == 5
        update = player.recv()  # the first thing the seat hears is its clock's move
        assert update["type"] == "update" and update["view"]["step"] == 1, update
        assert [note["why"] for note in update["notes"]] == ["clock"]
    finally:
        server.stop()
    assert len(stored_actions(outage.url, table_id)) == 5


def check_clocks(server: ThreadServer) -> None:
    """Run the server's deadline check in its event loop now and wait until it is done."""
    watcher = server.hub.watcher
    assert watcher.loop is not None
    asyncio.run_coroutine_threadsafe(watcher.check(), watcher.loop).result(TIMEOUT)
