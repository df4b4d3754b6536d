"""Server settings: the database URL, bot pacing and the limits applied to every connection."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .timesource import SystemTime, TimeSource

# SQLite in a file of the working directory: nothing to install or start.
DEFAULT_DATABASE_URL = "sqlite:///intrigue.sqlite3"
DATABASE_ENV = "INTRIGUE_DATABASE_URL"
BOT_DELAY_ENV = "INTRIGUE_BOT_DELAY"
DEFAULT_BOT_DELAY = 0.8
# Scale-out: the Redis that wakes the other server processes, and the prefix of its channel.
REDIS_ENV = "INTRIGUE_REDIS_URL"
REDIS_PREFIX_ENV = "INTRIGUE_REDIS_PREFIX"
# The secret every process of one deployment shares, signing the notes on the Redis bus.
BUS_SECRET_ENV = "INTRIGUE_BUS_SECRET"
DEFAULT_REDIS_PREFIX = "intrigue"


def normalise_database_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` and use the psycopg (v3) driver for them."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def choose_database_url(cli_value: str | None) -> str:
    """``--db`` if given, else ``INTRIGUE_DATABASE_URL``, else the local SQLite file."""
    url = cli_value or os.environ.get(DATABASE_ENV) or DEFAULT_DATABASE_URL
    return normalise_database_url(url)


def choose_bot_delay(cli_value: float | None) -> float:
    """``--bot-delay`` if given, else ``INTRIGUE_BOT_DELAY``, else the default pause."""
    if cli_value is not None:
        return max(0.0, cli_value)
    text = os.environ.get(BOT_DELAY_ENV)
    return max(0.0, float(text)) if text else DEFAULT_BOT_DELAY


def choose_redis(cli_value: str | None) -> tuple[str | None, str]:
    """``--redis`` if given, else ``INTRIGUE_REDIS_URL``, else None (one process alone); and
    the channel prefix (``INTRIGUE_REDIS_PREFIX``), keeping deployments on one Redis apart."""
    url = cli_value or os.environ.get(REDIS_ENV) or None
    return url, os.environ.get(REDIS_PREFIX_ENV) or DEFAULT_REDIS_PREFIX


def random_table_id() -> str:
    """A new table's id: 12 random hex digits (public: it is in the table's address)."""
    return secrets.token_hex(6)


@dataclass(frozen=True)
class Settings:
    """Everything `create_app` needs to know."""

    database_url: str = DEFAULT_DATABASE_URL
    # Seconds a bot waits before it moves, so humans can follow the game (0 in tests).
    bot_delay: float = DEFAULT_BOT_DELAY
    # Largest client message answered with an error; far larger frames close the connection.
    max_message_bytes: int = 4096
    max_frame_bytes: int = 65536
    # Seconds a new WebSocket has to send its hello (with its seat token) before it is closed.
    hello_timeout: float = 10.0
    # Per-connection token bucket: messages per second refilled, and the burst allowed.
    rate_per_second: float = 10.0
    rate_burst: int = 30
    # Messages queued for one slow client before it is disconnected.
    max_queued: int = 256
    # Where clocks read the time (tests inject a `FakeTime`).
    time: TimeSource = field(default_factory=SystemTime)
    # Seconds a human seat may stay without a connection before a stand-in bot plays it
    # (real-time tables only; 0 turns this off).
    leave_timeout: float = 180.0
    # WebSocket permessage-deflate: smaller updates, but compressing each one cost more CPU
    # than building it (docs/performance.md), so it is off unless bandwidth matters more.
    ws_compression: bool = False
    # Scale-out (docs/deploy.md): Redis for the bus between processes sharing the database.
    redis_url: str | None = None
    redis_prefix: str = DEFAULT_REDIS_PREFIX
    bus_secret: str | None = None  # INTRIGUE_BUS_SECRET: signs the bus's notes (HMAC)
    # Bots (tables/botpool.py): worker processes they think in (0: a thread of this process),
    # and the CPU seconds of thinking each table gets before its bots fall back to ``easy``.
    bot_processes: int = 2
    bot_budget: float = 600.0
    # Seconds a search bot's decision may take at most: it plays the best move found by then
    # (0: its iterations run to the end, as for an application built in a test; ``intrigue
    # serve`` applies `SERVE_LIMITS`).
    bot_move_seconds: float = 0.0
    # Tables one client address may create per minute (429 beyond), and caps on the unfinished
    # tables in memory and on those with no human seat (503 beyond). 0: no limit, as for an
    # application built in a test; ``intrigue serve`` applies `SERVE_LIMITS`.
    tables_per_minute: int = 0
    max_open_tables: int = 0
    max_bot_tables: int = 0
    # Seconds a table stays in memory with no connection and nothing to do (finished, or no
    # bot to move and no clock running) before it is evicted; it reloads when next opened
    # (0: never). A finished table goes sooner, after ``evict_finished_after`` (0: as any
    # other): its game changes no more, and a busy server finishes several games a second,
    # whose tables would otherwise make every full collection of the garbage collector walk
    # ten minutes' worth of finished games (docs/performance.md).
    evict_after: float = 600.0
    evict_finished_after: float = 10.0
    # Host names the server answers for (empty: any; ``intrigue serve`` on a loopback address
    # allows only loopback names), page origins besides the server's own that may open a
    # WebSocket, and the largest HTTP request body (transport/guard.py).
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    max_body_bytes: int = 65536
    # Slow and greedy connections (transport/connections.py, transport/websocket.py): seconds
    # an HTTP request has for its headers, then for its body; HTTP connections, WebSockets,
    # spectators of one table and connections of one seat at once (0: no cap; ``intrigue
    # serve`` applies `SERVE_LIMITS`); seconds a send to a WebSocket may stall before the
    # client is dropped as one that does not read (it catches up when it reconnects).
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    max_http_per_address: int = 0
    max_sockets_per_address: int = 0
    max_spectators_per_table: int = 0
    max_sockets_per_seat: int = 0
    send_timeout: float = 20.0
    # Seconds a connection that is not to move may wait for its update, so that the moves
    # made meanwhile reach it as one message (tables/table.py); 0: every move at once, as
    # for an application built in a test; ``intrigue serve`` applies `SERVE_LIMITS`.
    update_delay: float = 0.0
    # Makes the id of a new table (a worker of ``intrigue serve --workers`` makes ids the
    # dispatcher routes back to it, transport/dispatch.py).
    new_table_id: Callable[[], str] = field(default=random_table_id)


# The limits an operator may set from the environment: INTRIGUE_<NAME> (docs/server.md).
LIMITS = (
    "bot_processes",
    "bot_budget",
    "bot_move_seconds",
    "tables_per_minute",
    "max_open_tables",
    "max_bot_tables",
    "evict_after",
    "evict_finished_after",
    "leave_timeout",
    "header_timeout",
    "body_timeout",
    "max_http_per_address",
    "max_sockets_per_address",
    "max_spectators_per_table",
    "max_sockets_per_seat",
    "send_timeout",
    "rate_per_second",
    "rate_burst",
    "update_delay",
)


# What ``intrigue serve`` (a server facing strangers) limits unless the environment says else.
SERVE_LIMITS: dict[str, Any] = {
    "tables_per_minute": 30,
    "max_open_tables": 2000,
    "max_bot_tables": 20,
    "max_http_per_address": 32,
    "max_sockets_per_address": 48,
    "max_spectators_per_table": 50,
    "max_sockets_per_seat": 4,
    "update_delay": 0.05,
    "bot_move_seconds": 1.0,
}


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
HOSTS_ENV, ORIGINS_ENV = "INTRIGUE_ALLOWED_HOSTS", "INTRIGUE_ALLOWED_ORIGINS"


def origins_from_environment(
    listen: str, environ: Mapping[str, str] | None = None
) -> dict[str, tuple[str, ...]]:
    """``intrigue serve``'s trusted host names and extra WebSocket origins: the comma-separated
    ``INTRIGUE_ALLOWED_HOSTS`` / ``INTRIGUE_ALLOWED_ORIGINS``; without the first, a server
    listening on a loopback address answers only to loopback names (DNS rebinding), any other
    to any name (set it when the server faces the internet)."""
    environ = os.environ if environ is None else environ
    hosts = tuple(h.strip() for h in environ.get(HOSTS_ENV, "").split(",") if h.strip())
    if not hosts and listen in LOOPBACK_NAMES:
        hosts = LOOPBACK_NAMES
    origins = tuple(o.strip() for o in environ.get(ORIGINS_ENV, "").split(",") if o.strip())
    return {"allowed_hosts": hosts, "allowed_origins": origins}


def limits_from_environment(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``intrigue serve``'s limits: `SERVE_LIMITS`, then any of `LIMITS` set in the
    environment (``INTRIGUE_MAX_BOT_TABLES=50``...), as Settings keyword arguments;
    `ValueError` naming the variable for a value that is not a number."""
    environ = os.environ if environ is None else environ
    kinds = {f.name: f.type for f in fields(Settings)}
    chosen: dict[str, Any] = dict(SERVE_LIMITS)
    for name in LIMITS:
        variable = f"INTRIGUE_{name.upper()}"
        text = environ.get(variable)
        if not text:
            continue
        convert = int if kinds[name] in (int, "int") else float
        try:
            chosen[name] = max(0, convert(text))
        except ValueError:
            raise ValueError(f"{variable}={text[:40]!r}: not a number") from None
    return chosen
