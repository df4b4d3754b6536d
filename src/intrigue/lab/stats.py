"""Small statistics for win rates: Wilson intervals, significance tests, length summaries."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (0, 1 when there are no trials)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all successes the bound is exactly 0 or 1; rounding would leave 1e-17 or so.
    low = 0.0 if successes <= 0 else max(0.0, centre - margin)
    high = 1.0 if successes >= trials else min(1.0, centre + margin)
    return (low, high)


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


# -- significance tests and summaries (the balance lab) -----------------------------------------
def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def two_proportion_z_test(
    successes1: float, trials1: int, successes2: float, trials2: int
) -> tuple[float, float]:
    """Pooled two-proportion z-test of p1 == p2: (z, two-sided p-value).

    With no variance at all (no trials, or both samples all wins or all losses) the rates
    cannot differ: z = 0, p = 1.
    """
    if trials1 == 0 or trials2 == 0:
        return (0.0, 1.0)
    pooled = (successes1 + successes2) / (trials1 + trials2)
    variance = pooled * (1 - pooled) * (1 / trials1 + 1 / trials2)
    if variance <= 0:
        return (0.0, 1.0)
    z = (successes1 / trials1 - successes2 / trials2) / math.sqrt(variance)
    return (z, normal_two_sided_p(z))


def one_proportion_z_test(successes: float, trials: int, expected: float) -> tuple[float, float]:
    """Score test of p == expected: (z, two-sided p-value); z = 0, p = 1 without trials."""
    if trials == 0 or not 0 < expected < 1:
        return (0.0, 1.0)
    z = (successes / trials - expected) / math.sqrt(expected * (1 - expected) / trials)
    return (z, normal_two_sided_p(z))


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(a: int, b: int, c: int, d: int) -> float:
    """Two-sided Fisher exact p-value of the 2x2 table [[a, b], [c, d]].

    Sums the probabilities of every table with the same margins that is no more likely than
    the observed one (the convention of R's ``fisher.test`` and SciPy).
    """
    row1, col1, total = a + b, a + c, a + b + c + d
    low, high = max(0, col1 - (total - row1)), min(row1, col1)
    denominator = _log_comb(total, col1)

    def log_p(x: int) -> float:
        return _log_comb(row1, x) + _log_comb(total - row1, col1 - x) - denominator

    observed = log_p(a)
    # A relative tolerance, as R and SciPy use, so tables tied with the observed one count.
    cutoff = observed + math.log1p(1e-7)
    p = sum(math.exp(log_p(x)) for x in range(low, high + 1) if log_p(x) <= cutoff)
    return min(1.0, p)


def welch_z_test(
    mean1: float, stdev1: float, count1: int, mean2: float, stdev2: float, count2: int
) -> tuple[float, float]:
    """Difference of two means with Welch's standard error and a normal approximation (fine
    for the hundreds of games a balance run plays): (z, two-sided p-value).

    z = 0, p = 1 when either sample has fewer than two values. Without any variance (a game of
    fixed length) different means are certainly different: z = +-inf, p = 0.
    """
    if count1 < 2 or count2 < 2:
        return (0.0, 1.0)
    error = stdev1**2 / count1 + stdev2**2 / count2
    if error <= 0:
        if mean1 == mean2:
            return (0.0, 1.0)
        return (math.copysign(math.inf, mean1 - mean2), 0.0)
    z = (mean1 - mean2) / math.sqrt(error)
    return (z, normal_two_sided_p(z))


def compare_tallies(before: Tally, after: Tally) -> dict[str, Any]:
    """after.rate - before.rate with a 95% interval (Wald), z-test and, for whole counts,
    Fisher's exact test."""
    delta = after.rate - before.rate
    error = _rate_error(before) ** 2 + _rate_error(after) ** 2
    margin = Z95 * error**0.5
    z, p = two_proportion_z_test(after.wins, after.games, before.wins, before.games)
    fisher = None
    if (
        float(before.wins).is_integer()
        and float(after.wins).is_integer()
        and before.games
        and after.games
    ):
        a, c = int(after.wins), int(before.wins)
        fisher = fisher_exact(a, after.games - a, c, before.games - c)
    return {
        "delta": delta,
        "ci95": [delta - margin, delta + margin],
        "z": z,
        "p_value": p,
        "fisher_p": fisher,
    }


def _rate_error(tally: Tally) -> float:
    if tally.games == 0:
        return 0.0
    return (tally.rate * (1 - tally.rate) / tally.games) ** 0.5


def summarize(values: list[float]) -> dict[str, float | int | None]:
    """Count, mean, median, standard deviation, quartiles (inclusive method), IQR, range."""
    if not values:
        keys = ("mean", "median", "stdev", "q1", "q3", "iqr", "min", "max")
        return {"count": 0, **dict.fromkeys(keys)}
    if len(values) == 1:
        q1 = q3 = float(values[0])
    else:
        q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return {
        "count": len(values),
        "mean": statistics.fmean(values),
        "median": float(statistics.median(values)),
        "stdev": statistics.stdev(values) if len(values) > 1 else 0.0,
        "q1": q1,
        "q3": q3,
        "iqr": q3 - q1,
        "min": float(min(values)),
        "max": float(max(values)),
    }
