"""Fixtures for the server tests: a real server on 127.0.0.1 with a real SQLite file."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from server_driver import Player, ThreadServer

from intrigue.server.config import SERVE_LIMITS, Settings

DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

Connect = Callable[..., Player]


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


@pytest.fixture(scope="module")
def db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("db") / "intrigue.sqlite3"


@pytest.fixture(scope="module")
def server(db_path: Path) -> Iterator[ThreadServer]:
    """One server per test module; bots move at once."""
    running = ThreadServer(Settings(database_url=sqlite_url(db_path), bot_delay=0)).start()
    yield running
    running.stop()


@pytest.fixture
def connect(server: ThreadServer) -> Iterator[Connect]:
    """Open WebSocket connections to ``server``; all are closed after the test."""
    players: list[Player] = []

    def open_(table_id: str, token: str | None = None) -> Player:
        player = Player(server.ws_url, table_id, token)
        players.append(player)
        return player

    yield open_
    for player in players:
        player.close()


class CspBypassing:
    """A Playwright browser whose pages ignore the server's Content-Security-Policy.

    Playwright evaluates a predicate given as an expression (``wait_for_function("a === b")``)
    with ``eval``, which the server's policy forbids (``script-src 'self'``). The pages
    themselves need no ``eval``: `strict_browser` opens them under the policy, and
    ``test_server_custom_deal.py`` plays there, checking that nothing is blocked.
    """

    def __init__(self, browser: Any) -> None:
        self.strict = browser

    def new_context(self, **options: Any) -> Any:
        return self.strict.new_context(**{"bypass_csp": True, **options})

    def new_page(self, **options: Any) -> Any:
        return self.strict.new_page(**{"bypass_csp": True, **options})

    def __getattr__(self, name: str) -> Any:
        return getattr(self.strict, name)


@pytest.fixture(scope="module")
def strict_browser(browser: CspBypassing) -> Any:
    """The browser, its pages under the server's Content-Security-Policy."""
    return browser.strict


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright (never a downloaded browser); skips if missing.
    Its pages bypass the server's Content-Security-Policy (see `CspBypassing`)."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is missing"
    )
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (make test installs Debian's chromium)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield CspBypassing(chromium)
        chromium.close()


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server for browser tests, on its own SQLite file; bots move at once, and updates
    to the seats not to move are delayed as under ``intrigue serve``."""
    db = tmp_path_factory.mktemp("browser") / "browser.sqlite3"
    delay = SERVE_LIMITS["update_delay"]
    settings = Settings(database_url=sqlite_url(db), bot_delay=0, update_delay=delay)
    running = ThreadServer(settings).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def redis_url() -> str:
    """The test Redis (``INTRIGUE_TEST_REDIS`` or the local one); skips if unreachable."""
    url = os.environ.get("INTRIGUE_TEST_REDIS") or DEFAULT_REDIS
    redis = pytest.importorskip("redis", reason="the redis package is missing")
    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    try:
        client.ping()
    except Exception as exc:
        pytest.skip(f"no Redis reachable at {url} ({type(exc).__name__})")
    finally:
        client.close()
    return url


@pytest.fixture(scope="module")
def bus_options(redis_url: str) -> tuple[list[str], dict[str, str]]:
    """``intrigue serve`` options and environment: the Redis, with this run's channel prefix."""
    prefix = f"intrigue-test-{secrets.token_hex(4)}"
    secret = secrets.token_hex(16)  # the processes' shared key for signing bus notes
    return ["--redis", redis_url], {"INTRIGUE_REDIS_PREFIX": prefix, "INTRIGUE_BUS_SECRET": secret}
