"""Rematch: the same game again with the same players, in one click, seats reshuffled.

After the end any seat may ask (``{"type": "rematch"}`` on its WebSocket). The server creates a
table with the same game, player count, options, table settings and seat kinds, and a fresh
secret seed (a custom deal's options, those that fix what chance decides, are never carried:
the rematch is dealt fairly); the seats are permuted at random (server-side), so humans and
bots land on new seats and the new deal gives new roles. A table gets at most one rematch:
the database sets ``tables.rematch`` once (``UPDATE ... WHERE rematch IS NULL``, in the same
transaction that creates the new table), so a second click, or two clicks at once, lead to
the same table.

There are no accounts: a player is whoever holds a seat's link. The new seat's token is
derived from the old seat's token (an HMAC keyed by the old token), so only the holder of the
old link can compute it, every device holding that link gets the same new link, and the
database keeps only sha256 hashes of tokens, as for every seat. A new human seat is created
without a token hash; the hash is filled in (once) when its player is first given the link:
at once if they are connected when the rematch starts, else when they next open the old link.
Each link is sent only to a connection of the old seat it belongs to.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import random
import secrets
import weakref
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..storage.db import BOT, HUMAN, OVER, PLAYING, SeatRecord, SeatRow, Store, TableRow
from .connection import Client
from .hub import Hub
from .leave import has_left
from .messages import ClientError
from .seats import hash_token
from .table import LiveTable

log = logging.getLogger("intrigue.server")

REMATCH = "rematch"  # the client message type, and the server's answer
# Keys of the new table's settings: where it comes from and where each old seat went.
REMATCH_OF, REMATCH_SEATS = "rematch_of", "rematch_seats"
# Server-side randomness for the seat shuffle (tests may swap in a seeded generator).
RNG: random.Random = secrets.SystemRandom()


def rematch_token(old_token: str, table_id: str) -> str:
    """The token of the rematch seat ``table_id`` for whoever holds ``old_token``."""
    mac = hmac.new(old_token.encode("utf-8"), f"rematch {table_id}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class Rematch:
    """A table's rematch: the new table's id and the seat each old seat moved to."""

    table: str
    seats: dict[int, int]


@dataclass
class Plan:
    """A rematch table about to be stored: a new id and seed, the old seats permuted."""

    id: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    kinds: list[tuple[str, str | None]]  # per new seat: (HUMAN or BOT, bot level)
    created: datetime  # by the server's time source, like every table (fake in clock tests)
    seats: dict[int, int] = field(default_factory=dict)  # old seat -> new seat


def plan_rematch(old: LiveTable, rng: random.Random) -> Plan:
    """The rematch of ``old``: same game, players, rules and seat kinds; seats shuffled; a
    fresh deal (options that fixed chance, a custom deal's, are left out)."""
    state = old.state
    order = sorted(old.seats)
    rng.shuffle(order)  # order[new seat] = the old seat that moves there
    seed = secrets.randbits(63)
    options = state.game.without_fixed_chance(state.options)
    state.game.new(state.players, seed, **options)  # the options still make a game
    kinds = [_rematch_kind(old.seats[s]) for s in order]
    return Plan(
        id=old.settings.new_table_id(),
        game=state.game.id,
        players=state.players,
        seed=seed,
        options=options,
        kinds=kinds,
        created=old.settings.time.now(),
        seats={old_seat: new_seat for new_seat, old_seat in enumerate(order)},
    )


def _rematch_kind(seat: SeatRecord) -> tuple[str, str | None]:
    """The seat's kind and bot level in the rematch; a seat its player gave up (leave.py) goes
    to its stand-in bot, as no link could ever claim it."""
    return (BOT, seat.standin) if has_left(seat) else (seat.kind, seat.bot)


def _carried(settings: dict[str, Any] | None) -> dict[str, Any]:
    """The old table's settings that the rematch keeps (not where the old table came from)."""
    return {k: v for k, v in (settings or {}).items() if k not in (REMATCH_OF, REMATCH_SEATS)}


def commit_rematch(store: Store, old_id: str, plan: Plan) -> Rematch:
    """Store ``plan`` as the rematch of ``old_id`` unless it already has one; the rematch.

    One transaction claims the old table (``rematch IS NULL`` and over) and inserts the new
    table and its seats, so concurrent calls (threads or processes) create one table between
    them. Raises `ValueError` if the old table is unknown or not over.
    """
    with store.writing() as session:
        claim = (
            update(TableRow)
            .where(TableRow.id == old_id, TableRow.status == OVER, TableRow.rematch.is_(None))
            .values(rematch=plan.id)
            .execution_options(synchronize_session=False)
        )
        won = session.execute(claim).rowcount == 1  # type: ignore[attr-defined]
        if won:
            old_settings = session.scalar(select(TableRow.settings).where(TableRow.id == old_id))
            moved = {str(old): new for old, new in plan.seats.items()}
            session.add(
                TableRow(
                    id=plan.id,
                    game=plan.game,
                    players=plan.players,
                    seed=plan.seed,
                    options=plan.options,
                    status=PLAYING,
                    created=plan.created,
                    settings={**_carried(old_settings), REMATCH_OF: old_id, REMATCH_SEATS: moved},
                )
            )
            session.flush()  # the table row first: seats refer to it
            session.add_all(
                SeatRow(table_id=plan.id, seat=seat, kind=kind, bot=bot if kind == BOT else None)
                for seat, (kind, bot) in enumerate(plan.kinds)
            )
    if won:
        return Rematch(plan.id, dict(plan.seats))
    found = read_rematch(store, old_id)
    if found is None:
        raise ValueError(f"table {old_id!r} is not a finished table")
    return found


def read_rematch(store: Store, old_id: str) -> Rematch | None:
    """The rematch of ``old_id`` as stored, or None."""
    with Session(store.engine) as session:
        new_id = session.scalar(select(TableRow.rematch).where(TableRow.id == old_id))
        if new_id is None:
            return None
        settings = session.scalar(select(TableRow.settings).where(TableRow.id == new_id)) or {}
    seats = {int(old): int(new) for old, new in settings.get(REMATCH_SEATS, {}).items()}
    return Rematch(new_id, seats)


def claim_seat(store: Store, table_id: str, seat: int, digest: str) -> str | None:
    """Give the human seat the token hash ``digest`` if it has none; its hash afterwards."""
    where = (SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == HUMAN)
    with store.writing() as session:
        session.execute(
            update(SeatRow)
            .where(*where, SeatRow.token_hash.is_(None))
            .values(token_hash=digest)
            .execution_options(synchronize_session=False)
        )
        return session.scalar(select(SeatRow.token_hash).where(*where))


class Rematches:
    """Starts rematches and hands each player the link to its own new seat."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.known: dict[str, Rematch] = {}  # old table id -> its rematch
        # The token each seat connection came with (in memory only, while it is connected),
        # to derive its new token when the rematch starts.
        self.tokens: weakref.WeakKeyDictionary[Client, str] = weakref.WeakKeyDictionary()
        self._locks: dict[str, asyncio.Lock] = {}

    @property
    def store(self) -> Store:
        return self.hub.store

    async def find(self, table_id: str) -> Rematch | None:
        found = self.known.get(table_id)
        if found is None:
            found = await asyncio.to_thread(read_rematch, self.store, table_id)
            if found is not None:
                self.known[table_id] = found
        return found

    async def joined(self, table: LiveTable, client: Client, token: str | None) -> None:
        """A connection opened: keep its token and, if a rematch exists, give it its link."""
        try:
            if token is not None and client.seat is not None:
                self.tokens[client] = token
            if table.state.is_over and (found := await self.find(table.id)) is not None:
                await self.tell(client, found, jump=False)
        except Exception:  # the game connection must survive a failed lookup
            log.exception("table %s: could not look up its rematch", table.id)

    async def request(self, table: LiveTable, client: Client) -> None:
        """A seat clicked *Rematch*: start it (once) and give the links out."""
        if client.seat is None:
            raise ClientError("spectators cannot start a rematch; open a seat link")
        if not table.state.is_over:
            raise ClientError("the game is not over yet: a rematch starts after the end")
        found, created = await self.start(table)
        # Everyone connected hears of a new rematch; a later click is answered alone.
        for other in list(table.clients) if created else [client]:
            await self.tell(other, found, jump=True)
        if created and table.bus is not None:  # the connections of the other processes
            table.bus.rematched(table)

    async def start(self, old: LiveTable) -> tuple[Rematch, bool]:
        """The rematch of ``old``, and whether this call created it."""
        async with self._locks.setdefault(old.id, asyncio.Lock()):
            found = await self.find(old.id)
            if found is not None:
                return found, False
            plan = plan_rematch(old, RNG)
            try:
                found = await asyncio.to_thread(commit_rematch, self.store, old.id, plan)
            except ValueError as exc:
                raise ClientError(f"no rematch: {exc}") from None
            self.known[old.id] = found
        table = await self.hub.get(found.table)
        if table is not None:
            table.kick_bots()
        return found, found.table == plan.id

    async def tell(self, client: Client, found: Rematch, jump: bool) -> None:
        """Send ``client`` the rematch: its own new seat's link, or the table to watch."""
        message: dict[str, Any] = {"type": REMATCH, "table": found.table, "jump": jump}
        if client.seat is None:
            message["url"] = f"/table/{found.table}"
        else:
            token = self.tokens.get(client)
            link = None if token is None else await self.link(found, client.seat, token)
            if link is None:
                return
            message.update(link)
        client.send(message)

    async def link(self, found: Rematch, old_seat: int, token: str) -> dict[str, Any] | None:
        """The new seat, token and URL for the holder of ``old_seat``'s ``token``."""
        new_seat = found.seats.get(old_seat)
        table = await self.hub.get(found.table)
        record = None if table is None or new_seat is None else table.seats.get(new_seat)
        if record is None or record.kind != HUMAN:
            return None
        new_token = rematch_token(token, found.table)
        digest = hash_token(new_token)
        if record.token_hash != digest:
            stored = await asyncio.to_thread(claim_seat, self.store, found.table, new_seat, digest)
            if stored is None:
                log.warning("table %s: seat %d has no token to claim", found.table, new_seat)
                return None
            # Claimed already (devices.py): the link opens nothing now, except in the browser
            # that claimed it, which keeps the seat's credential beside it.
            if stored == digest:
                record.token_hash = digest
        url = f"/table/{found.table}#token={new_token}"
        return {"seat": new_seat, "token": new_token, "url": url}
