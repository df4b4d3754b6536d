"""The balance lab's statistics against values worked out by hand or published."""

import math

import pytest

from intrigue.lab.skill import bot_strength, skill_report
from intrigue.lab.stats import (
    Tally,
    compare_tallies,
    fisher_exact,
    normal_two_sided_p,
    one_proportion_z_test,
    summarize,
    two_proportion_z_test,
    welch_z_test,
    wilson_interval,
)


def test_normal_tail_matches_the_familiar_critical_values():
    assert normal_two_sided_p(1.959963984540054) == pytest.approx(0.05)
    assert normal_two_sided_p(-2.575829303549) == pytest.approx(0.01)
    assert normal_two_sided_p(0) == 1.0


def test_two_proportion_z_test_matches_the_pearson_chi_square_of_the_table():
    # 60/100 against 50/100: pooled 0.55, standard error sqrt(.55 * .45 * 2/100) = 0.070356,
    # z = 1.4213; z squared is Pearson's chi-square 2.0202 of [[60, 40], [50, 50]], p = 0.1552.
    z, p = two_proportion_z_test(60, 100, 50, 100)
    assert z == pytest.approx(1.4213, abs=1e-4)
    assert z * z == pytest.approx(2.0202, abs=1e-4)
    assert p == pytest.approx(0.1552, abs=1e-4)
    # Symmetric, and no variance means no evidence of a difference.
    assert two_proportion_z_test(50, 100, 60, 100) == pytest.approx((-z, p))
    assert two_proportion_z_test(10, 10, 20, 20) == (0.0, 1.0)
    assert two_proportion_z_test(0, 0, 3, 5) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("table", "p"),
    [
        ((3, 1, 1, 3), 0.4857),  # Fisher's lady tasting tea, two-sided
        ((1, 9, 11, 3), 0.002759),  # the textbook example (Wikipedia: Fisher's exact test)
        ((0, 10, 10, 0), 2 / math.comb(20, 10)),  # the two most extreme tables
        ((5, 5, 5, 5), 1.0),
    ],
)
def test_fisher_exact_matches_published_p_values(table, p):
    assert fisher_exact(*table) == pytest.approx(p, rel=1e-3)


def test_one_proportion_test_and_welch_test_by_hand():
    # 60 of 100 against a fair 0.5: z = 0.1 / sqrt(.25 / 100) = 2, p = 0.0455.
    z, p = one_proportion_z_test(60, 100, 0.5)
    assert (z, p) == pytest.approx((2.0, 0.0455), abs=1e-4)
    # Means 10 and 9, sd 2 and 3, n 50 and 40: z = 1 / sqrt(4/50 + 9/40) = 1.8107.
    z, p = welch_z_test(10, 2, 50, 9, 3, 40)
    assert z == pytest.approx(1.8107, abs=1e-4)
    assert p == pytest.approx(normal_two_sided_p(1.8107), abs=1e-4)
    assert welch_z_test(10, 2, 1, 9, 3, 40) == (0.0, 1.0)
    # Fixed-length games: no variance, so any difference is certain.
    assert welch_z_test(17, 0, 50, 11, 0, 50) == (math.inf, 0.0)
    assert welch_z_test(11, 0, 50, 11, 0, 50) == (0.0, 1.0)


def test_summary_of_lengths_uses_inclusive_quartiles():
    s = summarize([1, 2, 3, 4, 5, 6, 7, 8])
    assert (s["count"], s["mean"], s["median"]) == (8, 4.5, 4.5)
    assert (s["q1"], s["q3"], s["iqr"], s["min"], s["max"]) == (2.75, 6.25, 3.5, 1.0, 8.0)
    assert s["stdev"] == pytest.approx(math.sqrt(6))
    assert summarize([])["mean"] is None
    assert summarize([7])["iqr"] == 0


def test_wilson_bounds_are_exact_at_the_extremes():
    assert wilson_interval(0, 7)[0] == 0.0
    assert wilson_interval(7, 7)[1] == 1.0


def test_compare_tallies_gives_the_difference_and_both_tests():
    before, after = Tally(50, 100), Tally(60, 100)
    result = compare_tallies(before, after)
    assert result["delta"] == pytest.approx(0.1)
    assert result["p_value"] == pytest.approx(0.1552, abs=1e-4)
    low, high = result["ci95"]
    # Wald: 0.1 +- 1.96 * sqrt(.25/100 + .24/100) = 0.1 +- 0.1372
    assert (low, high) == pytest.approx((0.1 - 0.1372, 0.1 + 0.1372), abs=1e-4)
    assert 0.1 < result["fisher_p"] < 0.3
    # Half wins (draws) have no exact test.
    assert compare_tallies(Tally(2.5, 5), Tally(3, 5))["fisher_p"] is None


def test_bot_strength_orders_kinds_then_search_budget():
    assert bot_strength("random") < bot_strength("heuristic") < bot_strength("ismcts")
    assert bot_strength("ismcts:iterations=50") < bot_strength("hard")
    assert bot_strength("my-bot") is None


def test_skill_report_compares_each_bot_with_the_next_weaker():
    by_bot = {"random": Tally(20, 100), "ismcts:iterations=9": Tally(70, 100)}
    by_bot["heuristic"] = Tally(50, 100)
    skill = skill_report(by_bot)
    assert skill["order"] == ["random", "heuristic", "ismcts:iterations=9"]
    assert [g["delta"] for g in skill["pairs"]] == pytest.approx([0.3, 0.2])
    assert skill["trace"] == pytest.approx(0.5)
    assert skill_report({"random": Tally(1, 2)}) is None
