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


# -- paired tests, omnibus tests and multiple comparisons ----------------------------------------
def binomial_two_sided_p(successes: int, trials: int) -> float:
    """Exact two-sided p-value of ``successes`` in ``trials`` under p = 1/2 (doubling the
    smaller tail, capped at 1): the exact McNemar test on the discordant pairs."""
    if trials == 0:
        return 1.0
    k = min(successes, trials - successes)
    log_half = trials * math.log(0.5)
    tail = sum(math.exp(_log_comb(trials, i) + log_half) for i in range(k + 1))
    return min(1.0, 2 * tail)


def sign_test(differences: list[float]) -> dict[str, Any]:
    """Exact sign test of paired differences (zeros dropped). With 0/1 outcomes it is the exact
    McNemar test: ``up`` pairs went 0 -> 1, ``down`` 1 -> 0, every other pair agreed."""
    up = sum(1 for d in differences if d > 0)
    down = sum(1 for d in differences if d < 0)
    return {"up": up, "down": down, "p_value": binomial_two_sided_p(up, up + down)}


def paired_summary(base: list[float], vs: list[float]) -> dict[str, Any]:
    """Mean of vs - base over the pairs with a 95% interval (normal approximation of the
    paired t-test) and the Wilcoxon signed-rank test's p-value."""
    diffs = [b - a for a, b in zip(base, vs, strict=True)]
    n = len(diffs)
    mean = statistics.fmean(diffs) if diffs else 0.0
    error = statistics.stdev(diffs) / math.sqrt(n) if n > 1 else 0.0
    # Without spread any mean difference is certain.
    p_t = normal_two_sided_p(mean / error) if error > 0 else float(mean == 0)
    return {
        "pairs": n,
        "mean_difference": mean,
        "ci95": [mean - Z95 * error, mean + Z95 * error],
        "p_value": p_t,
        "wilcoxon_p": wilcoxon_signed_rank_p(diffs),
    }


def wilcoxon_signed_rank_p(differences: list[float]) -> float:
    """Two-sided p-value of the Wilcoxon signed-rank test (zeros dropped, average ranks for
    ties, normal approximation with the tie correction; fine from about 20 pairs)."""
    nonzero = [d for d in differences if d != 0]
    n = len(nonzero)
    if n == 0:
        return 1.0
    order = sorted(range(n), key=lambda i: abs(nonzero[i]))
    ranks = [0.0] * n
    ties = 0.0
    i = 0
    while i < n:
        j = i
        while j + 1 < n and abs(nonzero[order[j + 1]]) == abs(nonzero[order[i]]):
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        size = j - i + 1
        ties += size**3 - size
        i = j + 1
    plus = sum(r for r, d in zip(ranks, nonzero, strict=True) if d > 0)
    mean = n * (n + 1) / 4
    variance = n * (n + 1) * (2 * n + 1) / 24 - ties / 48
    if variance <= 0:
        return 1.0
    return normal_two_sided_p((plus - mean) / math.sqrt(variance))


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom (regularised upper
    incomplete gamma function: a series below a + 1, a continued fraction above)."""
    a, x = df / 2, statistic / 2
    if df <= 0 or x <= 0:  # (a statistic of 1e-323 halves to 0)
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        n = 0
        while abs(term) > abs(total) * 1e-15 and n < 10_000:
            n += 1
            term *= x / (a + n)
            total += term
        return max(0.0, 1 - math.exp(log_front) * total)
    # Lentz's method for the continued fraction of Q(a, x).
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def homogeneity_test(tallies: list[Tally]) -> dict[str, Any] | None:
    """Pearson's chi-square test that every tally has the same win rate (the pooled rate, the
    fair share): the k x 2 table of wins and losses. None with fewer than two tallies or no
    variance. Seats of one game are not independent (one's win is another's loss): counting
    each as a sample overstates the evidence (by P/(P-1) with P seats and one winner), so the
    report's omnibus test is `fair_share_test`, with games as the units."""
    kept = [t for t in tallies if t.games > 0]
    games = sum(t.games for t in kept)
    if len(kept) < 2 or games == 0:
        return None
    pooled = sum(t.wins for t in kept) / games
    if not 0 < pooled < 1:
        return None
    statistic = sum(
        (t.wins - t.games * pooled) ** 2 / (t.games * pooled * (1 - pooled)) for t in kept
    )
    df = len(kept) - 1
    return {"chi2": statistic, "df": df, "p_value": chi_square_sf(statistic, df), "fair": pooled}


