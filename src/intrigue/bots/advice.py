"""Advice for a person learning a game: the move the medium (heuristic) bot would play for a
seat, and, where the game's heuristic can say it in words, why.

Like every bot, advice is given the seat's view and legal moves only, never the state, so a
hint can tell nothing the seat does not know. Its generator is seeded with a constant (not the
game's seed, not a table's): the same view always gets the same hint, which is what a player
who looks again expects, and what lets a test recompute it.

A game's heuristic module may define ``explain(view, legal, action) -> str | None``: the reason
for ``action`` (the move its ``choose`` picked) in a short phrase for people, or None when it
has no clear one; the hint then names the move only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from intrigue.engine import Action, Rng

from .heuristic import HeuristicBot, explainer_for

ADVICE_SEED = 0x1EA2_4817  # any constant: a hint is a function of the view alone


@dataclass(frozen=True)
class Advice:
    """The move to suggest and its reason (None: the heuristic gives none in words)."""

    action: Action
    reason: str | None = None


def advise(view: dict[str, Any], legal: list[Action]) -> Advice:
    """What the heuristic bot plays from ``view`` among ``legal`` (never empty), and why."""
    action = HeuristicBot().choose(view, legal, Rng(ADVICE_SEED))
    explain = explainer_for(view["game"])
    reason = None
    if explain is not None:
        try:
            reason = explain(view, legal, action)
        except Exception:  # a reason is a nicety: a failing one must not cost the hint
            reason = None
    return Advice(action, reason or None)
