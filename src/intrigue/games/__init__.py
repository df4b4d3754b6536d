"""The built-in games, one package each, listed here and imported only when loaded.

``intrigue.games`` is both this package and the function the protocol promises:
``intrigue.games()`` lists the registered games. Python binds a package's subpackage as an
attribute of the parent, so the package itself is made callable rather than shadowed.
"""

from __future__ import annotations

import sys
import types
from typing import Any

BUILTIN_GAMES: dict[str, str] = {
    "masquerade-murder": "intrigue.games.masquerade_murder:GAME",
    "masquerade-ball": "intrigue.games.masquerade_ball:GAME",
    "project-assassination": "intrigue.games.project_assassination:GAME",
    "shadows-over-japan": "intrigue.games.shadows_over_japan:GAME",
}


class _CallableGamesPackage(types.ModuleType):
    def __call__(self) -> list[dict[str, Any]]:
        """Metadata of every registered game (id, name, player counts, options)."""
        from intrigue.engine.registry import games

        return games()


sys.modules[__name__].__class__ = _CallableGamesPackage
