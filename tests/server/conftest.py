"""Fixtures for the server tests: a real server on 127.0.0.1 with a real SQLite file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from server_driver import Player, ThreadServer

from intrigue.server.config import Settings

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


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium driven by Playwright (never a downloaded browser); skips if missing."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is missing"
    )
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (make test installs Debian's chromium)")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server for browser tests, on its own SQLite file; bots move at once."""
    db = tmp_path_factory.mktemp("browser") / "browser.sqlite3"
    running = ThreadServer(Settings(database_url=sqlite_url(db), bot_delay=0)).start()
    yield running
    running.stop()
