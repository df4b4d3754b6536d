"""Small statistics for win rates: proportions with Wilson score intervals."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (0, 1 when there are no trials)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - margin), min(1.0, centre + margin))


@dataclass
class Tally:
    """Wins (a draw counts half) out of games, for one bot, seat or role."""

    wins: float = 0.0
    games: int = 0

    def add(self, result: float) -> None:
        self.wins += result
        self.games += 1

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_json(self) -> dict[str, float | int | list[float]]:
        low, high = self.interval
        return {"wins": self.wins, "games": self.games, "rate": self.rate, "ci95": [low, high]}
