"""Scale-out: several server processes sharing one database, woken through Redis pub/sub.

``intrigue serve --redis redis://host:6379/0`` (or ``INTRIGUE_REDIS_URL``) starts a `Bus`: the
process then publishes, on one Redis channel (``<prefix>:tables``, prefix from
``INTRIGUE_REDIS_PREFIX``, default ``intrigue``), a short note whenever something happens at a
table here — a move stored (``{table, ordinal}``), a chat line, a table message (stand-ins,
votes), a rematch, a new table, and which seats are connected here. Every other process that
holds that table wakes up and brings its own connections up to date.

The bus carries wake-ups, never the truth: on a move note a process reads the moves it misses
from the database (`catchup.catch_up`), so a lost or late note only delays an update, and a
periodic pass (every `TICK` seconds) compares each table with the database and repairs what a
note failed to bring. The order of moves is decided by the database alone (the unique
(table_id, ordinal) key, see `catchup`).

Who plays bots and clocks: the process holding the table's lease (`lease.Leases`, PostgreSQL
advisory locks); the periodic pass takes over the leases of a process that died, and loads
every unfinished table (so a table whose only process died still gets its bots).

Signed notes: each note is sent as ``<hex HMAC-SHA256>.<json>``, keyed by the secret shared by
every process (``INTRIGUE_BUS_SECRET``; ``--workers`` draws one for its own processes). A note
without a valid signature is dropped: whoever else can publish on the Redis cannot make a
process tell its players anything, or count a vote (docs/deploy.md: protect Redis anyway).

Presence: each process tells which seats are connected to it (on every change, and every
`HEARTBEAT` seconds); a process silent for `EXPIRE` seconds counts as gone. A seat connected to
any process is not away (no stand-in replaces it), and votes count the seats connected anywhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from ..storage.db import MessageRecord
from ..tables.devices import close_signed_out
from ..tables.hub import Hub
from ..tables.rematch import Rematches
from ..tables.table import LiveTable
from .catchup import catch_up, catch_up_chat, last_line, progress, refresh_seats
from .lease import Leases

log = logging.getLogger("intrigue.server")

TICK = 1.0  # seconds between periodic passes (catch-up check, leases)
HEARTBEAT = 2.0  # seconds between presence notes
EXPIRE = 6.0  # seconds of silence after which another process counts as gone
ADOPT_EVERY = 5  # periodic passes between loads of unfinished tables held nowhere here
# Periodic passes between catch-ups of the tables nothing here shows or plays (`Bus.watched`):
# they are caught up whenever they are looked at, so this only keeps the lobby's list fresh.
UNWATCHED_EVERY = 10
FORGED_NOTICE = 60.0  # seconds between warnings about notes with no valid signature
MAX_OUTBOX = 10_000  # notes waiting for Redis; beyond that they are dropped (the pass repairs)


@dataclass
class Peer:
    """Another server process, as heard on the bus: when, and its connections per table (the
    seats they play; None for a spectator)."""

    seen: float
    tables: dict[str, set[int | None]] = field(default_factory=dict)


class Bus:
    """This process's link to the others: notes out, notes in, and the periodic pass."""

    def __init__(self, hub: Hub, url: str, prefix: str, secret: str) -> None:
        import redis.asyncio as aioredis  # the server extra; only needed with --redis

        self.hub = hub
        self.key = secret.encode("utf-8")
        self._forged_warned = -FORGED_NOTICE
        self.url = url
        self.origin = secrets.token_hex(6)  # this process, so it ignores its own notes
        self.channel = f"{prefix}:tables"
        self.redis = aioredis.from_url(url, socket_connect_timeout=3, socket_keepalive=True)
        self.leases = Leases(hub.store, prefix)
        self.rematches: Rematches | None = None  # set by `transport.app.create_app`
        self.peers: dict[str, Peer] = {}
        self._outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[Any]] = set()
        self._dirty: set[str] = set()  # tables with a move note not yet caught up
        self._waking: dict[str, asyncio.Task[None]] = {}

    # -- life cycle -------------------------------------------------------------------------
    async def start(self) -> None:
        """Subscribe (before any table is loaded, so no note is missed), then run."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.subscribe(self.channel)
        except Exception as exc:
            await pubsub.aclose()
            raise RuntimeError(f"cannot reach Redis at {self.url}: {exc}") from exc
        self._tasks = [
            asyncio.create_task(self._listen(pubsub), name="bus-listen"),
            asyncio.create_task(self._publish(), name="bus-publish"),
            asyncio.create_task(self._tick(), name="bus-tick"),
        ]
        log.info("bus: process %s on channel %s", self.origin, self.channel)

    async def stop(self) -> None:
        for task in [*self._tasks, *self._background, *self._waking.values()]:
            task.cancel()
        for task in [*self._tasks, *self._background, *self._waking.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await asyncio.to_thread(self.leases.close)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- what the tables call (the `ScaleOut` link of tables/interfaces.py) ---------------
    async def attach(self, table: LiveTable, created: bool = False) -> None:
        """A table loaded or created here: join it to the bus and try to take its lease."""
        table.bus = self
        self.apply_presence(table)
        if not table.state.is_over:
            await asyncio.to_thread(self.leases.update, [table.id], [])
        if created:
            self._note("created", table.id)
        table.kick_bots()

    def in_charge(self, table: LiveTable) -> bool:
        """Whether this process plays the table's bots, clock moves and stand-ins."""
        return not self.leases.enabled or table.id in self.leases.held

    def moved(self, table: LiveTable, ordinal: int) -> None:
        if self.needed_elsewhere(table):
            self._note("move", table.id, n=ordinal)
        # Else no other process shows or plays the table: each catches its copy up when it
        # next looks at it (`Hub.get`), or in its periodic pass (`_reconcile`), so a move
        # costs the others nothing (with `--workers` a table's connections all meet in one
        # process, where this note would only make every other process read the database).

    def needed_elsewhere(self, table: LiveTable) -> bool:
        """Whether the other processes must hear of a move at ``table`` at once: one of them
        has a connection to it, or one of them may play its bots or clock."""
        if any(table.id in peer.tables for peer in self.peers.values()):
            return True
        return _moves_by_itself(table) and table.id not in self.leases.held

    def said(self, table: LiveTable, line: MessageRecord) -> None:
        self._note("chat", table.id, id=line.id)  # the id only: the text stays in the database

    def told(self, table: LiveTable, text: str) -> None:
        self._note("told", table.id, text=text)

    def voted(self, table: LiveTable, target: int, voter: int) -> None:
        self._note("vote", table.id, target=target, voter=voter)

    def rematched(self, table: LiveTable) -> None:
        self._note("rematch", table.id)

    def credential_changed(self, table: LiveTable, seat: int) -> None:
        self._note("creds", table.id, s=seat)  # never the secret: the others reread its hash

    def presence_changed(self, table: LiveTable) -> None:
        """A connection here joined or left ``table``."""
        self._note("here", table.id, s=_listed(_local_seats(table)))
        self.apply_presence(table)

    async def refresh(self, table: LiveTable) -> None:
        """Bring a table held here up to date before it is shown (a connection, a page)."""
        try:
            await refresh_seats(table)
            await catch_up(table)
        except Exception:
            log.exception("table %s: could not catch up with the database", table.id)

    def watched(self, table: LiveTable) -> bool:
        """Whether a move stored elsewhere must reach this process's copy of ``table`` at
        once: a connection here shows the table, or this process plays its bots or clock."""
        return bool(table.clients) or (_moves_by_itself(table) and self.in_charge(table))

    def seats_elsewhere(self, table_id: str) -> set[int | None]:
        """The seats connected to the other processes (None: a spectator is)."""
        seats: set[int | None] = set()
        for peer in self.peers.values():
            seats |= peer.tables.get(table_id, set())
        return seats

    def apply_presence(self, table: LiveTable) -> None:
        """Count a seat connected to any process as present (not away, no vote against it)."""
        clock = table.clock
        here = _local_seats(table) | self.seats_elsewhere(table.id)
        now = clock.time.now()
        for seat in clock.humans:
            if seat in here:
                if clock.away.pop(seat, None) is not None:
                    clock.votes.pop(seat, None)
            elif seat not in clock.away:
                clock.away[seat] = now

    # -- sending ----------------------------------------------------------------------------
    def _note(self, kind: str, table_id: str | None, **fields: Any) -> None:
        """Queue a note for the publisher; never blocks the caller, never fails it."""
        if self._outbox.qsize() >= MAX_OUTBOX:
            log.warning("bus: too many notes waiting for Redis; dropping one")
            return
        self._outbox.put_nowait({"o": self.origin, "k": kind, "t": table_id, **fields})

    async def _publish(self) -> None:
        failing = False  # warn once per outage, not once per note
        while True:
            note = await self._outbox.get()
            try:
                await self.redis.publish(self.channel, sign(self.key, note))
            except Exception as exc:
                # The others miss this note; their periodic pass finds the change anyway.
                if not failing:
                    log.warning("bus: cannot publish (%s); the others catch up periodically", exc)
                failing = True
                continue
            if failing:
                log.info("bus: publishing again")
            failing = False

    # -- receiving --------------------------------------------------------------------------
    async def _listen(self, pubsub: Any) -> None:
        """Read notes until cancelled, resubscribing after Redis goes away."""
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception as exc:
                log.warning("bus: lost Redis (%s); resubscribing", exc)
            with contextlib.suppress(Exception):
                await pubsub.aclose()
            await asyncio.sleep(1.0)
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            with contextlib.suppress(Exception):
                await pubsub.subscribe(self.channel)
                self._spawn(self._reconcile())  # what happened while nobody listened

    def _dispatch(self, data: bytes | str) -> None:
        try:
            note = verified(self.key, data)
            if note is None:
                self._forged()
                return
            if not isinstance(note, dict) or note.get("o") == self.origin:
                return
            self._handle(note)
        except Exception:
            log.exception("bus: could not handle a note")

    def _handle(self, note: dict[str, Any]) -> None:
        kind, table_id = note.get("k"), note.get("t")
        if kind == "here":
            self._heard_presence(note)
            return
        if kind == "created" and isinstance(table_id, str):
            self._spawn(self.hub.get(table_id))  # list it in the lobby here too
            return
        table = self.hub.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            return  # not held here: it is loaded from the database when asked for
        if kind == "move":
            if self.watched(table):
                self.wake(table)
            # Else nothing here shows or plays the table: the next look at it (`Hub.get`
            # refreshes) or the periodic pass catches it up, one read for many moves.
        elif kind == "chat":
            self._spawn(catch_up_chat(table, int(note["id"])))
        elif kind == "told":
            self._spawn(self._told(table, str(note.get("text", ""))))
        elif kind == "vote":
            table.clock.votes.setdefault(int(note["target"]), set()).add(int(note["voter"]))
        elif kind == "rematch":
            self._spawn(self._rematched(table))
        elif kind == "creds":
            self._spawn(self._signed_out(table, int(note["s"])))

    def _forged(self) -> None:
        """A note without a valid signature: dropped, with a warning now and then."""
        moment = time.monotonic()
        if moment - self._forged_warned >= FORGED_NOTICE:
            self._forged_warned = moment
            log.warning("bus: dropped a note without a valid signature (wrong or no secret)")

    def wake(self, table: LiveTable) -> None:
        """Catch ``table`` up soon; notes arriving meanwhile cost one more read at most."""
        self._dirty.add(table.id)
        task = self._waking.get(table.id)
        if task is None or task.done():
            self._waking[table.id] = asyncio.create_task(self._catch_up(table))

    async def _catch_up(self, table: LiveTable) -> None:
        try:
            while table.id in self._dirty:
                self._dirty.discard(table.id)
                await catch_up(table)
        except Exception:
            log.exception("table %s: could not catch up with the database", table.id)
        finally:
            if self._waking.get(table.id) is asyncio.current_task():
                del self._waking[table.id]

    async def _told(self, table: LiveTable, text: str) -> None:
        """A table message from another process: reread the seats, then tell everyone here."""
        await refresh_seats(table)
        message = {"type": "table", "table": table.clock.status(), "notes": [{"text": text}]}
        for client in list(table.clients):
            client.send(message)

    async def _signed_out(self, table: LiveTable, seat: int) -> None:
        """A seat got a new secret on another process: close its connections here that
        opened it with the old one."""
        await refresh_seats(table)
        close_signed_out(table, seat)

    async def _rematched(self, table: LiveTable) -> None:
        """A rematch started on another process: give the connections here their links."""
        if self.rematches is None:
            return
        found = await self.rematches.find(table.id)
        if found is not None:
            for client in list(table.clients):
                await self.rematches.tell(client, found, jump=True)

    def _heard_presence(self, note: dict[str, Any]) -> None:
        peer = self.peers.setdefault(str(note.get("o")), Peer(time.monotonic()))
        peer.seen = time.monotonic()
        if "all" in note:  # a heartbeat: the peer's whole picture
            before = set(peer.tables)
            peer.tables = {str(t): set(s) for t, s in note["all"].items()}
            changed = before | set(peer.tables)
        else:
            table_id = str(note.get("t"))
            seats = set(note.get("s") or ())
            if seats:
                peer.tables[table_id] = seats
            else:
                peer.tables.pop(table_id, None)
            changed = {table_id}
        for table_id in changed:
            if (table := self.hub.tables.get(table_id)) is not None:
                self.apply_presence(table)

    # -- the periodic pass ------------------------------------------------------------------
    async def _tick(self) -> None:
        passes, last_heartbeat = 0, 0.0
        while True:
            await asyncio.sleep(TICK)
            passes += 1
            try:
                await self._reconcile(everything=passes % UNWATCHED_EVERY == 0)
                await self._lease_pass()
                if time.monotonic() - last_heartbeat >= HEARTBEAT:
                    last_heartbeat = time.monotonic()
                    self._heartbeat()
                    self._expire()
                if passes % ADOPT_EVERY == 0:
                    await self._adopt()
            except Exception:
                log.exception("bus: the periodic pass failed")

    async def _reconcile(self, everything: bool = True) -> None:
        """Catch up the tables held here that the database shows ahead (a note was lost, or
        none was sent: `moved`); unless ``everything``, only the `watched` ones."""
        tables = [
            t
            for t in self.hub.tables.values()
            if (not t.state.is_over or t.clients) and (everything or self.watched(t))
        ]
        moves, lines = await asyncio.to_thread(progress, self.hub.store, [t.id for t in tables])
        for table in tables:
            if moves.get(table.id, 0) > table.state.actions_played:
                self.wake(table)
            if lines.get(table.id, 0) > last_line(table):
                self._spawn(catch_up_chat(table))

    async def _lease_pass(self) -> None:
        """Take the leases of unfinished tables nobody holds; give back the finished ones'."""
        if not self.leases.enabled:
            return
        tables = self.hub.tables
        wanted = [t.id for t in tables.values() if not t.state.is_over]
        dropped = [t for t in self.leases.held if t not in tables or tables[t].state.is_over]
        for table_id in await asyncio.to_thread(self.leases.update, wanted, dropped):
            if (table := tables.get(table_id)) is not None:
                log.info("table %s: this process now plays its bots and clocks", table_id)
                await self.refresh(table)
                table.kick_bots()

    async def _adopt(self) -> None:
        """Load the unfinished tables not held here (created by a process that since died)."""
        for table_id in await asyncio.to_thread(self.hub.store.unfinished_ids):
            if table_id not in self.hub.tables:
                await self.hub.get(table_id)

    def _heartbeat(self) -> None:
        seats = {t.id: _listed(s) for t in self.hub.tables.values() if (s := _local_seats(t))}
        self._note("here", None, all=seats)

    def _expire(self) -> None:
        limit = time.monotonic() - EXPIRE
        for origin, peer in list(self.peers.items()):
            if peer.seen < limit:
                log.info("bus: process %s went silent; its seats count as gone", origin)
                del self.peers[origin]
                for table_id in peer.tables:
                    if (table := self.hub.tables.get(table_id)) is not None:
                        self.apply_presence(table)

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(_logged(work))
        self._background.add(task)
        task.add_done_callback(self._background.discard)


