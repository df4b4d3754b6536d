"""Win-rate statistics checked against published values."""

import pytest

from intrigue.lab.stats import Tally, wilson_interval


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (8, 10, 0.4902, 0.9433),  # textbook Wilson interval, z = 1.96
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_matches_known_values(wins, games, low, high):
    got = wilson_interval(wins, games)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_no_games_means_no_knowledge():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_tally_counts_draws_as_half():
    tally = Tally()
    for result in (1.0, 0.0, 0.5, 1.0):
        tally.add(result)
    assert (tally.wins, tally.games, tally.rate) == (2.5, 4, 0.625)
    assert tally.to_json()["ci95"] == list(wilson_interval(2.5, 4))
