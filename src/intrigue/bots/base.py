"""The bot protocol and the registry of bots by name.

A bot plays one seat from that seat's view alone: it is never handed the `State`, so it cannot
peek at anything the seat may not know. All of its randomness comes from the ``rng`` it is
given, which makes a game with bots reproducible from the seeds.

Search bots (ISMCTS) also accept a keyword argument ``sampler``: a function ``rng -> State``
returning determinizations for their seat (``State.determinize``), so even search never looks at
the true state. `intrigue.bots.match.bot_move` is the one place that hands bots their inputs.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from intrigue.engine import Action, Rng

RandomSource = Rng | random.Random


@runtime_checkable
class Bot(Protocol):
    """Anything that picks one of the legal actions for a seat, given that seat's view."""

    name: str

    def choose(
        self, view: dict[str, Any], legal_actions: list[Action], rng: RandomSource
    ) -> Action:
        """One of ``legal_actions`` (never empty), chosen from ``view`` and ``rng`` only."""
        ...


class UnknownBot(ValueError):
    """No bot is registered under this name."""


BotFactory = Callable[[], Bot]

# name -> factory, or "module:attribute" imported on first use (search bots are heavy).
_FACTORIES: dict[str, BotFactory | str] = {
    "random": "intrigue.bots.random_bot:RandomBot",
    "heuristic": "intrigue.bots.heuristic:HeuristicBot",
    "ismcts": "intrigue.bots.ismcts:ISMCTSBot",
    # hard's search with an evaluation trained by self-play (bench/train_expert.py).
    "expert": "intrigue.bots.expert:ExpertBot",
    # Restricted play for the balance lab: another bot that never (or always) takes a kind.
    "restricted": "intrigue.bots.restricted:RestrictedBot",
}
# Strength levels offered to players: easy, medium, hard (and expert, registered by name).
_ALIASES: dict[str, str] = {"easy": "random", "medium": "heuristic", "hard": "ismcts"}


def register_bot(name: str, factory: BotFactory | str, *, aliases: tuple[str, ...] = ()) -> None:
    """Make ``make_bot(name)`` (and each alias) build a bot with ``factory``."""
    _FACTORIES[name] = factory
    for alias in aliases:
        _ALIASES[alias] = name


def bot_names() -> list[str]:
    """Every name `make_bot` accepts, aliases included."""
    return sorted({*_FACTORIES, *_ALIASES})


def make_bot(name: str) -> Bot:
    """A new bot of the kind registered as ``name`` (case-insensitive).

    Settings may follow the name: ``"ismcts:iterations=100:exploration=0.5"``.
    """
    key, *settings = name.strip().lower().split(":")
    key = _ALIASES.get(key, key)
    factory = _FACTORIES.get(key)
    if factory is None:
        raise UnknownBot(f"no bot {name!r}; known bots: {', '.join(bot_names())}")
    if isinstance(factory, str):
        module_name, _, attribute = factory.partition(":")
        factory = getattr(importlib.import_module(module_name), attribute)
        _FACTORIES[key] = factory
    kwargs = dict(_setting(name, item) for item in settings)
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as exc:
        raise UnknownBot(f"bad settings for bot {key!r} in {name!r}: {exc}") from None


def _setting(name: str, item: str) -> tuple[str, int | float | str]:
    field, sep, text = item.partition("=")
    if not sep or not field.isidentifier():
        raise UnknownBot(f"bot settings take key=value, not {item!r} (in {name!r})")
    value: int | float | str = text
    for kind in (int, float):
        try:
            value = kind(text)
            break
        except ValueError:
            continue
    return field, value
