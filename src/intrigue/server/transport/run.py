"""``intrigue serve``: run the server with uvicorn."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import subprocess
import sys
from urllib.parse import urlsplit, urlunsplit

import uvicorn
from sqlalchemy.engine import make_url

from ... import compiled
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
from .connections import install
from .dispatch import Dispatcher, table_ids_for
from .logs import mask_secrets_in_logs
from .reader import DirectReadProtocol
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
        ws=DirectReadProtocol,  # uvicorn's "websockets-sansio", reading moves faster
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
        # Workers starting together would race to create a new SQLite file's schema.
        _check_database(settings.database_url, migrate=workers > 1)
    except DatabaseDamaged as exc:
        print(f"intrigue: {exc}", file=sys.stderr, flush=True)
        return 2
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    shown_host = f"[{host}]" if ":" in host else host
    bus = f", redis {_hide_password(settings.redis_url)}" if settings.redis_url else ""
    print(f"intrigue: serving on http://{shown_host}:{port}/  (database {shown}{bus})", flush=True)
    print(f"intrigue: {compiled.summary()}", flush=True)
    if workers > 1:
        return serve_workers(settings, host, port, workers, log_level)
    server = uvicorn.Server(uvicorn_config(settings, host, port, log_level))
    tune_process()  # the application is built: freeze it for the garbage collector
    server.run()
    return 0 if server.started else 1


def serve_workers(
    settings: Settings, host: str, port: int, workers: int, log_level: str = "info"
) -> int:
    """Several worker processes on one port, linked by the Redis bus (docs/deploy.md).

    This process accepts the connections and hands each table's to one worker (`dispatch`);
    each worker builds its settings from the environment, which is set here (`worker_config`).
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
    try:
        listener = _listen(host, port)
    except OSError as exc:
        print(f"intrigue: cannot listen on port {port}: {exc.strerror}", file=sys.stderr)
        return 1

    def spawn(channel: socket.socket, index: int) -> subprocess.Popen[bytes]:
        fd = channel.fileno()
        place = [str(index), str(workers)]  # which worker it is: its new tables route to it
        return subprocess.Popen(
            [sys.executable, "-m", "intrigue.server.transport.worker", str(fd), log_level, *place],
            pass_fds=(fd,),
            start_new_session=True,  # a Ctrl+C reaches the dispatcher, which stops them
        )

    return asyncio.run(Dispatcher(listener, workers, spawn).run())


def worker_config(log_level: str, index: int = 0, workers: int = 1) -> uvicorn.Config:
    """The uvicorn set-up of worker ``index`` of ``workers``, with the settings its parent put
    in the environment; its app is built (and the process tuned) here. The tables it creates
    get ids the dispatcher routes back to it (`table_ids_for`)."""
    _basic_logging(log_level)
    redis_url, redis_prefix = choose_redis(None)
    settings = Settings(
        database_url=choose_database_url(None),
        bot_delay=choose_bot_delay(None),
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        bus_secret=os.environ.get(BUS_SECRET_ENV) or None,
        **limits_from_environment(),  # inherited from the parent's environment
        **origins_from_environment(""),
        new_table_id=table_ids_for(index, workers),
    )
    config = uvicorn_config(settings, "127.0.0.1", 0, log_level)  # listens on nothing itself
    tune_process()  # the application is built: freeze it for the garbage collector
    return config


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket the dispatcher accepts on (uvicorn's default backlog)."""
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(2048)
    except OSError:
        listener.close()
        raise
    return listener


def _check_database(url: str, migrate: bool = False) -> None:
    """`DatabaseDamaged` if a SQLite file is damaged; ``migrate``: bring the schema up to date."""
    store = Store(url)
    try:
        if migrate:
            store.migrate()  # checks the integrity first
        else:
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
