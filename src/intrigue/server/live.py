"""Live tables: the games in play, their connections and their bots.

Each `LiveTable` holds the authoritative `State`. A move is tried on a clone, committed to the
database, and only then does the clone become the table's state and every connection hear of
it; so a failed commit leaves the game as it was, and a published state is never mutated again
(bots may therefore think about it in a worker thread while the table moves on).

With several processes on one database (``--redis``, docs/deploy.md) each holds a replica: the
(table_id, ordinal) key decides which move is stored, and `catchup` brings a replica that lost a
race, or heard of a move through the `bus`, up to date from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import intrigue
from intrigue.bots import Bot, make_bot
from intrigue.bots.match import bot_move
from intrigue.engine import Action, IllegalAction, InvalidAction, Record, Rng, State

from .bus import Bus, make_bus
from .catchup import apply_missing, is_conflict
from .chat import TableChat
from .clock import ClockWatcher, TableClock, aware
from .config import Settings
from .db import (
    BOT,
    HUMAN,
    OVER,
    PLAYING,
    ActionWrite,
    SeatRecord,
    Store,
    TableRecord,
    log_store_failure,
)
from .protocol import ClientError, RateLimiter, error_message, game_message
from .writer import ActionWriter

log = logging.getLogger("intrigue.server")

BOT_LEVELS = ("easy", "medium", "hard")
SEAT_KINDS = (HUMAN, *BOT_LEVELS)
# A move that lost the race for its ordinal to another process is tried again on the new state.
COMMIT_ATTEMPTS = 3
MOVED_ON = "the table moved on before your move was saved: "
# Pauses of a bot runner between attempts to store a move while the database refuses it.
BOT_RETRY_FIRST, BOT_RETRY_MAX = 0.1, 5.0


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Client:
    """One WebSocket connection to a table, as a seat or (seat None) a spectator.

    Messages go through a queue drained by `pump`, so a slow client never holds up a table.
    """

    def __init__(
        self,
        send: Callable[[dict[str, Any]], Awaitable[None]],
        seat: int | None,
        settings: Settings,
    ) -> None:
        self._send = send
        self.seat = seat
        self.seen = 0  # log position this client has been sent up to
        self.limiter = RateLimiter(settings.rate_per_second, settings.rate_burst)
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.max_queued = settings.max_queued
        self.closed = False
        self.dropped = False  # closed because it did not read its messages
        self.revoked = False  # closed because its seat was given up (leave.py)

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.max_queued:
            log.warning("dropping a client that does not read its messages")
            self.dropped = True
            self.close()
            return
        self.queue.put_nowait(message)

    def error(self, text: str) -> None:
        self.send(error_message(text))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages in order until `close`."""
        while (message := await self.queue.get()) is not None:
            await self._send(message)


