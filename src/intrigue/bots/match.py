"""Playing whole games between bots, each seeing only its own seat."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from typing import Any

from intrigue.engine import Action, Rng, State, load

from .base import Bot


def wants_sampler(bot: Bot) -> bool:
    """Whether the bot's ``choose`` takes determinizations (search bots do)."""
    if "choose" in getattr(bot, "__dict__", {}):
        return _takes_sampler(bot.choose)
    # Asked before every move: inspecting a signature costs more than a heuristic's decision.
    return _class_takes_sampler(type(bot))


@functools.cache
def _class_takes_sampler(kind: type) -> bool:
    return _takes_sampler(kind.choose)


def _takes_sampler(choose: Any) -> bool:
    try:
        return "sampler" in inspect.signature(choose).parameters
    except (TypeError, ValueError):
        return False


def bot_move(
    bot: Bot,
    state: State,
    seat: int,
    rng: Rng,
    *,
    view: dict[str, Any] | None = None,
    legal: list[Action] | None = None,
) -> Action:
    """Ask ``bot`` for ``seat``'s move: it gets the seat's view, legal actions and rng — and,
    if it searches, a sampler of determinizations for that seat, never the state itself.
    A caller that has just built ``view`` and ``legal`` for this position may hand them in."""
    if view is None:
        view = state.view(seat)
    if legal is None:
        legal = state.legal_actions(seat)
    if wants_sampler(bot):
        return bot.choose(view, legal, rng, sampler=lambda r: state.determinize(seat, r))  # type: ignore[call-arg]
    return bot.choose(view, legal, rng)


def play_match(
    game_id: str,
    bots: Sequence[Bot],
    seed: int,
    players: int | None = None,
    options: dict[str, Any] | None = None,
) -> State:
    """Play one game to the end with ``bots[seat]`` on each seat; seeded, so reproducible."""
    state = load(game_id).new(
        players if players is not None else len(bots), seed, **(options or {})
    )
    rng = Rng(seed ^ 0x5EED_B075)
    while not state.is_over:
        for seat in state.to_move:
            if state.is_over or seat not in state.to_move:
                continue
            state.apply(seat, bot_move(bots[seat], state, seat, rng))
    return state
