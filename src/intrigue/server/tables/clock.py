"""Clocks and leavers: a time control per table, a bot that moves for a seat whose clock ran
out, and stand-in bots for players who left, until they take their seat back with their link.

A table's time control is chosen at creation (``tables.settings["clock"]``):

* ``{"mode": "none"}`` — no clock (the default);
* ``{"mode": "move", "seconds": N}`` — N seconds for each move, counted from when the seat is to
  move (and again after each of its own moves);
* ``{"mode": "turn", "seconds": N}`` — N seconds from when the seat becomes to move until it is
  no longer to move, however many moves it makes meanwhile;
* ``{"mode": "turn-based", "hours": H}`` — H hours for each move, for games played over days.

When a human seat's clock runs out, a bot of the table's ``clock_bot`` level makes that one move
(stored with ``actions.auto = "clock"``) and every client is told. A clock starts at the time of
the stored action that made the seat to move (``actions.created``), or the table's creation, so
deadlines are recomputed after a restart by replaying the stored actions.

Leavers: a human seat with no connection for ``Settings.leave_timeout`` (real-time tables only;
on turn-based tables players are away most of the time), or voted out by a majority of the other
human seats that have joined the table (``{"type": "vote_replace", "seat": N}``; only an absent
seat that has joined once), gets a stand-in bot. A seat whose player has never opened their
link is taken by a stand-in only under the table's clock: on a table with no clock it waits for
its player, and no vote can give it away (the first to arrive once voted out everyone else). A
stand-in bot (``seats.standin``) that plays its moves (``actions.auto = "standin"``) until the
player, back with their link, sends ``{"type": "reclaim"}``. Reconnecting alone does not reclaim:
a player may look in without taking over from the bot, and a flaky connection does not flip the
seat back and forth.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

import intrigue
from intrigue.bots import Bot, make_bot
from intrigue.engine import Rng, State

from ..storage.db import DB_UNAVAILABLE, HUMAN, ActionRow, SeatRow, Store, TableRecord, aware
from ..timesource import TimeSource
from .connection import Client
from .interfaces import TableFace
from .messages import ClientError, game_message
from .seats import BOT_LEVELS

log = logging.getLogger("intrigue.server")

MODES = ("none", "move", "turn", "turn-based")
LEVELS = BOT_LEVELS
DEFAULT_LEVEL = "medium"
SECONDS = (5, 86_400)  # allowed seconds for the real-time modes
HOURS = (0.1, 24 * 30)  # allowed hours for turn-based tables
CLOCK_TYPES = ("vote_replace", "reclaim")  # client messages handled here
CLOCK, STANDIN = "clock", "standin"  # values of actions.auto
TICK = 1.0  # seconds between deadline checks on the wall clock
OUTAGE_NOTICE = 30.0  # seconds between warnings while the database stays unavailable


# -- time controls chosen at creation -------------------------------------------------------
def clock_settings(clock: Any, clock_bot: Any) -> dict[str, Any]:
    """The table settings for a ``POST /api/tables`` time control and clock bot, checked.

    Raises `ValueError` with a readable reason.
    """
    if clock_bot is None:
        level = DEFAULT_LEVEL
    elif isinstance(clock_bot, str) and clock_bot.strip().lower() in LEVELS:
        level = clock_bot.strip().lower()
    else:
        raise ValueError(f"clock_bot must be one of {', '.join(LEVELS)}, not {clock_bot!r:.40}")
    return {"clock": time_control(clock), "clock_bot": level}


def time_control(clock: Any) -> dict[str, Any]:
    """A checked time control: ``{"mode": ...}`` with ``seconds`` or ``hours`` as the mode needs."""
    if clock is None:
        return {"mode": "none"}
    if not isinstance(clock, dict):
        raise ValueError('clock must be an object such as {"mode": "move", "seconds": 60}')
    mode = clock.get("mode")
    if mode not in MODES:
        raise ValueError(f"clock.mode must be one of {', '.join(MODES)}, not {mode!r:.40}")
    unit, (low, high) = {"none": (None, (0, 0)), "turn-based": ("hours", HOURS)}.get(
        mode, ("seconds", SECONDS)
    )
    extra = set(clock) - {"mode", unit}
    if extra:
        raise ValueError(f"clock mode {mode!r} does not take {', '.join(sorted(map(str, extra)))}")
    if unit is None:
        return {"mode": "none"}
    amount = clock.get(unit)
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        raise ValueError(f"clock mode {mode!r} needs {unit}: a number from {low} to {high}")
    if not low <= amount <= high:
        raise ValueError(f"clock.{unit} must be from {low} to {high}, not {amount}")
    return {"mode": mode, unit: amount}


def limit_of(control: dict[str, Any]) -> timedelta | None:
    """How long a seat has for a move under ``control`` (None: no clock)."""
    if control.get("mode") == "turn-based":
        return timedelta(hours=control["hours"])
    if control.get("mode") in ("move", "turn"):
        return timedelta(seconds=control["seconds"])
    return None


# -- the database side: stand-ins and the times and marks of stored actions -------------------
def set_standin(store: Store, table_id: str, seat: int, level: str | None) -> None:
    with store.writing() as session:
        session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
            .values(standin=level)
        )


def action_marks(store: Store, table_id: str) -> list[tuple[datetime, str | None]]:
    """``(created, auto)`` of each stored action, in order."""
    with Session(store.engine) as session:
        rows = session.execute(
            select(ActionRow.created, ActionRow.auto)
            .where(ActionRow.table_id == table_id)
            .order_by(ActionRow.ordinal)
        )
        return [(aware(created), auto) for created, auto in rows]


@dataclass(frozen=True)
class Note:
    """A move the server made for a human seat, and where it falls in the game's log."""

    log_position: int  # the state's log length just before the move
    step: int  # the move's ordinal
    seat: int
    why: str  # CLOCK or STANDIN

    def text(self) -> str:
        if self.why == CLOCK:
            return f"seat {self.seat} ran out of time; a bot moved for them"
        return f"a stand-in bot moved for seat {self.seat}"


