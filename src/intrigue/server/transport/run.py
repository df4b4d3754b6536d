"""``intrigue serve``: run the server with uvicorn."""

from __future__ import annotations

import logging
import os
import secrets
import sys
from urllib.parse import urlsplit, urlunsplit

import uvicorn
from fastapi import FastAPI
from sqlalchemy.engine import make_url

from ..config import (
    BOT_DELAY_ENV,
    BUS_SECRET_ENV,
    DATABASE_ENV,
    HOSTS_ENV,
    ORIGINS_ENV,
    REDIS_ENV,
    REDIS_PREFIX_ENV,
    Settings,
    choose_bot_delay,
    choose_database_url,
    choose_redis,
    limits_from_environment,
    origins_from_environment,
)
from ..storage.db import DatabaseDamaged, Store
from .app import create_app
from .connections import GuardedH11Protocol, install
from .logs import mask_secrets_in_logs
from .tuning import tune_process

LOG_LEVEL_ENV = "INTRIGUE_LOG_LEVEL"


def uvicorn_config(
    settings: Settings, host: str, port: int, log_level: str = "info"
) -> uvicorn.Config:
    """The uvicorn set-up shared by ``intrigue serve`` and the tests."""
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=settings.max_frame_bytes,
        ws_per_message_deflate=settings.ws_compression,
        lifespan="on",
        access_log=False,  # one line per request is noise; no secret is in a URL anyway
        log_level=log_level,
    )
    install(config, settings)  # deadlines and a cap per address on HTTP connections
    mask_secrets_in_logs()  # uvicorn has set up its log handlers: filter what they write
    return config


def serve(
    settings: Settings, host: str, port: int, workers: int = 1, log_level: str = "info"
) -> int:
    """Serve until interrupted; prints the address first. A damaged SQLite database is refused
    with one sentence (exit status 2) before anything is served or written."""
    _basic_logging(log_level)
    try:
        _check_database(settings.database_url)
    except DatabaseDamaged as exc:
        print(f"intrigue: {exc}", file=sys.stderr, flush=True)
        return 2
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    shown_host = f"[{host}]" if ":" in host else host
    bus = f", redis {_hide_password(settings.redis_url)}" if settings.redis_url else ""
    print(f"intrigue: serving on http://{shown_host}:{port}/  (database {shown}{bus})", flush=True)
    if workers > 1:
        return serve_workers(settings, host, port, workers, log_level)
    server = uvicorn.Server(uvicorn_config(settings, host, port, log_level))
    tune_process()  # the application is built: freeze it for the garbage collector
    server.run()
    return 0 if server.started else 1


def serve_workers(
    settings: Settings, host: str, port: int, workers: int, log_level: str = "info"
) -> int:
    """Several uvicorn worker processes on one port, linked by the Redis bus (docs/deploy.md).

    Each worker builds its app with `worker_app` from the environment, which is set here.
    """
    os.environ[DATABASE_ENV] = settings.database_url
    os.environ[BOT_DELAY_ENV] = str(settings.bot_delay)
    os.environ[REDIS_ENV] = settings.redis_url or ""
    os.environ[REDIS_PREFIX_ENV] = settings.redis_prefix
    # The workers sign their bus notes with the deployment's secret, or one drawn for them.
    os.environ[BUS_SECRET_ENV] = settings.bus_secret or secrets.token_hex(32)
    os.environ[LOG_LEVEL_ENV] = log_level
    os.environ[HOSTS_ENV] = ",".join(settings.allowed_hosts)
    os.environ[ORIGINS_ENV] = ",".join(settings.allowed_origins)
    uvicorn.run(
        "intrigue.server.transport.run:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        http=GuardedH11Protocol,  # its limits come from the environment set above
        ws="websockets-sansio",
        ws_max_size=settings.max_frame_bytes,
        ws_per_message_deflate=settings.ws_compression,
        lifespan="on",
        access_log=False,
        log_level=log_level,
    )
    return 0


def worker_app() -> FastAPI:
    """The app of one ``--workers`` process, with the settings its parent put in the environment."""
    _basic_logging(os.environ.get(LOG_LEVEL_ENV, "info"))
    redis_url, redis_prefix = choose_redis(None)
    app = create_app(
        Settings(
            database_url=choose_database_url(None),
            bot_delay=choose_bot_delay(None),
            redis_url=redis_url,
            redis_prefix=redis_prefix,
            bus_secret=os.environ.get(BUS_SECRET_ENV) or None,
            **limits_from_environment(),  # inherited from the parent's environment
            **origins_from_environment(""),
        )
    )
    tune_process()  # the application is built: freeze it for the garbage collector
    return app


def _check_database(url: str) -> None:
    store = Store(url)
    try:
        store.check_integrity()
    finally:
        store.close()


def _basic_logging(level: str) -> None:
    """The server's own lines on stderr at ``level`` (uvicorn's "trace" is below debug)."""
    number = logging.DEBUG if level == "trace" else getattr(logging, level.upper())
    logging.basicConfig(level=number, format="%(levelname)s: %(message)s")
    mask_secrets_in_logs()


def _hide_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
