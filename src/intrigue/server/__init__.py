"""The web server: lobby, live tables over WebSockets, bots and persistence.

Nothing in `intrigue.engine` or `intrigue.games` imports this package; it drives games only
through the engine protocol (``view``, ``events``, ``legal_actions``, ``apply``, ``replay``).

Read it top down, in layers; a layer imports only the layers below it, and no module imports
another in a circle (``tests/server/test_server_layers.py`` checks both):

* `transport` — what meets the network: the HTTP API and pages, the game WebSocket, how
  frames are read and written, and ``intrigue serve``.
* `scaleout` — several server processes on one database: the Redis bus, table leases and
  catching a table up with moves made elsewhere.
* `tables` — the live tables: a small core (state, moves, connections, bots) and the parts it
  owns (clock and stand-ins, chat, rematch, leaving), and the hub that holds them all.
* `storage` — the database: schema and migrations, queries, and the group-commit writer.
* at the bottom, `config` (the settings) and `timesource` (where clocks read the time).
"""

from __future__ import annotations

from typing import Any

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """`Settings` and `create_app`, imported on first use: a bot worker process imports
    `intrigue.server.tables.botpool` and must not pull in the web framework with it."""
    if name == "Settings":
        from .config import Settings

        return Settings
    if name == "create_app":
        from .transport.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
