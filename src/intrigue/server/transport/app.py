"""The ASGI application: lobby and table pages, the JSON API and the game WebSocket."""

from __future__ import annotations

import functools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool

import intrigue
from intrigue.engine import InvalidOption, UnknownGame

from ..config import Settings
from ..scaleout.bus import make_bus
from ..storage.db import DB_DOWN, DB_UNAVAILABLE, Store, driver_words
from ..tables.clock import clock_settings
from ..tables.hub import Hub, ServerFull
from ..tables.pace import bot_speed
from ..tables.rematch import Rematches
from ..tables.table import LiveTable
from .frames import KeepRawSend
from .guard import BodyTooLarge, Guard
from .limits import CreationLimit
from .openapi import document_errors
from .replays import add_replay_routes
from .together import add_together
from .websocket import add_websocket

# The web client's pages and scripts.
STATIC = Path(__file__).parent.parent / "static"
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
    # How long bots pause before their moves: instant, normal (default) or slow (tables/pace.py).
    bot_speed: str | None = Field(default=None, max_length=16)
    # A hint each turn for every human seat: the medium bot's move for it (tables/hints.py).
    hints: StrictBool = False
    # Options that fix what chance decides (roles, a deal...) need this explicit choice: the
    # table is then a "custom deal", marked as such for every seat and in the lobby.
    custom_deal: StrictBool = False


def create_app(settings: Settings) -> FastAPI:
    """The server for ``settings``; the database is migrated and games restored at start-up."""
    hub = Hub(Store(settings.database_url), settings)
    # Scale-out: several processes sharing the database, woken through Redis (or None).
    bus = make_bus(hub, settings.redis_url, settings.redis_prefix, settings.bus_secret)
    hub.bus = bus
    rematches = Rematches(hub)
    if bus is not None:  # rematches started on another process reach players here
        bus.rematches = rematches

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        yield
        await hub.stop()

    app = FastAPI(title="intrigue", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.state.rematches = rematches
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_exception_handler(RequestValidationError, _bad_request)  # type: ignore[arg-type]
    for unavailable in DB_UNAVAILABLE:
        app.add_exception_handler(unavailable, _database_unavailable)  # type: ignore[arg-type]
    _add_pages(app)
    add_replay_routes(app, hub, STATIC / "replay.html")
    _add_api(app, hub, CreationLimit(settings.tables_per_minute))
    add_together(app, hub, STATIC)  # table screen, "your tables"
    add_websocket(app, hub, settings)
    document_errors(app)  # /openapi.json tells the 400/404/409/503 answers, not FastAPI's 422
    app.add_exception_handler(RecursionError, _too_deep)
    app.add_exception_handler(BodyTooLarge, _too_large)  # type: ignore[arg-type]
    app.add_middleware(
        Guard,  # type: ignore[arg-type]
        allowed_hosts=settings.allowed_hosts,
        allowed_origins=settings.allowed_origins,
        max_body_bytes=settings.max_body_bytes,
    )
    app.add_middleware(KeepRawSend)  # type: ignore[arg-type]  # (frames.py)
    return app


async def _too_deep(_request: Request, _exc: Exception) -> JSONResponse:
    """A JSON body nested past what the parser can follow: a 400, not a traceback."""
    return JSONResponse({"detail": "request body nested too deeply"}, status_code=400)


async def _too_large(_request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"detail": str(exc)}, status_code=413)


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

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "rules.html")  # the page says so itself if no such game

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")


def _add_api(app: FastAPI, hub: Hub, creations: CreationLimit) -> None:
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        return [{**info, "guide": _guide(info["id"])} for info in intrigue.games()]

    @app.get("/api/tables")
    async def open_tables() -> dict[str, Any]:
        return {"tables": hub.open_tables()}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        wait = creations.wait(request.client.host if request.client else "")
        if wait > 0:
            raise HTTPException(
                429,
                f"too many new tables from your address (at most {creations.per_minute} a "
                f"minute); try again in {wait:.0f} seconds",
                headers={"Retry-After": str(max(1, round(wait)))},
            )
        try:
            settings = {
                "reveal_chat": body.reveal_chat,
                "bot_speed": bot_speed(body.bot_speed),
                "hints": body.hints,
                **clock_settings(body.clock, body.clock_bot),
            }
            table, tokens = await hub.create(
                body.game, body.players, body.options, body.seats, settings, body.custom_deal
            )
        except UnknownGame as exc:
            raise HTTPException(400, f"unknown game: {exc}") from None
        except (InvalidOption, ValueError, TypeError) as exc:
            raise HTTPException(400, str(exc)) from None
        except ServerFull as exc:
            raise HTTPException(503, str(exc), headers={"Retry-After": "60"}) from None
        return _created(table, tokens, str(request.base_url).rstrip("/"))

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table = await hub.get(table_id)
        if table is None:
            raise HTTPException(404, f"there is no table {table_id[:40]!r}")
        info = table.info()
        info["view"] = table.state.view(None)  # the spectator's (public) view
        return info


@functools.cache
def _guide(game_id: str) -> dict[str, Any] | None:
    """The game's "How to play" (`intrigue.engine.guide`), for the pages' panels."""
    guide = intrigue.load(game_id).guide()
    return None if guide is None else guide.to_json()


def _created(table: LiveTable, tokens: dict[int, str], base: str) -> dict[str, Any]:
    """The new table's info with one secret link per human seat, and the spectator link."""
    # The token travels in the fragment, which browsers never send to the server in requests.
    links = [
        {"seat": seat, "token": token, "url": f"{base}/table/{table.id}#token={token}"}
        for seat, token in sorted(tokens.items())
    ]
    return {**table.info(), "links": links, "spectate": f"{base}/table/{table.id}"}
