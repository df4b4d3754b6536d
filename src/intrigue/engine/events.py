"""The game log: events tagged with who may see them."""

from __future__ import annotations

from typing import Any, NamedTuple


class Event(NamedTuple):
    """One entry of the game log.

    ``to`` is ``None`` for a public event, otherwise the seats that may see it. ``data`` holds
    JSON-serialisable values only; events are never mutated once logged.
    """

    kind: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **self.data}
        if self.to is not None:
            out["private"] = True
        return out