def restart_clocks(
    since: dict[int, datetime],
    mover: int | None,
    before: tuple[int, ...],
    after: State,
    moment: datetime,
    per_turn: bool,
) -> None:
    """Start the clock of each seat that became to move at ``moment``; forget the others'.

    The seat that just moved starts afresh too, unless its time counts per turn.
    """
    to_move = () if after.is_over else after.to_move
    for seat in list(since):
        if seat not in to_move:
            del since[seat]
    for seat in to_move:
        if seat not in before or (seat == mover and not per_turn):
            since[seat] = moment


def replay_clocks(
    record: TableRecord, marks: list[tuple[datetime, str | None]], per_turn: bool
) -> tuple[dict[int, datetime], list[Note]]:
    """Each to-move seat's clock start and the server's notes, from the stored game."""
    state = intrigue.load(record.game).new(record.players, record.seed, **record.options)
    since: dict[int, datetime] = {}
    restart_clocks(since, None, (), state, aware(record.created), per_turn)
    notes = []
    for step, ((seat, text), (created, auto)) in enumerate(
        zip(record.actions, marks, strict=False)
    ):
        before, position = state.to_move, state.log_length
        state.apply(seat, text)
        if auto:
            notes.append(Note(position, step, seat, auto))
        restart_clocks(since, seat, before, state, created, per_turn)
    return since, notes


