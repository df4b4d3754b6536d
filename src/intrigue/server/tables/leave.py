"""Leaving a table for good: the player gives up their seat and its link stops working.

``{"type": "leave"}`` from a seat's connection, while the game is on: a stand-in bot (the
table's ``clock_bot`` level) plays the seat to the end, and the seat's link no longer opens it.
Unlike an absent player's stand-in (`intrigue.server.tables.clock`), nobody can take the seat back.

The seat's token hash is replaced by a marker that no token hashes to (``left <table>:<seat>``,
unique like every token hash), in the same transaction that stores the stand-in: so the old
link is refused (close code 4403) by this server, after a restart and by every other server
process; ``POST /api/my-tables`` forgets the seat; and a rematch cannot hand the seat to the
old link (a rematch seat's token is derived from it: see `intrigue.server.tables.rematch`). Every
connection of the seat is told (``{"type": "left", ...}``) and closed with code 4403, so no
open tab keeps playing, reclaiming or talking for the seat; the others get a ``table`` message.
With several server processes (`intrigue.server.scaleout.bus`), the others reread the seat (its new
hash and stand-in) when told, and a connection of the seat they hold is closed the same way at
its next message (`still_seated`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import update

from ..storage.db import HUMAN, SeatRecord, SeatRow, Store
from .connection import Client
from .messages import ClientError
from .table import LiveTable

LEAVE = "leave"  # the client message type
LEFT = "left"  # the server's answer to every connection of the seat, before it closes them
LEFT_MARK = "left "  # token hashes of given-up seats start with it (sha256 hex digests never do)


def left_mark(table_id: str, seat: int) -> str:
    return f"{LEFT_MARK}{table_id}:{seat}"


def has_left(seat: SeatRecord) -> bool:
    """Whether the seat's player gave it up (its link opens nothing any more)."""
    return seat.kind == HUMAN and (seat.token_hash or "").startswith(LEFT_MARK)


def give_up_seat(store: Store, table_id: str, seat: int, level: str) -> str:
    """Store the stand-in and revoke the seat's token in one transaction; the new hash."""
    mark = left_mark(table_id, seat)
    with store.writing() as session:
        session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == HUMAN)
            .values(standin=level, token_hash=mark)
        )
    return mark


async def leave_seat(table: LiveTable, client: Client) -> None:
    """The client's seat is given up; `ClientError` if it cannot be."""
    seat = client.seat
    if seat is None:
        raise ClientError("spectators have no seat to leave")
    async with table.lock:
        if table.state.is_over:
            raise ClientError("the game is over: there is no seat to leave")
        record = table.seats[seat]
        level = table.clock.level
        record.token_hash = await asyncio.to_thread(
            give_up_seat, table.store, table.id, seat, level
        )
        record.standin = level
        table.clock.seat_standin(seat)
        text = f"seat {seat} left the table: a bot ({level}) plays it to the end"
        for other in list(table.clients):
            if other.seat == seat:
                _revoke(table, other, text)
        status: dict[str, Any] = {"type": "table", "table": table.clock.status()}
        for other in list(table.clients):
            other.send({**status, "notes": [{"text": text}]})
    if table.bus is not None:  # other processes reread the seats (the old hash is gone)
        table.bus.told(table, text)
    table.kick_bots()


def still_seated(table: LiveTable, client: Client) -> bool:
    """False (and the connection is told and closed) if the client's seat was given up since it
    connected: on another server process, which changed the seat under this one's feet."""
    seat = client.seat
    if seat is None or not has_left(table.seats[seat]):
        return True
    _revoke(table, client, f"seat {seat} left the table")
    return False


def _revoke(table: LiveTable, client: Client, text: str) -> None:
    """Tell a connection of the given-up seat, and close it (4403, as a link that is not valid)."""
    client.send({"type": LEFT, "seat": client.seat, "message": f"{text}; this link is closed"})
    client.revoked = True
    table.leave(client)
