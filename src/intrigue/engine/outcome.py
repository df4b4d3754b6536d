"""How a game ended: who won, the return of every seat, and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``returns`` has one number per seat (1 for a win, -1 for a loss, 0 for everyone in a draw,
    unless a game documents otherwise; in a draw among some seats, `draw_among`, a seat already
    out of the game has -1). ``capped`` is true when the game was cut off by its
    ``max_turns`` option rather than ending by its own rules, so reports can count such games
    separately. ``scores`` holds optional per-seat tie-break scores.
    """

    winners: tuple[int, ...]
    returns: tuple[float, ...]
    reason: str
    capped: bool = False
    scores: tuple[float, ...] | None = field(default=None)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @classmethod
    def win_loss(
        cls,
        players: int,
        winners: set[int] | tuple[int, ...],
        reason: str,
        *,
        capped: bool = False,
        scores: tuple[float, ...] | None = None,
    ) -> Outcome:
        """Winners get 1, everyone else -1; no winners at all is a draw with 0 for everyone."""
        won = tuple(sorted(winners))
        if won:
            returns = tuple(1.0 if s in won else -1.0 for s in range(players))
        else:
            returns = (0.0,) * players
        return cls(won, returns, reason, capped, scores)

    @classmethod
    def draw_among(
        cls,
        players: int,
        drawn: set[int] | tuple[int, ...],
        reason: str,
        *,
        capped: bool = False,
        scores: tuple[float, ...] | None = None,
    ) -> Outcome:
        """A draw among the seats ``drawn`` (0 each); the others, out of the game before it
        ended, lost (-1). Nobody won, so it `is_draw`."""
        returns = tuple(0.0 if s in drawn else -1.0 for s in range(players))
        return cls((), returns, reason, capped, scores)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "returns": list(self.returns),
            "reason": self.reason,
            "capped": self.capped,
            "scores": None if self.scores is None else list(self.scores),
        }
