"""The web server: lobby, live tables over WebSockets, bots and persistence.

Nothing in `intrigue.engine` or `intrigue.games` imports this package; it drives games only
through the engine protocol (``view``, ``events``, ``legal_actions``, ``apply``, ``replay``).
"""

from .app import create_app
from .config import Settings

__all__ = ["Settings", "create_app"]
