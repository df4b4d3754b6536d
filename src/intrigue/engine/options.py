"""Game options: declared once per game, validated and coerced in one place."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import InvalidOption


@dataclass(frozen=True)
class Option:
    """One option a game accepts in ``Game.new(**options)``.

    ``kind`` is ``int``, ``str``, ``bool`` or ``list`` (a list of strings; from text it is read
    comma-separated). ``choices`` limits the allowed values (for lists: of each element).
    ``check`` may raise `InvalidOption` for constraints the type cannot express.

    ``fixes`` declares an option that fixes what chance would otherwise decide (a deal, the
    roles, the top of a deck, who plays first): in people's words, what it fixes ("the roles").
    Set, it lets whoever creates a table rig hidden information, so the server marks such a
    table as a *custom deal* for every seat, never carries it into a rematch, and accepts it
    only when asked for explicitly. Every option whose default leaves a choice to chance must
    declare it (checked for every registered game by the conformance tests); rule variants
    leave it None.
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    check: Callable[[Any], None] | None = None
    fixes: str | None = None

    def coerce(self, value: Any) -> Any:
        """Turn a value (possibly text from a command line or a form) into a valid option value."""
        if value is None:
            return None
        try:
            value = self._convert(value)
        except (TypeError, ValueError) as exc:
            raise InvalidOption(f"option {self.name}: {exc}") from None
        self._check_range(value)
        if self.check is not None:
            self.check(value)
        return value

    def _convert(self, value: Any) -> Any:
        if self.kind is bool:
            if isinstance(value, str):
                lowered = value.strip().lower()
                if lowered not in {"1", "0", "true", "false", "yes", "no", "on", "off"}:
                    raise ValueError(f"{value!r} is not a yes/no value")
                return lowered in {"1", "true", "yes", "on"}
            if not isinstance(value, bool):
                raise TypeError(f"expected true/false, got {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise TypeError(f"expected an integer, got {value!r}")
            return int(value)
        if self.kind is list:
            if isinstance(value, str):
                return [part.strip() for part in value.split(",") if part.strip()]
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"expected a list, got {value!r}")
            return [str(v) if not isinstance(v, str) else v for v in value]
        if not isinstance(value, str):
            raise TypeError(f"expected text, got {value!r}")
        return value

    def _check_range(self, value: Any) -> None:
        items = value if isinstance(value, list) else [value]
        if self.choices is not None:
            for item in items:
                if item not in self.choices:
                    allowed = ", ".join(map(str, self.choices))
                    raise InvalidOption(f"option {self.name}: {item!r} is not one of {allowed}")
        if self.minimum is not None and isinstance(value, int) and value < self.minimum:
            raise InvalidOption(f"option {self.name}: must be at least {self.minimum}")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.kind.__name__,
            "default": self.default,
            "help": self.help,
            "choices": None if self.choices is None else list(self.choices),
            "fixes": self.fixes,
        }


MAX_TURNS = Option(
    "max_turns",
    int,
    None,
    "Cut the game off after this many turns (rounds/nights, player turns or seasons, as the "
    "game documents); unset means unlimited.",
    minimum=1,
)


def resolve_options(declared: tuple[Option, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Fill defaults, reject unknown names and coerce every value.

    A value of None means unset: the default (a JSON ``null`` must not reach the rules).
    """
    by_name = {opt.name: opt for opt in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise InvalidOption(f"unknown option(s) {', '.join(unknown)}; known options: {known}")
    return {
        name: opt.default if given.get(name) is None else opt.coerce(given[name])
        for name, opt in by_name.items()
    }


def fixed_chance(declared: tuple[Option, ...], options: Mapping[str, Any]) -> list[str]:
    """What the set ``options`` fix that chance would decide, in people's words (declaration
    order); empty for a fair deal. Unset (None) values fix nothing."""
    return [
        opt.fixes for opt in declared if opt.fixes is not None and options.get(opt.name) is not None
    ]


def without_fixed_chance(
    declared: tuple[Option, ...], options: Mapping[str, Any]
) -> dict[str, Any]:
    """``options`` with every option that fixes chance unset (None: chance decides again), as
    for a rematch: the same rules, a fair deal."""
    fixing = {opt.name for opt in declared if opt.fixes is not None}
    return {name: None if name in fixing else value for name, value in options.items()}
