"""The game protocol shared by every game: no game-specific code lives here."""

from .actions import Action, ActionTable
from .errors import IllegalAction, IntrigueError, InvalidAction, InvalidOption, UnknownGame
from .events import Event
from .game import Game, State
from .options import MAX_TURNS, Option
from .outcome import Outcome
from .record import Record
from .registry import game_ids, games, load, register, register_lazy, replay
from .rng import Rng

__all__ = [
    "MAX_TURNS",
    "Action",
    "ActionTable",
    "Event",
    "Game",
    "IllegalAction",
    "IntrigueError",
    "InvalidAction",
    "InvalidOption",
    "Option",
    "Outcome",
    "Record",
    "Rng",
    "State",
    "UnknownGame",
    "game_ids",
    "games",
    "load",
    "register",
    "register_lazy",
    "replay",
]