# -- one table's clocks, connections and stand-ins --------------------------------------------
class TableClock:
    """The time control, deadlines, connections, votes and stand-ins of one live table."""

    def __init__(self, table: TableFace, record: TableRecord) -> None:
        self.table = table
        self.time = table.settings.time
        self.leave_timeout = table.settings.leave_timeout
        self.control = record.settings.get("clock") or {"mode": "none"}
        self.level = record.settings.get("clock_bot") or DEFAULT_LEVEL
        # The status's time control, built once: both parts are fixed when the table is made
        # (every message shares this dict and only reads it).
        self._shown_control = {**self.control, "bot": self.level}
        self.limit = limit_of(self.control)
        self.per_turn = self.control.get("mode") == "turn"
        self.humans = sorted(s.seat for s in record.seats if s.kind == HUMAN)
        self.standins: dict[int, str] = {}
        self.since: dict[int, datetime] = {}
        restart_clocks(self.since, None, (), table.state, aware(record.created), self.per_turn)
        self.notes: list[Note] = []
        now = self.time.now()
        self.away: dict[int, datetime] = dict.fromkeys(self.humans, now)  # no connection since
        self.votes: dict[int, set[int]] = {}  # absent seat -> seats voting to replace it
        # Human seats whose player has opened their link (seen here, or by a move of their own
        # stored before a restart): only these can be voted out, or stood in for without a clock.
        self.joined_once: set[int] = set()
        self._bot: Bot | None = None
        self._rng = Rng(secrets.randbits(63))
        self._record: TableRecord | None = record  # until `restore` has read it
        for seat in record.seats:
            if seat.standin:
                self._seat_bot(seat.seat, seat.standin)

    async def restore(self) -> None:
        """After a (re)load: clock starts and notes from the stored actions' times and marks."""
        record, self._record = self._record, None
        if record is None or not record.actions:
            return
        marks = await asyncio.to_thread(action_marks, self.table.store, record.id)
        self.joined_once |= {
            seat
            for (seat, _text), (_created, auto) in zip(record.actions, marks, strict=False)
            if auto is None and seat in self.humans
        }
        if self.limit is None and not any(auto for _, auto in marks):
            return
        self.since, self.notes = await asyncio.to_thread(
            replay_clocks, record, marks, self.per_turn
        )

    # -- what clients are told ------------------------------------------------------------
    def deadline(self, seat: int) -> datetime | None:
        """When ``seat``'s clock runs out, if it is a clocked human seat to move."""
        start = self.since.get(seat)
        if self.limit is None or start is None or seat not in self.humans:
            return None
        return None if seat in self.standins else start + self.limit

    def _deadlines(self) -> list[dict[str, Any]]:
        """The deadlines of the seats to move (`status`)."""
        state = self.table.state
        to_move = () if state.is_over else state.to_move
        deadlines = [(s, self.deadline(s)) for s in to_move]
        return [{"seat": s, "at": d.isoformat()} for s, d in deadlines if d]

    def status(self) -> dict[str, Any]:
        """The table's public clock and seat status (no secret: who is connected, deadlines)."""
        return {
            "clock": self._shown_control,
            "now": self.time.stamp(),
            "deadlines": self._deadlines() if self.limit is not None else [],
            "standins": [{"seat": s, "bot": b} for s, b in sorted(self.standins.items())],
            "away": sorted(s for s in self.away if s not in self.standins),
            "votes": [{"seat": s, "by": sorted(v)} for s, v in sorted(self.votes.items()) if v],
        }

    def annotate(
        self,
        message: dict[str, Any],
        state: State,
        seat: int | None,
        since: int,
        status: dict[str, Any] | None = None,
    ) -> None:
        """Add the table status and the notes of this sync/update (each placed by ``at``, the
        number of the message's events that come before it). ``status``: `status()` computed
        once for a whole broadcast. (A seat played by a stand-in is offered no moves:
        `offers_moves`, which the message is built with.)"""
        message["table"] = self.status() if status is None else status
        count = len(message["events"])
        message["notes"] = [
            {
                "at": count - len(state.shared_events(seat, since=note.log_position)),
                "step": note.step,
                "seat": note.seat,
                "why": note.why,
                "text": note.text(),
            }
            for note in self.notes
            if note.log_position >= since and note.step < state.actions_played
        ]

    def offers_moves(self, seat: int | None) -> bool:
        """Whether the seat's connections are offered its legal moves (not while a stand-in
        plays it)."""
        return seat not in self.standins

    def _tell(self, text: str) -> None:
        """A ``table`` message to every connection: a note and the new status."""
        message = {"type": "table", "table": self.status(), "notes": [{"text": text}]}
        for client in list(self.table.clients):
            client.send(message)
        if self.table.bus is not None:  # and every connection of the other processes
            self.table.bus.told(self.table, text)

    # -- hooks called by the live table ---------------------------------------------------
    def committed(
        self, seat: int, auto: str | None, before: State, after: State, created: datetime
    ) -> None:
        """A move was stored (at ``created``): note it if the server made it for a human seat,
        and restart the clocks it concerns."""
        if auto:
            self.notes.append(Note(before.log_length, before.actions_played, seat, auto))
        restart_clocks(self.since, seat, before.to_move, after, created, self.per_turn)

    def auto_for(self, seat: int) -> str | None:
        """Why the server plays ``seat`` when its bot runner does: a stand-in, or a real bot."""
        return STANDIN if seat in self.standins else None

    def may_play(self, seat: int, auto: str | None) -> bool:
        """Whether a move the server prepared for ``seat`` may still be played."""
        if auto == CLOCK:
            return self.expired(seat, self.time.now())
        return seat in self.table.bots

    def check_playable(self, seat: int) -> None:
        """`ClientError` if a stand-in bot plays ``seat`` (its player must reclaim it first)."""
        if seat in self.standins:
            raise ClientError(
                'a bot stands in for your seat; take it back first ({"type": "reclaim"})'
            )

    def joined(self, client: Client) -> None:
        if client.seat is not None:
            self.joined_once.add(client.seat)
            self.away.pop(client.seat, None)
            self.votes.pop(client.seat, None)

    def left(self, client: Client) -> None:
        seat = client.seat
        if seat in self.humans and not any(c.seat == seat for c in self.table.clients):
            self.away[seat] = self.time.now()

    # -- deadlines and leavers --------------------------------------------------------------
    def expired(self, seat: int, now: datetime) -> bool:
        deadline = self.deadline(seat)
        state = self.table.state
        return deadline is not None and now >= deadline and seat in state.to_move

    def _leavers(self, now: datetime) -> list[int]:
        """Absent seats whose time to come back is up (real-time tables only)."""
        if self.leave_timeout <= 0 or self.control.get("mode") == "turn-based":
            return []
        limit = timedelta(seconds=self.leave_timeout)
        clocked = self.limit is not None  # else a seat never opened waits for its player
        return [
            s
            for s, t in self.away.items()
            if s not in self.standins and now - t >= limit and (clocked or s in self.joined_once)
        ]

    async def check(self) -> None:
        """Replace timed-out leavers, then move for every seat whose clock ran out."""
        if self.table.state.is_over:
            return
        for seat in self._leavers(self.time.now()):
            await self.replace(seat, "timeout")
        for seat in [s for s in self.table.state.to_move if self.expired(s, self.time.now())]:
            await self._clock_move(seat)

    async def _clock_move(self, seat: int) -> None:
        """The clock bot makes ``seat``'s move (thinking in the bot pool)."""
        if self._bot is None:
            self._bot = make_bot(self.level)
        for _attempt in range(3):  # the table may move on while the bot thinks: think again
            state = self.table.state
            if not self.expired(seat, self.time.now()):
                break
            action = await self.table.pool.move(self.table.id, self._bot, state, seat, self._rng)
            await self.table.play_bot(state, seat, action, CLOCK)
        self.table.kick_bots()

    # -- stand-ins --------------------------------------------------------------------------
    def _seat_bot(self, seat: int, level: str) -> None:
        self.standins[seat] = level
        self.table.bots[seat] = make_bot(level)
        self.table.bot_rngs[seat] = Rng(secrets.randbits(63))

    def seat_standin(self, seat: int) -> None:
        """Put the clock bot's level on ``seat`` for good: its player gave it up (leave.py,
        which stores it first)."""
        self._seat_bot(seat, self.level)
        self.votes.pop(seat, None)

    async def replace(self, seat: int, why: str) -> None:
        """Put a stand-in bot on ``seat`` (stored first) and tell everyone."""
        table = self.table
        async with table.lock:
            if seat in self.standins or seat not in self.away or table.state.is_over:
                return  # taken care of, or the player came back meanwhile
            await asyncio.to_thread(set_standin, table.store, table.id, seat, self.level)
            self._seat_bot(seat, self.level)
            self.votes.pop(seat, None)
        reason = "the table voted" if why == "vote" else f"seat {seat} is away"
        self._tell(f"{reason}: a bot ({self.level}) plays seat {seat} until they take it back")
        table.kick_bots()

    async def reclaim(self, client: Client) -> None:
        """The seat's player takes over from its stand-in again."""
        table, seat = self.table, client.seat
        async with table.lock:
            if seat is None or seat not in self.standins:
                raise ClientError("no bot stands in for your seat: it is yours to play")
            await asyncio.to_thread(set_standin, table.store, table.id, seat, None)
            del self.standins[seat]
            table.bots.pop(seat, None)
            table.bot_rngs.pop(seat, None)
            if seat in self.since:
                self.since[seat] = self.time.now()  # back at the table: a fresh clock
            self._tell(f"seat {seat} is back and plays their seat again")
            # The player's moves (withheld while the bot played) and the new status.
            update = _fresh_update(table, client)
            self.annotate(update, table.state, seat, client.seen)
            client.send(update)

    async def vote(self, client: Client, target: Any) -> None:
        """Count ``client``'s vote to put a stand-in on absent seat ``target``."""
        voter = client.seat
        if voter is None:
            raise ClientError("spectators cannot vote; open a seat link to vote")
        if isinstance(target, bool) or not isinstance(target, int) or target not in self.humans:
            raise ClientError("vote_replace needs 'seat': the number of a human seat")
        if target == voter:
            raise ClientError("you cannot vote to replace yourself")
        if self.table.state.is_over:
            raise ClientError("the game is over")
        if target in self.standins:
            raise ClientError(f"a bot already stands in for seat {target}")
        if target not in self.away:
            raise ClientError(f"seat {target} is connected; only an absent player can be replaced")
        connected = {c.seat for c in self.table.clients}
        if self.table.bus is not None:  # seats connected to the other processes vote too
            connected |= self.table.bus.seats_elsewhere(self.table.id)
        self.joined_once |= {s for s in connected if s in self.humans}
        if target not in self.joined_once:
            raise ClientError(
                f"seat {target} has not opened their link yet; a vote can only replace a "
                "player who came to the table and left"
            )
        # The quorum: a majority of the human seats that have joined (played by their
        # players), not just of those connected now.
        electorate = (self.joined_once - set(self.standins)) - {target}
        votes = self.votes.setdefault(target, set())
        votes.add(voter)
        if self.table.bus is not None:
            self.table.bus.voted(self.table, target, voter)
        needed = len(electorate) // 2 + 1
        if len(votes & electorate) >= needed:
            await self.replace(target, "vote")
        else:
            self._tell(
                f"seat {voter} votes to let a bot play seat {target} "
                f"({len(votes & electorate)} of {needed} votes needed)"
            )

    async def receive(self, client: Client, message: dict[str, Any]) -> None:
        """A ``vote_replace`` or ``reclaim`` message; `ClientError` if refused."""
        if message.get("type") == "reclaim":
            await self.reclaim(client)
        else:
            await self.vote(client, message.get("seat"))

    def public(self) -> dict[str, Any]:
        """What the table info adds: the time control and who is played by a stand-in."""
        status = self.status()
        return {key: status[key] for key in ("clock", "deadlines", "standins", "away")}


