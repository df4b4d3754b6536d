"""The lab's paired and omnibus tests against hand-worked values and SciPy's implementations."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intrigue.lab.stats import (
    Tally,
    balance_index,
    binomial_two_sided_p,
    chi_square_sf,
    holm,
    homogeneity_test,
    paired_summary,
    sign_test,
    wilcoxon_signed_rank_p,
)

scipy_stats = pytest.importorskip("scipy.stats")


def test_exact_mcnemar_by_hand():
    # 2 pairs went one way and 10 the other: P(X <= 2 | n=12, 1/2) doubled.
    tail = sum(math.comb(12, k) for k in range(3)) / 2**12
    assert binomial_two_sided_p(2, 12) == pytest.approx(2 * tail)
    assert binomial_two_sided_p(6, 12) == 1.0
    assert binomial_two_sided_p(0, 0) == 1.0
    # Agreeing pairs (difference 0) carry no evidence and are dropped.
    found = sign_test([0, 0, 1, 1, 1, -1, 0.5, 0])
    assert (found["up"], found["down"]) == (4, 1)
    assert found["p_value"] == pytest.approx(binomial_two_sided_p(4, 5))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 400), st.integers(0, 400))
def test_binomial_test_matches_scipy(k, extra):
    n = k + extra
    if n == 0:
        return
    expected = scipy_stats.binomtest(k, n, 0.5).pvalue
    assert binomial_two_sided_p(k, n) == pytest.approx(expected, rel=1e-9, abs=1e-300)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-6, 6), min_size=12, max_size=80))
def test_wilcoxon_matches_scipy(differences):
    if not any(differences) or len(set(map(abs, filter(None, differences)))) < 2:
        return  # SciPy's normal approximation is undefined without spread
    expected = scipy_stats.wilcoxon(
        differences, zero_method="wilcox", correction=False, method="approx"
    ).pvalue
    assert wilcoxon_signed_rank_p([float(d) for d in differences]) == pytest.approx(expected)


@settings(max_examples=60, deadline=None)
@given(st.floats(0.0, 200.0), st.integers(1, 40))
def test_chi_square_tail_matches_scipy(statistic, df):
    expected = scipy_stats.chi2.sf(statistic, df)
    assert chi_square_sf(statistic, df) == pytest.approx(expected, rel=1e-8, abs=1e-14)


def test_homogeneity_test_is_pearsons_chi_square_of_the_win_loss_table():
    # The example, at the scale of a run: Date wins 50.3% of 500 three-player games,
    # the others about a third or less, one winner a game.
    wins = {"date": 150, "oda": 100, "takeda": 80, "tokugawa": 120}
    games = {"date": 298, "oda": 380, "takeda": 372, "tokugawa": 450}
    tallies = [Tally(wins[k], games[k]) for k in wins]
    found = homogeneity_test(tallies)
    table = [[wins[k], games[k] - wins[k]] for k in wins]
    chi2, p, df, _ = scipy_stats.chi2_contingency(table, correction=False)
    assert found["chi2"] == pytest.approx(chi2)
    assert found["df"] == df == 3
    assert found["p_value"] == pytest.approx(p)
    assert found["fair"] == pytest.approx(sum(wins.values()) / sum(games.values()))
    assert homogeneity_test([Tally(3, 10)]) is None
    assert homogeneity_test([Tally(0, 10), Tally(0, 5)]) is None


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.none(), st.floats(0.0, 1.0)), max_size=30))
def test_holm_adjustment(p_values):
    adjusted = holm(p_values)
    assert [a is None for a in adjusted] == [p is None for p in p_values]
    pairs = sorted((p, a) for p, a in zip(p_values, adjusted, strict=True) if p is not None)
    m = len(pairs)
    for p, a in pairs:
        assert p <= a + 1e-15 and a <= 1.0
        assert a <= min(1.0, m * p) + 1e-12
    # Larger raw p-values never get smaller adjusted ones.
    assert [a for _, a in pairs] == sorted(a for _, a in pairs)


def test_holm_by_hand():
    assert holm([0.01, 0.04, 0.03, None, 0.005]) == pytest.approx(
        [0.03, 0.06, 0.06, None, 0.02], abs=1e-12
    )


def test_paired_summary():
    base = [10.0, 12.0, 9.0, 14.0, 11.0]
    vs = [12.0, 12.0, 10.0, 17.0, 13.0]
    found = paired_summary(base, vs)
    diffs = [2, 0, 1, 3, 2]
    mean = sum(diffs) / 5
    error = (sum((d - mean) ** 2 for d in diffs) / 4) ** 0.5 / 5**0.5
    assert found["mean_difference"] == pytest.approx(mean)
    assert found["ci95"] == pytest.approx([mean - 1.959964 * error, mean + 1.959964 * error])
    assert paired_summary([1.0, 2.0], [1.0, 2.0])["p_value"] == 1.0
    assert paired_summary([1.0, 2.0], [2.0, 3.0])["p_value"] == 0.0  # no spread, sure shift


def test_balance_index_is_one_minus_the_widest_gap():
    assert balance_index([0.5, 0.5]) == 1.0
    assert balance_index([0.46, 0.54, 0.5]) == pytest.approx(0.92)
    assert balance_index([0.3]) is None
