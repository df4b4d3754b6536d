"""The heuristic bot: each game's own rule-of-thumb policy, working from the seat's view."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from intrigue.engine import Action

from .base import RandomSource
from .heuristics import HEURISTICS

Policy = Callable[[dict[str, Any], list[Action], RandomSource], Action]
_policies: dict[str, Policy] = {}


def policy_for(game_id: str) -> Policy | None:
    """The heuristic policy written for ``game_id``, if there is one."""
    if game_id not in _policies:
        target = HEURISTICS.get(game_id)
        if target is None:
            return None
        module_name, _, attribute = target.partition(":")
        _policies[game_id] = getattr(importlib.import_module(module_name), attribute)
    return _policies[game_id]


class HeuristicBot:
    """Plays the game's heuristic policy; a game without one gets uniform random moves."""

    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[Action], rng: RandomSource
    ) -> Action:
        if not legal_actions:
            raise ValueError("a bot needs at least one legal action to choose from")
        policy = policy_for(view["game"])
        if policy is None:
            return legal_actions[rng.randrange(len(legal_actions))]
        return policy(view, legal_actions, rng)

    def __repr__(self) -> str:
        return "HeuristicBot()"
