"""Each seat's observation tensor for the PettingZoo and Gymnasium environments.

The game's fixed-size tensor of ``view(seat)``, encoded incrementally (only the parts of the
view that changed since the seat's last observation are encoded again), optionally followed
by the seat's `History` of decisions: with ``history=True`` the observation has perfect
recall, as OpenSpiel's ``infostate_history`` information-state tensor does (docs/interop.md).
"""

from __future__ import annotations

import numpy as np

from intrigue.engine import Game, State

from . import common
from .tensors import Canvas, History, encoder


class SeatTensors:
    """The observation tensors of every seat of one environment's games."""

    def __init__(
        self, game: Game, players: int, max_turns: int | None, max_decisions: int, history: bool
    ) -> None:
        self.encoder = encoder(game.id)
        self.history: History | None = None
        if history:
            if not max_turns:
                raise ValueError("history=True needs a finite max_turns (it bounds the rows)")
            rows = common.max_game_length(game, players, int(max_turns), max_decisions)
            self.history = History(game.action_table.ids, players, rows, self.encoder.public_action)
        self.size = self.encoder.size + (0 if self.history is None else self.history.size)
        self._canvases: list[Canvas] = [self.encoder.layout.canvas() for _ in range(players)]
        self._keys: list[tuple[State | None, int]] = [(None, -1)] * players

    def tensor(self, state: State, seat: int) -> np.ndarray:
        """A new array: ``seat``'s tensor of ``state`` (its view encoded once per position),
        then its History if asked for."""
        canvas, key = self._canvases[seat], (state, state.actions_played)
        if self._keys[seat] != key:
            self.encoder.update(canvas, state.shared_view(seat))
            self._keys[seat] = key
        if self.history is None:
            return canvas.data.copy()
        out = np.empty(self.size, np.float32)
        out[: self.encoder.size] = canvas.data
        record = out[self.encoder.size :].reshape(self.history.shape)
        self.history.encode_into(record, state.history, seat)
        return out

    def forget(self) -> None:
        """Drop the cached encodings (a new episode's state is a new object anyway)."""
        self._keys = [(None, -1)] * len(self._keys)