class LiveTable:
    """A table in memory: its state, seats, connected clients and bot runner."""

    def __init__(
        self,
        record: TableRecord,
        state: State,
        store: Store,
        settings: Settings,
        writer: ActionWriter | None = None,
    ) -> None:
        self.id = record.id
        self.created = aware(record.created)  # SQLite hands back naive UTC times
        self.seats = {s.seat: s for s in record.seats}
        self.state = state
        self.store = store
        self.writer = writer or ActionWriter(store)  # the Hub shares one between its tables
        self.settings = settings
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bots: dict[int, Bot] = {
            s.seat: make_bot(s.bot or "easy") for s in record.seats if s.kind == BOT
        }
        # Bots draw from their own generators, unrelated to the game's secret seed.
        self.bot_rngs = {seat: Rng(secrets.randbits(63)) for seat in self.bots}
        self.bot_task: asyncio.Task[None] | None = None
        self.chat = TableChat(
            self.id, store, state.players, record.messages, bool(record.settings.get("reveal_chat"))
        )
        self.clock = TableClock(self, record)  # time control, leavers and stand-in bots
        self.bus: Bus | None = None  # scale-out: the link to other processes (set by the hub)

    # -- public description -----------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """What the lobby and table pages may know: no seed, no options, no tokens."""
        state = self.state
        return {
            "id": self.id,
            "game": state.game.id,
            "name": state.game.name,
            "players": state.players,
            "status": OVER if state.is_over else PLAYING,
            "created": self.created.isoformat(),
            "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot} for s in self.seats.values()],
            "step": len(state.history),
            "to_move": list(state.to_move),
            **self.clock.public(),
        }

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for seat in self.seats.values():
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    # -- connections ------------------------------------------------------------------------
    def join(self, client: Client) -> None:
        """Send the client its seat's full picture and start telling it every change."""
        sync = game_message("sync", self.state, client.seat, 0)
        sync["chat"] = self.chat.sync(client.seat, self.state.is_over)
        self.clock.annotate(sync, self.state, client.seat, 0)
        client.send(sync)
        client.seen = self.state.log_length
        self.clients.add(client)
        self.clock.joined(client)
        if self.bus is not None:
            self.bus.presence_changed(self)

    def leave(self, client: Client) -> None:
        self.clients.discard(client)
        client.close()
        self.clock.left(client)
        if self.bus is not None:
            self.bus.presence_changed(self)

    def _broadcast(self, actor: Client | None, action: str) -> None:
        state = self.state
        status = self.clock.status()  # the same for every connection (and only read)
        for client in list(self.clients):
            message = game_message("update", state, client.seat, client.seen)
            if client is actor:
                message["accepted"] = action
            self.clock.annotate(message, state, client.seat, client.seen, status)
            client.seen = state.log_length
            client.send(message)
        if state.is_over:
            self.chat.game_over(self.clients)

    # -- moves ------------------------------------------------------------------------------
    async def act(self, client: Client, text: str) -> None:
        """Play ``text`` for the client's seat, or answer it with an error."""
        async with self.lock:
            # Another process sharing the database may store this ordinal first: then the
            # commit catches this table up and the move is tried again on the new state.
            for attempt in range(COMMIT_ATTEMPTS):
                before = self.state
                try:
                    seat, action, candidate = self._try(client.seat, text)
                except ClientError as exc:
                    client.error(f"{MOVED_ON}{exc}" if attempt else str(exc))
                    return
                if await self._commit(seat, action, candidate):
                    self._broadcast(client, str(action))
                    break
                if self.state is before:  # not a lost race: the database failed
                    client.error("the server could not save this move, so it was not played; retry")
                    break
            else:
                client.error(f"{MOVED_ON}the table is busy; retry")
        self.kick_bots()

    def _try(self, seat: int | None, text: str) -> tuple[int, Action, State]:
        """Check and play the move on a clone; `ClientError` (with a public reason) if refused."""
        state = self.state
        if seat is None:
            raise ClientError("spectators cannot play; open a seat link to play")
        if state.is_over:
            raise ClientError("the game is over")
        self.clock.check_playable(seat)
        try:
            action = state.game.parse_action(text)
        except InvalidAction as exc:
            raise ClientError(f"not a move: {exc}") from None
        if seat not in state.to_move:
            waiting = ", ".join(map(str, state.to_move))
            raise ClientError(f"it is not your turn (waiting for seat {waiting})")
        candidate = state.clone()
        try:
            candidate.apply(seat, action)
        except IllegalAction as exc:
            # The acting seat is to move, so the reason concerns its own options.
            raise ClientError(f"not allowed: {exc.reason}") from None
        return seat, action, candidate

    async def _commit(
        self, seat: int, action: Action, candidate: State, auto: str | None = None
    ) -> bool:
        """Store the move; on success the candidate becomes the table's state.

        ``auto`` marks a move the server made for a human seat (clock, stand-in).
        """
        ordinal = len(self.state.history)
        created = self.settings.time.now()
        try:
            # Group commit: stored with the other tables' waiting moves in one transaction.
            over = candidate.is_over
            await self.writer.append(
                ActionWrite(self.id, ordinal, seat, str(action), over, auto, created)
            )
        except Exception as exc:
            if is_conflict(exc):  # another process stored this ordinal first: catch up
                await apply_missing(self)
                return False
            log_store_failure(exc, "table %s: could not store action %d", self.id, ordinal)
            return False
        self.clock.committed(seat, auto, self.state, candidate, created)
        self.state = candidate
        if self.bus is not None:
            self.bus.moved(self, ordinal)
        return True

    # -- bots -------------------------------------------------------------------------------
    def _bot_seats_to_move(self) -> list[int]:
        state = self.state
        return [] if state.is_over else [s for s in state.to_move if s in self.bots]

    def kick_bots(self) -> None:
        """Start the bot runner if a bot is to move and it is not running already."""
        if self.bus is not None and not self.bus.in_charge(self):
            return  # another process holds this table's lease and plays its bots
        if self._bot_seats_to_move() and (self.bot_task is None or self.bot_task.done()):
            self.bot_task = asyncio.create_task(self._run_bots(), name=f"bots-{self.id}")

    async def stop(self) -> None:
        if self.bot_task is not None:
            self.bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.bot_task
        for client in list(self.clients):
            self.leave(client)

    async def _run_bots(self) -> None:
        """Play bot moves until no bot is to move; each decision runs in a worker thread."""
        try:
            while seats := self._bot_seats_to_move():
                if self.settings.bot_delay > 0:
                    await asyncio.sleep(self.settings.bot_delay)
                state, seat = self.state, seats[0]
                action = await asyncio.to_thread(
                    bot_move, self.bots[seat], state, seat, self.bot_rngs[seat]
                )
                await self._play_bot_until_stored(state, seat, action)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot failed; its seats wait", self.id)

    async def _play_bot(
        self, seen: State, seat: int, action: Action, auto: str | None = None
    ) -> None:
        """Play a bot's move (``auto``: the clock's move for a human seat)."""
        async with self.lock:
            if self.state is not seen or not self.clock.may_play(seat, auto):
                return  # the table moved on while the bot thought: think again
            candidate = seen.clone()
            candidate.apply(seat, action)
            if not await self._commit(seat, action, candidate, auto or self.clock.auto_for(seat)):
                if self.state is not seen:
                    return  # another process moved first; caught up: think again
                raise NotStored("the database refused a bot move")
            self._broadcast(None, str(action))

    async def _play_bot_until_stored(self, seen: State, seat: int, action: Action) -> None:
        """`_play_bot`, tried again with growing pauses while the database is unavailable:
        the bot's seat must not wait forever for a move that nobody will retry."""
        pause = BOT_RETRY_FIRST
        while True:
            try:
                await self._play_bot(seen, seat, action)
                return
            except NotStored:
                log.warning("table %s: bot move not stored; retrying in %.1f s", self.id, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, BOT_RETRY_MAX)


