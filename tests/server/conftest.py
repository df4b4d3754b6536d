"""Fixtures for the server tests: a real server on 127.0.0.1 with a real SQLite file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from server_driver import Player, ThreadServer

from intrigue.server.config import Settings

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
