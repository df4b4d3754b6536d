"""``intrigue serve``: run the server with uvicorn."""

from __future__ import annotations

import logging

import uvicorn
from sqlalchemy.engine import make_url

from .app import create_app
from .config import Settings


def uvicorn_config(
    settings: Settings, host: str, port: int, log_level: str = "info"
) -> uvicorn.Config:
    """The uvicorn set-up shared by ``intrigue serve`` and the tests."""
    return uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=settings.max_frame_bytes,
        lifespan="on",
        # Access logs would print seat tokens (they are in the WebSocket URL).
        access_log=False,
        log_level=log_level,
    )


def serve(settings: Settings, host: str, port: int) -> int:
    """Serve until interrupted; prints the address first."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    shown = make_url(settings.database_url).render_as_string(hide_password=True)
    shown_host = f"[{host}]" if ":" in host else host
    print(f"intrigue: serving on http://{shown_host}:{port}/  (database {shown})", flush=True)
    server = uvicorn.Server(uvicorn_config(settings, host, port))
    server.run()
    return 0 if server.started else 1
