"""The registry of games: ids mapped to `Game` objects, imported on first use."""

from __future__ import annotations

import importlib
from typing import Any

from .errors import UnknownGame
from .game import Game, State
from .record import Record

_loaded: dict[str, Game] = {}
_lazy: dict[str, str] = {}


def register(game: Game) -> None:
    """Register a game object under its id."""
    _loaded[game.id] = game


def register_lazy(game_id: str, target: str) -> None:
    """Register ``"package.module:ATTRIBUTE"`` to be imported when the game is first loaded."""
    _lazy.setdefault(game_id, target)


def load(game_id: str) -> Game:
    """The game registered as ``game_id``."""
    if game_id not in _loaded:
        target = _lazy.get(game_id)
        if target is None:
            known = ", ".join(sorted(set(_lazy) | set(_loaded)))
            raise UnknownGame(f"no game {game_id!r}; known games: {known}")
        module_name, _, attribute = target.partition(":")
        register(getattr(importlib.import_module(module_name), attribute))
    return _loaded[game_id]


def game_ids() -> list[str]:
    return sorted(set(_lazy) | set(_loaded))


def games() -> list[dict[str, Any]]:
    """Metadata of every registered game (id, name, player counts, options)."""
    return [load(game_id).info() for game_id in game_ids()]


def replay(record: Record | dict[str, Any]) -> State:
    """Rebuild a game from its record; raises if any recorded action is not legal."""
    if isinstance(record, dict):
        record = Record.from_json(record)
    state = load(record.game).new(record.players, record.seed, **record.options)
    for seat, text in record.actions:
        state.apply(seat, text)
    return state