def holm(p_values: list[float | None]) -> list[float | None]:
    """Holm-Bonferroni adjusted p-values (None stays None): reject where adjusted < alpha, and
    the chance of any false finding in the whole table stays below alpha."""
    indexed = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(indexed)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(indexed):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = running
    return adjusted


def balance_index(rates: list[float]) -> float | None:
    """Ludii's *Balance*: 1 minus the largest gap between two win rates (1: all equal)."""
    if len(rates) < 2:
        return None
    return 1.0 - (max(rates) - min(rates))


def fair_share_test(games: list[dict[str, float]]) -> dict[str, Any] | None:
    """The omnibus test that every key (seat, role, team, faction) gets its fair share, taking
    *games* as the independent units: results of one game are tied (one seat's win is another's
    loss), so counting each seat-row as a sample misstates the evidence.

    ``games`` holds, per game, the result of every key present in it. A key's excess in a
    game is its result minus the game's fair share (the mean result of the keys present);
    with no advantage to any key each excess has mean zero. The statistic is the score test
    T' S^- T of the summed excesses T, with S the sum of every game's outer product of
    excesses (its generalized inverse: the excesses of a game sum to zero, so S is singular),
    chi-square with S's rank as degrees of freedom. With one winner per game and every key in
    every game it is close to Pearson's goodness-of-fit test of the win counts against the
    fair share (the two agree as the games grow when there is no advantage).
    None with fewer than two keys or no variation.
    """
    keys = sorted({key for game in games for key in game})
    if len(keys) < 2:
        return None
    index = {key: i for i, key in enumerate(keys)}
    size = len(keys)
    total = [0.0] * size
    scatter = [[0.0] * size for _ in range(size)]
    results = 0.0
    count = 0
    for game in games:
        if not game:
            continue
        fair = sum(game.values()) / len(game)
        excess = [(index[key], result - fair) for key, result in game.items()]
        for i, x in excess:
            total[i] += x
            for j, y in excess:
                scatter[i][j] += x * y
        results += sum(game.values())
        count += len(game)
    statistic, rank = quadratic_form_pinv(scatter, total)
    if rank == 0:
        return None
    return {
        "chi2": statistic,
        "df": rank,
        "p_value": chi_square_sf(statistic, rank),
        "fair": results / count if count else 0.0,
        "games": sum(1 for game in games if game),
        "units": "games",
    }


def quadratic_form_pinv(
    matrix: list[list[float]], vector: list[float], tolerance: float = 1e-9
) -> tuple[float, int]:
    """v' M^- v and the rank of M, for a symmetric positive semi-definite M and a v in its
    column space (where every generalized inverse gives the same value): Gaussian elimination
    pivoting on the largest remaining diagonal, stopping at pivots that vanish."""
    a = [row[:] for row in matrix]
    b = vector[:]
    active = set(range(len(b)))
    largest = max((a[i][i] for i in active), default=0.0)
    value = 0.0
    rank = 0
    while active:
        pivot = max(active, key=lambda i: a[i][i])
        d = a[pivot][pivot]
        if d <= tolerance * largest or d <= 0:
            break
        active.remove(pivot)
        value += b[pivot] ** 2 / d
        rank += 1
        for j in active:
            factor = a[j][pivot] / d
            if factor == 0:
                continue
            b[j] -= factor * b[pivot]
            for k in active:
                a[j][k] -= factor * a[pivot][k]
    return value, rank
