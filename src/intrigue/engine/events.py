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
        """A fresh JSON dict: callers may change it without touching the log."""
        out: dict[str, Any] = {"kind": self.kind}
        out.update((key, _fresh(value)) for key, value in self.data.items())
        if self.to is not None:
            out["private"] = True
        return out


def shared_json(kind: str, data: dict[str, Any], to: tuple[int, ...] | None) -> dict[str, Any]:
    """`Event.to_json` without the copy: the nested values are the log's own (read only)."""
    out = {"kind": kind, **data}
    if to is not None:
        out["private"] = True
    return out


def _fresh(value: Any) -> Any:
    """A copy of nested lists and dicts (the leaves are immutable JSON scalars)."""
    if isinstance(value, list | tuple):
        return [_fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    return value