async def _logged(work: Coroutine[Any, Any, Any]) -> None:
    try:
        await work
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("bus: a background task failed")


def _local_seats(table: LiveTable) -> set[int | None]:
    """The seats connected here (None: a spectator is), as the presence notes tell them."""
    return {c.seat for c in table.clients if not c.closed}


def _listed(seats: set[int | None]) -> list[int | None]:
    """``seats`` as a JSON list: the seats in order, then None if a spectator is connected."""
    return [*sorted(s for s in seats if s is not None), *([None] if None in seats else [])]


def _moves_by_itself(table: LiveTable) -> bool:
    """Whether ``table`` has moves no connection makes: bots, stand-ins or a clock."""
    clock = table.clock
    return bool(table.bots) or bool(clock.standins) or clock.limit is not None


def sign(key: bytes, note: dict[str, Any]) -> str:
    """A note as the bus carries it: its HMAC-SHA256 (hex), a dot, its JSON."""
    text = json.dumps(note, separators=(",", ":"))
    mac = hmac.new(key, text.encode("utf-8"), hashlib.sha256).hexdigest()
    return f"{mac}.{text}"


def verified(key: bytes, data: bytes | str) -> Any:
    """The note in ``data`` if its signature is right, else None."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    mac, dot, text = raw.partition(b".")
    expected = hmac.new(key, text, hashlib.sha256).hexdigest().encode("ascii")
    if not dot or not hmac.compare_digest(mac, expected):
        return None
    return json.loads(text)


def make_bus(hub: Hub, url: str | None, prefix: str, secret: str | None = None) -> Bus | None:
    """The bus for ``--redis URL``, or None: one process alone, as without scale-out.
    `ValueError` without the shared secret that signs its notes."""
    if not url:
        return None
    if not secret:
        raise ValueError(
            "scale-out needs INTRIGUE_BUS_SECRET: the same long random secret in every server "
            "process, which signs the notes on the Redis bus (docs/deploy.md)"
        )
    return Bus(hub, url, prefix, secret)
