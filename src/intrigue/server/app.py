"""The ASGI application: lobby and table pages, the JSON API and the game WebSocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool

import intrigue
from intrigue.engine import InvalidOption, UnknownGame

from .chat import CHAT_TYPES
from .clock import CLOCK_TYPES, clock_settings
from .config import Settings
from .db import DB_UNAVAILABLE, Store, driver_words
from .leave import LEAVE, leave_seat, still_seated
from .live import Client, Hub, LiveTable
from .openapi import document_errors
from .protocol import ClientError, encode, read_act, read_message
from .rematch import REMATCH
from .replays import add_replay_routes
from .together import add_together

STATIC = Path(__file__).with_name("static")
# WebSocket close codes (4000-4999 are for applications).
CLOSE_NO_TABLE, CLOSE_BAD_TOKEN = 4404, 4403
CLOSE_TOO_SLOW = 1008  # policy violation: the client does not read what it is sent
CLOSE_TRY_LATER = 1013  # the database could not be read: come back in a moment
DB_DOWN = "the database is unavailable right now, so nothing was saved; retry in a moment"
log = logging.getLogger("intrigue.server")


class CreateTable(BaseModel):
    """``POST /api/tables``: the game, its player count and options, and who sits where."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=64)
    players: int | None = None
    seats: list[str] | None = Field(default=None, max_length=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    # Show every whisper to everyone once the game is over (and in replays).
    reveal_chat: StrictBool = False
    # The time control ({"mode": "move", "seconds": 60}...) and the bot that moves when it runs out.
    clock: dict[str, Any] | None = None
    clock_bot: str | None = None


def create_app(settings: Settings) -> FastAPI:
    """The server for ``settings``; the database is migrated and games restored at start-up."""
    hub = Hub(Store(settings.database_url), settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        yield
        await hub.stop()

    app = FastAPI(title="intrigue", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_exception_handler(RequestValidationError, _bad_request)  # type: ignore[arg-type]
    for unavailable in DB_UNAVAILABLE:
        app.add_exception_handler(unavailable, _database_unavailable)  # type: ignore[arg-type]
    _add_pages(app)
    add_replay_routes(app, hub, STATIC / "replay.html")
    _add_api(app, hub)
    add_together(app, hub, STATIC)  # table screen, "your tables", rematches
    _add_websocket(app, hub, settings)
    document_errors(app)  # /openapi.json tells the 400/404/409/503 answers, not FastAPI's 422
    return app


async def _database_unavailable(_request: Request, exc: Exception) -> JSONResponse:
    """503 with a sentence, not a bare 500, while the database is out of reach."""
    log.warning(
        "a request failed: the database is unavailable (%s: %s)",
        type(exc).__name__,
        driver_words(exc),
    )
    return JSONResponse({"detail": DB_DOWN}, status_code=503)


async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """Validation errors as 400 with one readable sentence per problem."""
    problems = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
        problems.append(f"{where}: {error.get('msg', 'invalid')}" if where else error["msg"])
    return JSONResponse({"detail": "; ".join(problems) or "bad request"}, status_code=400)


def _add_pages(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")


def _add_api(app: FastAPI, hub: Hub) -> None:
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return intrigue.games()

    @app.get("/api/tables")
    async def open_tables() -> dict[str, Any]:
        return {"tables": hub.open_tables()}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        try:
            settings = {
                "reveal_chat": body.reveal_chat,
                **clock_settings(body.clock, body.clock_bot),
            }
            table, tokens = await hub.create(
                body.game, body.players, body.options, body.seats, settings
            )
        except UnknownGame as exc:
            raise HTTPException(400, f"unknown game: {exc}") from None
        except (InvalidOption, ValueError, TypeError) as exc:
            raise HTTPException(400, str(exc)) from None
        return _created(table, tokens, str(request.base_url).rstrip("/"))

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table = await hub.get(table_id)
        if table is None:
            raise HTTPException(404, f"there is no table {table_id[:40]!r}")
        info = table.info()
        info["view"] = table.state.view(None)  # the spectator's (public) view
        return info


def _created(table: LiveTable, tokens: dict[int, str], base: str) -> dict[str, Any]:
    """The new table's info with one secret link per human seat, and the spectator link."""
    # The token travels in the fragment, which browsers never send to the server in requests.
    links = [
        {"seat": seat, "token": token, "url": f"{base}/table/{table.id}#token={token}"}
        for seat, token in sorted(tokens.items())
    ]
    return {**table.info(), "links": links, "spectate": f"{base}/table/{table.id}"}


def _add_websocket(app: FastAPI, hub: Hub, settings: Settings) -> None:
    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        await websocket.accept()
        try:
            table = await hub.get(table_id)
        except DB_UNAVAILABLE:
            await _refuse(websocket, DB_DOWN, CLOSE_TRY_LATER)
            return
        if table is None:
            await _refuse(websocket, f"there is no table {table_id[:40]!r}", CLOSE_NO_TABLE)
            return
        seat = None if token is None else table.seat_for_token(token)
        if token is not None and seat is None:
            await _refuse(websocket, "this seat link is not valid for this table", CLOSE_BAD_TOKEN)
            return
        await _serve_client(websocket, table, seat, settings)


async def _refuse(websocket: WebSocket, text: str, code: int) -> None:
    await websocket.send_text(json.dumps({"type": "error", "message": text}))
    await websocket.close(code=code, reason=text[:100])


async def _serve_client(
    websocket: WebSocket, table: LiveTable, seat: int | None, settings: Settings
) -> None:
    """Sync the client, then read its messages until it leaves."""

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_text(encode(message))

    client = Client(send, seat, settings)

    async def deliver() -> None:
        await client.pump()
        if client.dropped:
            await websocket.close(code=CLOSE_TOO_SLOW, reason="messages were not read")
        elif client.revoked:  # its seat was given up: the link opens nothing any more
            await websocket.close(code=CLOSE_BAD_TOKEN, reason="this seat link was given up")

    pump = asyncio.create_task(deliver())
    table.join(client)
    try:
        token = websocket.query_params.get("token")  # kept to derive its rematch link
        await websocket.app.state.rematches.joined(table, client, token)
        await _read_loop(websocket, table, client, settings)
    except WebSocketDisconnect:
        pass
    finally:
        table.leave(client)
        with contextlib.suppress(Exception):
            await pump


async def _read_loop(
    websocket: WebSocket, table: LiveTable, client: Client, settings: Settings
) -> None:
    while not client.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect" or client.closed:
            return  # (closed: the server let the connection go while it was waiting)
        if not still_seated(table, client):
            return  # its seat was given up (on another process): the link is closed
        if not client.limiter.allow():
            client.error("too many messages; slow down")
            continue
        try:
            raw = message.get("text")
            data = read_message(
                raw if raw is not None else message.get("bytes"), settings.max_message_bytes
            )
            if data.get("type") in CHAT_TYPES:
                await table.chat.post(table, client, data)
                continue
            if data.get("type") in CLOCK_TYPES:
                await table.clock.receive(client, data)
                continue
            if data.get("type") == REMATCH:
                await websocket.app.state.rematches.request(table, client)
                continue
            if data.get("type") == LEAVE:
                await leave_seat(table, client)
                continue
            action = read_act(data, client.seat)
        except ClientError as exc:
            client.error(str(exc))
            continue
        except DB_UNAVAILABLE:  # a vote, reclaim, rematch... that could not be stored
            log.warning("table %s: a request failed: the database is unavailable", table.id)
            client.error(DB_DOWN)
            continue
        await table.act(client, action)
