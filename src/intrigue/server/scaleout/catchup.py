"""Catching a live table up with the database, when other server processes share it.

The database is the truth: a move counts once its row (table_id, ordinal) is committed, and the
key lets exactly one row in per ordinal, whichever process offers it first. A process holds a
table's state as a replay of the stored rows 0..n-1 and only ever offers row n; so if its
insert conflicts, another process stored row n first and this one is behind. It then reads the
rows it misses, plays them in order on clones of its state and tells its own connections, as if
the moves had been made here (`LiveTable.apply_missing`). The same happens when the bus says
that another process stored a move (`catch_up`), and periodically, which repairs a lost bus
message.

Chat lines and stand-in bots are kept the same way: `deliver_lines` adds lines said on another
process, `refresh_seats` rereads who plays each seat (stand-ins, seat links claimed for a
rematch).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from ..storage.db import ActionRow, MessageRecord, MessageRow, SeatRow, Store
from ..tables.chat import may_read
from ..tables.table import LiveTable

log = logging.getLogger("intrigue.server")


# -- queries ------------------------------------------------------------------------------------
def progress(store: Store, table_ids: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """For each table: how many actions are stored, and the id of its last chat line."""
    if not table_ids:
        return {}, {}
    with Session(store.engine) as session:
        moves = session.execute(
            select(ActionRow.table_id, func.max(ActionRow.ordinal))
            .where(ActionRow.table_id.in_(table_ids))
            .group_by(ActionRow.table_id)
        ).all()
        lines = session.execute(
            select(MessageRow.table_id, func.max(MessageRow.id))
            .where(MessageRow.table_id.in_(table_ids))
            .group_by(MessageRow.table_id)
        ).all()
    return {t: last + 1 for t, last in moves}, {t: last for t, last in lines}


def seats_of(store: Store, table_id: str) -> dict[int, tuple[str | None, str | None]]:
    """Each seat's stand-in bot level and token hash, as stored."""
    with Session(store.engine) as session:
        rows = session.execute(
            select(SeatRow.seat, SeatRow.standin, SeatRow.token_hash).where(
                SeatRow.table_id == table_id
            )
        ).all()
    return {seat: (standin, token_hash) for seat, standin, token_hash in rows}


# -- moves --------------------------------------------------------------------------------------
async def catch_up(table: LiveTable) -> int:
    """Play the moves other processes stored for ``table``; how many there were."""
    async with table.lock:
        return await table.apply_missing()


# -- chat and seats -----------------------------------------------------------------------------
def lines_after(store: Store, table_id: str, after: int, also: int | None) -> list[MessageRecord]:
    """The table's chat lines with an id above ``after``, and line ``also`` (a line whose id
    was drawn before the last one known here, but committed after it)."""
    newer = MessageRow.id > after
    where = newer if also is None else or_(newer, MessageRow.id == also)
    with Session(store.engine) as session:
        rows = session.scalars(
            select(MessageRow).where(MessageRow.table_id == table_id, where).order_by(MessageRow.id)
        )
        return [MessageRecord(r.id, r.seat, r.to_seat, r.text, r.step, r.created) for r in rows]


def last_line(table: LiveTable) -> int:
    return max((line.id for line in table.chat.lines), default=0)


def deliver_lines(table: LiveTable, lines: Iterable[MessageRecord]) -> None:
    """Add chat lines said on another process and send each to exactly the connections here
    that may read it (as `TableChat.post` does for a line said here)."""
    chat = table.chat
    known = {line.id for line in chat.lines}
    new = sorted((line for line in lines if line.id not in known), key=lambda line: line.id)
    if not new:
        return
    chat.lines.extend(new)
    chat.lines.sort(key=lambda line: line.id)
    over = table.state.is_over
    for line in new:
        payload = {"type": "chat", "lines": [chat.message(line)]}
        for client in list(table.clients):
            if may_read(line, client.seat, over, chat.reveal):
                client.send(payload)


async def catch_up_chat(table: LiveTable, noted: int | None = None) -> None:
    """Deliver the stored chat lines this process has not seen (``noted``: a line's id the
    bus announced). Lines travel through the database, never the bus: whispers stay there."""
    if noted is not None and any(line.id == noted for line in table.chat.lines):
        return
    lines = await asyncio.to_thread(lines_after, table.store, table.id, last_line(table), noted)
    deliver_lines(table, lines)


async def refresh_seats(table: LiveTable) -> None:
    """Reread who plays each seat: stand-in bots put or taken back, and seat tokens claimed
    (a rematch seat's link is claimed by whichever process its player asked)."""
    stored = await asyncio.to_thread(seats_of, table.store, table.id)
    clock = table.clock
    async with table.lock:
        for seat, (standin, token_hash) in stored.items():
            record = table.seats.get(seat)
            if record is not None and token_hash is not None:
                record.token_hash = token_hash
            if standin and seat not in clock.standins:
                clock._seat_bot(seat, standin)
            elif not standin and seat in clock.standins:
                del clock.standins[seat]
                table.bots.pop(seat, None)
                table.bot_rngs.pop(seat, None)
    table.kick_bots()