class NotStored(RuntimeError):
    """The database did not take a move the server made (a bot's or the clock's)."""


class Hub:
    """Every live table, the store behind them, and table creation."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.writer = ActionWriter(store)  # group commit of every table's moves
        self.tables: dict[str, LiveTable] = {}
        self.watcher = ClockWatcher(self)  # deadlines and leavers of every live table
        # Scale-out: several processes sharing the database, woken through Redis.
        self.bus = make_bus(self, settings.redis_url, settings.redis_prefix)

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
            state = intrigue.replay(
                Record(record.game, record.players, record.seed, record.options, record.actions)
            )
        except Exception:
            log.exception("table %s cannot be rebuilt by replay", table_id)
            return None
        table = self.tables.setdefault(
            table_id, LiveTable(record, state, self.store, self.settings, self.writer)
        )
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
    ) -> tuple[LiveTable, dict[int, str]]:
        """A new table and a secret token per human seat.

        Raises `UnknownGame`, `InvalidOption` or `ValueError` (bad seats) with a clear message.
        """
        game = intrigue.load(game_id)
        state = game.new(players, secrets.randbits(63), **options)
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
        table = LiveTable(record, state, self.store, self.settings, self.writer)
        self.tables[table.id] = table
        if self.bus is not None:
            await self.bus.attach(table, created=True)
        table.kick_bots()
        return table, tokens


def check_seat_kinds(kinds: list[str] | None, players: int) -> list[str]:
    """Seat kinds, one per seat: 'human' or a bot level. Default: seat 0 human, medium bots."""
    if kinds is None:
        return [HUMAN] + ["medium"] * (players - 1)
    if len(kinds) != players:
        raise ValueError(f"give one seat kind per player: {players} expected, got {len(kinds)}")
    cleaned = [str(k).strip().lower() for k in kinds]
    for kind in cleaned:
        if kind not in SEAT_KINDS:
            raise ValueError(f"seat kind {kind[:40]!r} is not one of {', '.join(SEAT_KINDS)}")
    return cleaned


def seat_record(seat: int, kind: str, token: str | None) -> SeatRecord:
    if kind == HUMAN:
        return SeatRecord(seat, HUMAN, None, hash_token(token or ""))
    return SeatRecord(seat, BOT, kind, None)
