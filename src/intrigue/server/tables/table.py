"""A live table: the game in play, its connections and its bots.

Each `LiveTable` holds the authoritative `State`. A move is tried on a clone, committed to the
database, and only then does the clone become the table's state and every connection hear of
it; so a failed commit leaves the game as it was, and a published state is never mutated again
(bots may therefore think about it in a worker thread while the table moves on).

Moves that players send while the table is storing another (in Masquerade Murder's target phase
every seat chooses at once) wait for it, then are played together: each on the position the one
before it left, stored in one transaction (all or none), and told in one update per connection.
So a burst of moves costs one wait for the database, not one each (docs/performance.md, issue
22).

With several processes on one database (``--redis``, docs/deploy.md) each holds a replica: the
(table_id, ordinal) key decides which move is stored; a replica that lost a race catches up
from the database (`LiveTable.apply_missing`), and the scale-out layer
(`intrigue.server.scaleout`) does the same when it hears of a move made elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, cast

import intrigue
from intrigue.bots import Bot, make_bot
from intrigue.engine import Action, IllegalAction, InvalidAction, Rng, State

from ..config import Settings
from ..storage.db import (
    BOT,
    OVER,
    PLAYING,
    ActionWrite,
    Store,
    TableRecord,
    actions_since,
    aware,
    is_conflict,
    log_store_failure,
)
from ..storage.writer import ActionWriter
from .botpool import BotPool
from .chat import TableChat
from .clock import TableClock
from .connection import Client
from .hints import TableHints
from .interfaces import ScaleOut, TableFace
from .messages import ClientError, game_message
from .pace import bot_pause, bot_speed
from .seats import hash_token

log = logging.getLogger("intrigue.server")

# A move that lost the race for its ordinal to another process is tried again on the new state.
COMMIT_ATTEMPTS = 3
MOVED_ON = "the table moved on before your move was saved: "
SAVE_FAILED = "the server could not save this move, so it was not played; retry"
FAILED = "the server failed to play this move; look at the table and choose again"
# A move a connection is told was played: its text and the step it was played at.
Accepted = tuple[str, int]
# Pauses of a bot runner between attempts to store a move while the database refuses it.
BOT_RETRY_FIRST, BOT_RETRY_MAX = 0.1, 5.0


@dataclass(slots=True)
class _Move:
    """A player's move waiting for the table (`LiveTable.act`)."""

    client: Client
    text: str
    step: int


@dataclass(slots=True)
class _Batch:
    """What became of a batch of players' moves tried one after the other (`LiveTable._plan`)."""

    played: list[tuple[Client, int, Action, State]] = field(default_factory=list)
    refused: list[tuple[Client, str]] = field(default_factory=list)  # and why
    repeated: list[tuple[Client, Accepted]] = field(default_factory=list)  # answered again