def _fresh_update(table: TableFace, client: Client) -> dict[str, Any]:
    """An update for ``client`` alone, with no new move: its view and legal actions now (and
    every move since its last update, so it is owed nothing more: `LiveTable._defer`)."""
    client.owed = None
    message = game_message("update", table.state, client.seat, client.seen, client.base)
    client.seen = table.state.log_length
    return message


# -- the watcher: one task per server that checks every table's deadlines ------------------------
class ClockWatcher:
    """Wakes every `TICK` seconds (wall clock) or when a fake time source is advanced, and lets
    each live table replace its leavers and move for seats out of time."""

    def __init__(self, time: TimeSource, clocks: Callable[[], list[TableClock]]) -> None:
        self.clocks = clocks  # every live table's clock, asked at each check
        self.time = time
        self.loop: asyncio.AbstractEventLoop | None = None
        self._wake = asyncio.Event()
        self._checking = asyncio.Lock()  # a check asked for directly waits for a running one
        self._warned_at = -OUTAGE_NOTICE
        self._task: asyncio.Task[None] | None = None

    def _on_time_jump(self) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._wake.set)

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.time.subscribe(self._on_time_jump)
        self._task = asyncio.create_task(self._run(), name="clocks")

    async def stop(self) -> None:
        self.time.unsubscribe(self._on_time_jump)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK if self.time.passes else None)
            self._wake.clear()
            await self.check()

    async def check(self) -> None:
        """Check every live table once (tests call this directly after advancing time)."""
        async with self._checking:
            for clock in self.clocks():
                table = clock.table
                if table.bus is not None and not table.bus.in_charge(table):
                    continue  # another process holds this table's lease and runs its clock
                try:
                    await clock.check()
                except DB_UNAVAILABLE as exc:
                    self._outage(exc)  # the next check retries: an outage is not a bug
                except Exception:
                    log.exception("table %s: the clock check failed", table.id)

    def _outage(self, exc: Exception) -> None:
        """One warning line per ``OUTAGE_NOTICE`` seconds, not a traceback per table per tick."""
        moment = asyncio.get_running_loop().time()
        if moment - self._warned_at >= OUTAGE_NOTICE:
            self._warned_at = moment
            log.warning("clocks wait: the database is unavailable (%s)", type(exc).__name__)
