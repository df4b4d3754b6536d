"""The simplest opponent: a uniformly random legal move."""

from __future__ import annotations

from typing import Any

from intrigue.engine import Action

from .base import RandomSource


class RandomBot:
    """Picks uniformly among the legal actions, using only the generator it is given."""

    name = "random"

    def choose(
        self, view: dict[str, Any], legal_actions: list[Action], rng: RandomSource
    ) -> Action:
        if not legal_actions:
            raise ValueError("a bot needs at least one legal action to choose from")
        return legal_actions[rng.randrange(len(legal_actions))]

    def __repr__(self) -> str:
        return "RandomBot()"
