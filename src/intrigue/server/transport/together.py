"""Playing together across days and devices: "your tables" and the table screen.

There are no accounts: a browser remembers the seat links it created or opened, and asks
``POST /api/my-tables`` about them, sending the tokens in the request body (never in a URL, so
they stay out of every log). The answer gives, for each token that is a seat, the table's
public description, the seat's number and whether that seat is to move; nothing else (no view,
no legal moves, no other seat's token). Tables where it is your turn come first.

``/table/{id}/screen`` is the page for a shared display in the middle of the table: a
spectator connection (public view only) drawn large, while each player's phone is its private
screen.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..storage.db import OVER, SeatRow, Store, TableRow
from ..tables.hub import Hub
from ..tables.seats import hash_token

MAX_TOKENS = 200  # seat links one browser may ask about at once

Token = Annotated[str, Field(min_length=1, max_length=100)]


class MyTables(BaseModel):
    """``POST /api/my-tables``: the seat tokens this browser holds."""

    model_config = ConfigDict(extra="forbid")

    tokens: list[Token] = Field(max_length=MAX_TOKENS)


def add_together(app: FastAPI, hub: Hub, static: Path) -> None:
    """Add the table screen page and ``POST /api/my-tables``."""

    @app.get("/table/{table_id}/screen", include_in_schema=False)
    async def table_screen(table_id: str) -> FileResponse:
        return FileResponse(static / "screen.html")

    @app.post("/api/my-tables")
    async def my_tables(body: MyTables) -> dict[str, Any]:
        found = await asyncio.to_thread(seats_for_tokens, hub.store, body.tokens)
        tables = []
        for index, (table_id, seat, rematch) in sorted(found.items()):
            info = hub.finished_info(table_id)  # a finished table is not reloaded to list it
            if info is None:
                table = await hub.get(table_id)
                if table is None:
                    continue
                info = table.info()
            tables.append(your_table(info, index, seat, rematch))
        tables.sort(key=_order)
        unknown = [i for i in range(len(body.tokens)) if i not in found]
        return {"tables": tables, "unknown": unknown}


def seats_for_tokens(store: Store, tokens: list[str]) -> dict[int, tuple[str, int, str | None]]:
    """For each token (by its index) that opens a seat: the table, the seat, its rematch."""
    by_hash = {hash_token(token): index for index, token in enumerate(tokens)}
    if not by_hash:
        return {}
    query = (
        select(SeatRow.token_hash, SeatRow.table_id, SeatRow.seat, TableRow.rematch)
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .where(SeatRow.token_hash.in_(list(by_hash)))
    )
    with Session(store.engine) as session:
        rows = session.execute(query).all()
    return {by_hash[digest]: (table_id, seat, rematch) for digest, table_id, seat, rematch in rows}


def your_table(info: dict[str, Any], index: int, seat: int, rematch: str | None) -> dict[str, Any]:
    """A seat's table as the lobby lists it: its public facts (`LiveTable.info`) plus whether
    the seat is to move."""
    your_turn = info["status"] != OVER and seat in info["to_move"]
    mine = {"index": index, "seat": seat, "your_turn": your_turn, "rematch": rematch}
    return {**info, **mine}


def _order(item: dict[str, Any]) -> tuple[int, float]:
    """Your turn first, then the other unfinished tables, then finished ones; newest first."""
    group = 0 if item["your_turn"] else 1 if item["status"] != "over" else 2
    created = datetime.fromisoformat(item["created"])
    if created.tzinfo is None:  # SQLite gives the stored UTC time back without its zone
        created = created.replace(tzinfo=UTC)
    return group, -created.timestamp()
