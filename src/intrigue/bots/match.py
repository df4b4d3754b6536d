"""Playing whole games between bots, each seeing only its own seat."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from intrigue.engine import Action, Rng, State, load

from .base import Bot


def wants_sampler(bot: Bot) -> bool:
    """Whether the bot's ``choose`` takes determinizations (search bots do)."""
    try:
        return "sampler" in inspect.signature(bot.choose).parameters
    except (TypeError, ValueError):
        return False


def bot_move(bot: Bot, state: State, seat: int, rng: Rng) -> Action:
    """Ask ``bot`` for ``seat``'s move: it gets the seat's view, legal actions and rng — and,
    if it searches, a sampler of determinizations for that seat, never the state itself."""
    view = state.view(seat)
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
