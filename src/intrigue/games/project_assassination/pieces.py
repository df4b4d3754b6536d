"""The small shared pieces of a game in progress: weapons, enemies, phases and markers."""

from __future__ import annotations

from typing import Any, NamedTuple

NOBODY = -1
FOREVER = 2  # caged_by value of a permanent cage (PA-16, option cage=permanent)
TURN, CHOICE, PLACEMENT, OVER = "turn", "choice", "placement", "over"


def payload(**data: Any) -> dict[str, Any]:
    """An event payload with fresh lists: log entries keep tuples, readers get lists."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}


class Weapon(NamedTuple):
    kind: str
    sight: bool = False
    muzzle: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "sight": self.sight, "muzzle": self.muzzle}


class Enemy(NamedTuple):
    kind: str
    hp: int
    paralysed_by: int = NOBODY  # seat whose next turn ends the paralysis
    caged_by: int = NOBODY  # seat whose next turn ends the cage (FOREVER: permanent)


PISTOL = Weapon("pistol")
