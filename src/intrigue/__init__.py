"""intrigue: an engine, AI and game server for hidden-information board games.

>>> import intrigue
>>> game = intrigue.load("masquerade-murder")
>>> state = game.new(players=5, seed=7)
>>> sorted(state.to_move)
[0, 1, 2, 3, 4]
"""

from .compiled import use_matching_builds

# Before any other module of the package: a compiled module is imported only while it matches
# its source (`intrigue.compiled`).
use_matching_builds()

from . import games  # noqa: E402
from .engine import (  # noqa: E402
    Action,
    Game,
    IllegalAction,
    InvalidAction,
    InvalidOption,
    Outcome,
    Record,
    State,
    load,
    register_lazy,
    replay,
)
from .games import BUILTIN_GAMES  # noqa: E402

for _game_id, _target in BUILTIN_GAMES.items():
    register_lazy(_game_id, _target)

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Game",
    "IllegalAction",
    "InvalidAction",
    "InvalidOption",
    "Outcome",
    "Record",
    "State",
    "__version__",
    "games",
    "load",
    "replay",
]
