"""Actions: small immutable values with a canonical text form.

An action is a verb followed by zero or more arguments, written ``"verb arg arg"``
(``"target 3"``, ``"place c1"``, ``"swap c1 e3"``). Integer-looking arguments are integers.
``repr`` round-trips through ``eval`` and ``str`` round-trips through `Action.parse`.
Each game lists every action it can ever accept in a fixed table, which gives the stable integer
index that RL adapters need (`ActionTable`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from .errors import InvalidAction

Arg = int | str


_INTEGER = re.compile(r"-?[0-9]+")


def _parse_arg(token: str) -> Arg:
    return int(token) if _INTEGER.fullmatch(token) else token


class Action:
    """A verb and its arguments; immutable and hashable."""

    __slots__ = ("_hash", "_text", "args", "verb")
    verb: str
    args: tuple[Arg, ...]

    def __init__(self, verb: str, *args: Arg) -> None:
        if not isinstance(verb, str) or not verb.isidentifier():
            raise InvalidAction(f"bad action verb {verb!r}")
        # Canonical form is lowercase, so text typed in any case names the same action.
        verb = verb.lower()
        args = tuple(a.lower() if isinstance(a, str) else a for a in args)
        text = " ".join([verb, *map(str, args)])
        set_ = object.__setattr__
        set_(self, "verb", verb)
        set_(self, "args", args)
        set_(self, "_text", text)
        set_(self, "_hash", hash(text))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the canonical text form (case- and whitespace-insensitive)."""
        if not isinstance(text, str):
            raise InvalidAction(f"an action must be text, not {type(text).__name__}")
        tokens = text.lower().split()
        if not tokens:
            raise InvalidAction("empty action")
        return cls(tokens[0], *map(_parse_arg, tokens[1:]))

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read the JSON form: ``{"verb": ..., "args": [...]}`` or the text form as a string."""
        if isinstance(data, str):
            return cls.parse(data)
        if not isinstance(data, dict) or not isinstance(data.get("verb"), str):
            raise InvalidAction(f"not an action: {data!r}")
        args = data.get("args", [])
        if not isinstance(args, list) or not all(
            isinstance(a, (int, str)) and not isinstance(a, bool) for a in args
        ):
            raise InvalidAction(f"bad action arguments: {args!r}")
        return cls(data["verb"], *args)

    def to_json(self) -> dict[str, Any]:
        return {"verb": self.verb, "args": list(self.args)}

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("actions are immutable")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Action:
            return NotImplemented
        return self._text == other._text  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return "Action(" + ", ".join(repr(x) for x in (self.verb, *self.args)) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.verb, *self.args))


class ActionTable:
    """Every action a game can accept, in a fixed order: action <-> stable integer index."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self._actions = tuple(actions)
        self._index = {a: i for i, a in enumerate(self._actions)}
        if len(self._index) != len(self._actions):
            raise ValueError("duplicate actions in an action table")
        self._names: dict[str, Action] | None = None  # canonical text -> action (`named`)

    @property
    def ids(self) -> dict[Action, int]:
        """The action -> index mapping itself (read-only by convention; for hot loops)."""
        return self._index

    def __len__(self) -> int:
        return len(self._actions)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._actions)

    def __contains__(self, action: object) -> bool:
        return action in self._index

    def index(self, action: Action) -> int:
        try:
            return self._index[action]
        except KeyError:
            raise InvalidAction(f"{str(action)!r} is not an action of this game") from None

    def action(self, index: int) -> Action:
        if not isinstance(index, int) or not 0 <= index < len(self._actions):
            raise InvalidAction(f"action index {index!r} out of range 0..{len(self._actions) - 1}")
        return self._actions[index]

    def named(self, text: str) -> Action | None:
        """The action whose canonical text is exactly ``text``, or None: the quick way for
        the texts a server sent as legal moves, which clients send back as they are."""
        names = self._names
        if names is None:
            names = self._names = {str(action): action for action in self._actions}
        return names.get(text)

    def canonical(self, action: Action) -> Action:
        """The table's own instance of an equal action (so games can compare by identity)."""
        return self._actions[self.index(action)]
