"""Restricted play (Jaffe et al.): a bot that never takes one kind of action, or always
prefers it, and otherwise plays exactly like the bot it wraps.

Comparing such a bot's win rate with the unrestricted bot's shows what an action is worth:
if never using it costs nothing the action may be useless, and if always preferring it wins
more the action may dominate. ``kind`` names a verb (``shoot``) or an action's text and its
refinements (``draw jack``). The wrapped bot chooses among the legal actions left after the
restriction; when the restriction would leave none (every legal action is of that kind, or
none is), it chooses among all of them, so the game can always go on. A policy written for
whole menus may fail on a restricted one (it counts on a move the restriction took away): then
the restricted bot plays a uniformly random allowed move, from the same seeded generator.

By name: ``restricted:never=shoot``, ``restricted:prefer=cover``, ``restricted:base=random:
never=shoot``.
"""

from __future__ import annotations

from typing import Any

from intrigue.engine import Action

from .base import Bot, RandomSource, make_bot

MODES = ("never", "prefer")


def matches(action: Action, kind: str) -> bool:
    """Whether ``action`` is of ``kind``: its verb, or its text or a refinement of it."""
    text = str(action)
    return action.verb == kind or text == kind or text.startswith(kind + " ")


class RestrictedBot:
    """``base`` with one action kind forbidden (``never``) or preferred (``prefer``)."""

    def __init__(self, base: str = "heuristic", never: str = "", prefer: str = "") -> None:
        never, prefer = str(never).strip().lower(), str(prefer).strip().lower()
        if bool(never) == bool(prefer):
            raise ValueError("say which kind of action to avoid (never=...) or prefer (prefer=...)")
        if base.split(":")[0] == "restricted":
            raise ValueError("a restricted bot wraps an unrestricted one")
        self.base_name = base
        self.mode = "never" if never else "prefer"
        self.kind = never or prefer
        self.base: Bot = make_bot(base)
        self.name = f"restricted:{self.mode}={self.kind}"
        # Decisions where the wrapped bot could not choose among the allowed moves.
        self.fallbacks = 0

    def allowed(self, legal_actions: list[Action]) -> list[Action]:
        """The legal actions the restriction leaves (all of them if it would leave none)."""
        if self.mode == "never":
            kept = [a for a in legal_actions if not matches(a, self.kind)]
        else:
            kept = [a for a in legal_actions if matches(a, self.kind)]
        return kept or legal_actions

    def choose(
        self, view: dict[str, Any], legal_actions: list[Action], rng: RandomSource
    ) -> Action:
        allowed = self.allowed(legal_actions)
        if len(allowed) == len(legal_actions):
            return self.base.choose(view, legal_actions, rng)
        try:
            chosen = self.base.choose(view, allowed, rng)
        except Exception:
            # A policy written for whole menus may count on a move the restriction took
            # away (an "end" to fall back on): then any allowed move will do.
            chosen = None
        if chosen not in allowed:
            self.fallbacks += 1
            return allowed[rng.randrange(len(allowed))]
        return chosen

    def parameters(self) -> dict[str, str]:
        """What the bot is, for fingerprints and reports."""
        return {"base": self.base_name, self.mode: self.kind}

    def __repr__(self) -> str:
        return f"RestrictedBot(base={self.base_name!r}, {self.mode}={self.kind!r})"