class LiveTable:
    """A table in memory: its state, seats, connected clients and bot runner."""

    def __init__(
        self,
        record: TableRecord,
        state: State,
        store: Store,
        settings: Settings,
        writer: ActionWriter | None = None,
        turns: list[tuple[int, ...]] | None = None,
        pool: BotPool | None = None,
    ) -> None:
        self.id = record.id
        self.created = aware(record.created)  # SQLite hands back naive UTC times
        self.seats = {s.seat: s for s in record.seats}
        self.state = state
        # Who was to move after each step (turns[k]: after k moves), to tell a stale move.
        self.turns = turns if turns is not None else replay_turns(record)[1]
        self.store = store
        self.writer = writer or ActionWriter(store)  # the Hub shares one between its tables
        self.settings = settings
        # Where bots think (the hub shares one pool of worker processes between its tables).
        self.pool = pool or BotPool(0, settings.bot_budget, settings.bot_move_seconds)
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bots: dict[int, Bot] = {
            s.seat: make_bot(s.bot or "easy") for s in record.seats if s.kind == BOT
        }
        # Bots draw from their own generators, unrelated to the game's secret seed.
        self.bot_rngs = {seat: Rng(secrets.randbits(63)) for seat in self.bots}
        self.bot_task: asyncio.Task[None] | None = None
        self.bot_speed = bot_speed_or_default(record.settings.get("bot_speed"))
        self.chat = TableChat(
            self.id, store, state.players, record.messages, bool(record.settings.get("reveal_chat"))
        )
        # The clock and the hints refer to their table weakly: a table let go (evicted, or a
        # server stopping) is then freed at once by reference counting. Through a cycle it
        # waited for a full collection of the garbage collector, which in a busy server
        # walked every finished table since the last one (docs/performance.md).
        owner = cast(TableFace, weakref.proxy(self))
        self.clock = TableClock(owner, record)  # time control, leavers and stand-in bots
        # A "First game": the seat's next move as the medium bot sees it (hints.py).
        self.hints = TableHints(owner, bool(record.settings.get("hints")))
        self.bus: ScaleOut | None = None  # scale-out: the link to other processes (set by the hub)
        self.touched = time.monotonic()  # the last connection, departure or move (eviction)
        # Updates owed to connections not to move are sent together this late (`_defer`).
        self._flush_handle: asyncio.TimerHandle | None = None
        # Players' moves waiting while the table stores others (`act`).
        self._inbox: list[_Move] = []

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
            "step": state.actions_played,
            "to_move": list(state.to_move),
            "custom_deal": self.custom_deal,
            "bot_speed": self.bot_speed,
            "hints": self.hints.enabled,
            **self.clock.public(),
        }

    @property
    def custom_deal(self) -> list[str]:
        """What the table's creator fixed that chance would decide, in people's words (empty:
        a fair deal). Shown to every seat and in the lobby: the creator could know it."""
        return self.state.game.fixed_chance(self.state.options)

    @property
    def bots_only(self) -> bool:
        """No human seat (bots playing bots: capped by ``Settings.max_bot_tables``)."""
        return all(s.kind == BOT for s in self.seats.values())

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for seat in self.seats.values():
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    # -- connections ------------------------------------------------------------------------
    def join(self, client: Client) -> None:
        """Send the client its seat's full picture and start telling it every change."""
        moves = self.clock.offers_moves(client.seat)
        sync = game_message("sync", self.state, client.seat, 0, client.base, moves)
        sync["chat"] = self.chat.sync(client.seat, self.state.is_over)
        sync["custom_deal"] = self.custom_deal
        self.clock.annotate(sync, self.state, client.seat, 0)
        self.hints.annotate(sync, client.seat)
        client.send(sync)
        client.seen = self.state.log_length
        self.clients.add(client)
        self.touched = time.monotonic()
        self.clock.joined(client)
        self.hints.joined(client)
        if self.bus is not None:
            self.bus.presence_changed(self)

    def leave(self, client: Client) -> None:
        self.clients.discard(client)
        self.touched = time.monotonic()
        client.close()
        self.clock.left(client)
        if self.bus is not None:
            self.bus.presence_changed(self)

    def _broadcast(self, accepted: dict[Client, Accepted], moved: int = 1) -> None:
        """Tell every connection of the last ``moved`` moves: at once the movers (the
        connections in ``accepted``, each with its move acknowledged) and the seats whose turn
        they began or ended; the others within ``Settings.update_delay``, one update for all
        the moves by then."""
        state = self.state
        status = self.clock.status()  # the same for every connection (and only read)
        shared: dict[Any, Any] = {}  # a seat's events, texts and moves, built once
        urgent = self._urgent_seats(moved)
        for client in list(self.clients):
            if client.closed:
                continue  # gone: it will hear nothing more (a new connection gets a sync)
            move = accepted.get(client)
            if urgent is not None and move is None and client.seat not in urgent:
                self._defer(client)
                continue
            self._update(client, status, shared, move)
        if state.is_over:
            self.chat.game_over(self.clients)
        self.hints.refresh()

    def _urgent_seats(self, moved: int) -> set[int | None] | None:
        """The seats told of the last ``moved`` moves at once: those whose turn began or ended
        with them (None: every seat, as when updates are not delayed or the game is over). A
        seat still to move after another chose (several choosing at once) can wait: no game
        changes what a seat may do while it stays to move."""
        if self.settings.update_delay <= 0 or self.state.is_over:
            return None
        turns = [set(turn) for turn in self.turns[-1 - moved :]]
        return set.union(*turns) - set.intersection(*turns)

    def _update(
        self,
        client: Client,
        status: dict[str, Any] | None = None,
        shared: dict[Any, Any] | None = None,
        accepted: Accepted | None = None,
        repeated: bool = False,
    ) -> None:
        """Send the client an update: everything since what it was last sent (it is owed
        nothing more); ``accepted``: the client's move it acknowledges (again if
        ``repeated``). ``status`` and ``shared``: as `game_message` and `TableClock.annotate`
        take them, for the updates of one broadcast."""
        client.owed = None
        state = self.state
        moves = self.clock.offers_moves(client.seat)
        message = game_message(
            "update", state, client.seat, client.seen, client.base, moves, shared
        )
        if accepted is not None:
            message["accepted"], message["accepted_step"] = accepted
        if repeated:
            message["repeated"] = True
        self.clock.annotate(message, state, client.seat, client.seen, status)
        client.seen = state.log_length
        client.send(message)

    def _defer(self, client: Client) -> None:
        """Owe the client an update, sent by the table's next flush (or before any other
        message it is sent, so that the order holds)."""
        if client.owed is None:
            client.owed = functools.partial(self._update, client)
        if self._flush_handle is None:
            loop = asyncio.get_running_loop()
            self._flush_handle = loop.call_later(self.settings.update_delay, self._flush)

    def _flush(self) -> None:
        """Send every update owed (`_defer`), one per connection for all the moves since."""
        self._flush_handle = None
        status, shared = self.clock.status(), {}
        for client in list(self.clients):
            if client.owed is not None and not client.closed:
                self._update(client, status, shared)

    # -- moves ------------------------------------------------------------------------------
    async def act(self, client: Client, text: str, step: int) -> None:
        """Play ``text`` for the client's seat, answering the position at ``step`` (the view's
        step it was chosen on); or answer it with an error. A repeat of the move already
        played at that step is acknowledged again, never played twice.

        Moves that arrive while the table stores another wait for it and are then played
        together (`_play_batch`); a connection has one move here at a time (its read loop
        waits for this), so each is acknowledged on its own connection."""
        self._inbox.append(_Move(client, text, step))
        async with self.lock:
            batch, self._inbox = self._inbox, []
            if batch:  # else an earlier caller's batch took this move and has played it
                try:
                    await self._play_batch(batch)
                except Exception:
                    # A fault of the server's own: this connection's read loop reports it;
                    # the other movers of the batch must not wait for an answer forever.
                    for move in batch:
                        if move.client is not client:
                            move.client.error(FAILED)
                    raise
        self.kick_bots()

    async def _play_batch(self, moves: list[_Move]) -> None:
        """Play the players' moves in order, each on the position the one before left, store
        them in one transaction and tell everyone once; answer the refused ones after."""
        # Another process sharing the database may store these ordinals first: then the
        # commit catches this table up and the moves are tried again on the new state.
        for attempt in range(COMMIT_ATTEMPTS):
            before = self.state
            batch = self._plan(moves)
            if attempt:
                batch.refused = [(c, f"{MOVED_ON}{why}") for c, why in batch.refused]
            played = [(seat, action, after) for _, seat, action, after in batch.played]
            if not played or await self._commit_all(played):
                if played:
                    first = before.actions_played  # the step of the batch's first move
                    accepted = {
                        client: (str(action), first + i)
                        for i, (client, _, action, _) in enumerate(batch.played)
                    }
                    self._broadcast(accepted, moved=len(played))
                break
            if self.state is before:  # not a lost race: the database failed
                batch.refused += [(c, SAVE_FAILED) for c, *_ in batch.played]
                break
        else:
            batch.refused += [(c, f"{MOVED_ON}the table is busy; retry") for c, *_ in batch.played]
        for client, move in batch.repeated:
            self._acknowledge_again(client, move)
        for client, why in batch.refused:
            client.error(why)

    def _plan(self, moves: list[_Move]) -> _Batch:
        """Try the moves one after the other from the table's state (nothing is changed)."""
        batch, state, later = _Batch(), self.state, []
        for move in moves:
            seat = move.client.seat
            try:
                repeated = self._repeated(seat, move.text, move.step, state, later)
                if repeated is not None:
                    batch.repeated.append((move.client, repeated))
                    continue
                seat, action, state = self._try(seat, move.text, state)
            except ClientError as exc:
                batch.refused.append((move.client, str(exc)))
                continue
            batch.played.append((move.client, seat, action, state))
            later.append(to_move_of(state))
        return batch

    def _repeated(
        self,
        seat: int | None,
        text: str,
        step: int,
        state: State | None = None,
        later: list[tuple[int, ...]] | None = None,
    ) -> Accepted | None:
        """The move already played for ``seat`` since ``step`` and the step it was played at,
        if ``text`` repeats it (a resent frame: it is answered again, not played); None if the
        move answers the position now.
        ``state``: the position now (default the table's), ``later``: who is to move after
        each move played since the table's state (a batch's moves before this one).

        `ClientError` if the move came from an older screen: a move was played for the seat
        since, or the seat stopped being to move meanwhile. Other seats' moves do not make it
        stale while the seat stays to move (moves chosen at the same time, as in a vote).
        """
        state = self.state if state is None else state
        turns = self.turns + later if later else self.turns
        now = len(turns) - 1
        if step == now or seat is None:
            return None
        if not 0 <= step < now:
            raise ClientError(f"there is no step {step} yet: the game is at step {now}")
        for played_at, (mover, action) in enumerate(state.history_since(step), step):
            if mover == seat:
                if _same_move(state, text, action):
                    return str(action), played_at
                raise ClientError(
                    f"a move was already played for your seat since step {step}: this one "
                    "came from an older screen and was not played"
                )
        if seat not in turns[now]:
            return None  # not its turn: `_try` says so
        if any(seat not in turns[k] for k in range(step, now)):
            raise ClientError(
                f"the table moved on since step {step} (it is at step {now}): look at the new "
                "position and choose again"
            )
        return None

    def _acknowledge_again(self, client: Client, action: Accepted) -> None:
        """Answer a repeated move as its first sending was: an update that accepts it."""
        self._update(client, accepted=action, repeated=True)

    def _try(
        self, seat: int | None, text: str, state: State | None = None
    ) -> tuple[int, Action, State]:
        """Check and play the move on a clone of ``state`` (default the table's); `ClientError`
        (with a public reason) if refused."""
        state = self.state if state is None else state
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
        return await self._commit_all([(seat, action, candidate)], auto)

    async def _commit_all(
        self, played: list[tuple[int, Action, State]], auto: str | None = None
    ) -> bool:
        """Store consecutive moves (each ``(seat, action, the state after it)``, the first
        played on the table's state) in one transaction; on success the last state becomes the
        table's. ``auto``: as `_commit` (for a single move)."""
        ordinal = self.state.actions_played
        created = self.settings.time.now()
        writes = [
            ActionWrite(self.id, ordinal + i, seat, str(action), after.is_over, auto, created)
            for i, (seat, action, after) in enumerate(played)
        ]
        try:
            # Group commit: stored with the other tables' waiting moves in one transaction.
            await self.writer.append_all(writes)
        except Exception as exc:
            if is_conflict(exc):  # another process stored this ordinal first: catch up
                await self.apply_missing()
                return False
            log_store_failure(exc, "table %s: could not store action %d", self.id, ordinal)
            return False
        before = self.state
        for seat, _, after in played:
            self.clock.committed(seat, auto, before, after, created)
            self.turns.append(to_move_of(after))
            before = after
        self.state = before
        self.touched = time.monotonic()
        if self.bus is not None:
            self.bus.moved(self, ordinal + len(played) - 1)
        return True

    async def apply_missing(self) -> int:
        """Play the moves other processes stored first; for a caller that holds ``self.lock``
        (a commit that lost its race, or `intrigue.server.scaleout.catchup.catch_up`).

        The stored rows are played on clones, so a published state is never mutated (bots may be
        thinking about it), and the table's state changes once, after the last row.
        """
        start = self.state.actions_played
        missing = await asyncio.to_thread(actions_since, self.store, self.id, start)
        if not missing:
            return 0
        state, marks = self.state, []
        try:
            for row in missing:
                after = state.clone()
                after.apply(row.seat, row.action)
                marks.append((row, state, after))
                state = after
        except Exception:
            # Cannot happen while every process appends at len(history); keep the table as it is.
            log.exception("table %s: a stored move does not replay here", self.id)
            return 0
        for row, before, after in marks:
            self.clock.committed(row.seat, row.auto, before, after, row.created)
            self.turns.append(to_move_of(after))
        self.state = state
        # One update per connection, with every event it missed.
        self._broadcast({}, moved=len(missing))
        self.kick_bots()
        log.debug("table %s: caught up %d move(s) from the database", self.id, len(missing))
        return len(missing)

    # -- bots -------------------------------------------------------------------------------
    def bots_to_move(self) -> list[int]:
        state = self.state
        return [] if state.is_over else [s for s in state.to_move if s in self.bots]

    def kick_bots(self) -> None:
        """Start the bot runner if a bot is to move and it is not running already."""
        if self.bus is not None and not self.bus.in_charge(self):
            return  # another process holds this table's lease and plays its bots
        if self.bots_to_move() and (self.bot_task is None or self.bot_task.done()):
            self.bot_task = asyncio.create_task(self._run_bots(), name=f"bots-{self.id}")

    async def stop(self) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        if self.bot_task is not None:
            self.bot_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.bot_task
        await self.hints.stop()
        for client in list(self.clients):
            self.leave(client)

    async def _run_bots(self) -> None:
        """Play bot moves until no bot is to move; each decision runs in the bot pool."""
        last: tuple[int, int] | None = None  # the seat that just moved, and the step after it
        try:
            while seats := self.bots_to_move():
                same_turn = last == (seats[0], self.state.actions_played)
                pause = bot_pause(self.bot_speed, self.settings.bot_delay, same_turn)
                if pause > 0:
                    await asyncio.sleep(pause)
                state, seat = self.state, seats[0]
                action = await self.pool.move(
                    self.id, self.bots[seat], state, seat, self.bot_rngs[seat]
                )
                await self._play_bot_until_stored(state, seat, action)
                last = (seat, self.state.actions_played)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a bot failed; its seats wait", self.id)

    async def play_bot(
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
            self._broadcast({})

    async def _play_bot_until_stored(self, seen: State, seat: int, action: Action) -> None:
        """`play_bot`, tried again with growing pauses while the database is unavailable:
        the bot's seat must not wait forever for a move that nobody will retry."""
        pause = BOT_RETRY_FIRST
        while True:
            try:
                await self.play_bot(seen, seat, action)
                return
            except NotStored:
                log.warning("table %s: bot move not stored; retrying in %.1f s", self.id, pause)
                await asyncio.sleep(pause)
                pause = min(pause * 2, BOT_RETRY_MAX)


def bot_speed_or_default(value: Any) -> str:
    """A stored table's bot speed; a value this server does not know is the default."""
    try:
        return bot_speed(value)
    except ValueError:
        return bot_speed(None)


def to_move_of(state: State) -> tuple[int, ...]:
    return () if state.is_over else tuple(state.to_move)


def replay_turns(record: TableRecord) -> tuple[State, list[tuple[int, ...]]]:
    """The table's game rebuilt by replaying its stored moves, and who was to move after each
    step (what `intrigue.replay` does, keeping the turns on the way)."""
    state = intrigue.load(record.game).new(record.players, record.seed, **record.options)
    turns = [to_move_of(state)]
    for seat, text in record.actions:
        state.apply(seat, text)
        turns.append(to_move_of(state))
    return state, turns


def _same_move(state: State, text: str, played: Action) -> bool:
    """Whether ``text`` names the move ``played`` (any text the game parses to it)."""
    try:
        return str(state.game.parse_action(text)) == str(played)
    except InvalidAction:
        return False


class NotStored(RuntimeError):
    """The database did not take a move the server made (a bot's or the clock's)."""
