"""Replay records: a game, its seed and options, and the ordered (seat, action) list."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Record:
    """Everything needed to rebuild a game exactly with ``intrigue.replay``."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[int, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": copy.deepcopy(self.options),
            "actions": [[seat, text] for seat, text in self.actions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Record:
        return cls(
            str(data["game"]),
            int(data["players"]),
            int(data["seed"]),
            dict(data.get("options") or {}),
            [(int(seat), str(text)) for seat, text in data.get("actions", [])],
        )

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    @classmethod
    def loads(cls, text: str) -> Record:
        return cls.from_json(json.loads(text))
