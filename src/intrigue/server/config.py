"""Server settings: the database URL, bot pacing and the limits applied to every connection."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .timesource import SystemTime, TimeSource

# SQLite in a file of the working directory: nothing to install or start.
DEFAULT_DATABASE_URL = "sqlite:///intrigue.sqlite3"
DATABASE_ENV = "INTRIGUE_DATABASE_URL"
BOT_DELAY_ENV = "INTRIGUE_BOT_DELAY"
DEFAULT_BOT_DELAY = 0.8
# Scale-out: the Redis that wakes the other server processes, and the prefix of its channel.
REDIS_ENV = "INTRIGUE_REDIS_URL"
REDIS_PREFIX_ENV = "INTRIGUE_REDIS_PREFIX"
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
