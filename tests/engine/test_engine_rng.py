"""The engine's SplitMix64 generator: reference output, determinism, copies and bounds."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from intrigue.engine import Rng

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        # Published SplitMix64 reference outputs (Vigna's splitmix64.c).
        (0, [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]),
        (1234567, [6457827717110365317, 3203168211198807973, 9817491932198370423]),
    ],
)
def test_output_matches_the_splitmix64_reference(seed, expected) -> None:
    rng = Rng(seed)
    assert [rng.next64() for _ in expected] == expected


@given(SEEDS)
def test_same_seed_same_sequence(seed) -> None:
    first, second = Rng(seed), Rng(seed)
    assert [first.next64() for _ in range(20)] == [second.next64() for _ in range(20)]


def _draws(seed: int, count: int = 8) -> tuple[int, ...]:
    rng = Rng(seed)
    return tuple(rng.randrange(1000) for _ in range(count))


def test_different_seeds_give_different_sequences() -> None:
    assert len({_draws(seed) for seed in range(50)}) == 50


def test_seed_is_taken_modulo_two_to_the_64() -> None:
    assert Rng(2**64 + 5).next64() == Rng(5).next64()
    assert Rng(-1).state == 2**64 - 1


@given(SEEDS, st.integers(min_value=0, max_value=30))
def test_copy_is_independent_and_continues_identically(seed, advance) -> None:
    rng = Rng(seed)
    for _ in range(advance):
        rng.next64()
    twin = rng.copy()
    assert twin is not rng
    ahead = [twin.next64() for _ in range(10)]
    assert [rng.next64() for _ in range(10)] == ahead  # twin's draws did not move rng
    assert twin.state == rng.state


def test_fork_is_deterministic_and_independent() -> None:
    parent_a, parent_b = Rng(99), Rng(99)
    child_a, child_b = parent_a.fork(), parent_b.fork()
    assert [child_a.next64() for _ in range(5)] == [child_b.next64() for _ in range(5)]
    assert parent_a.state == parent_b.state
    assert child_a.state != parent_a.state


@given(SEEDS, st.integers(min_value=1, max_value=2**64 - 1))
def test_randrange_stays_in_bounds(seed, n) -> None:
    rng = Rng(seed)
    for _ in range(20):
        assert 0 <= rng.randrange(n) < n


@pytest.mark.parametrize("n", [2**64, 2**70])
def test_randrange_accepts_bounds_beyond_64_bits(n) -> None:
    assert 0 <= Rng(1).randrange(n) < n


def test_randrange_of_one_is_zero() -> None:
    rng = Rng(3)
    assert {rng.randrange(1) for _ in range(100)} == {0}


@pytest.mark.parametrize("n", [0, -1])
def test_randrange_needs_a_positive_bound(n) -> None:
    with pytest.raises(ValueError, match="positive"):
        Rng(1).randrange(n)


@pytest.mark.parametrize("n", [2, 3, 6, 10])
def test_randrange_is_roughly_uniform(n) -> None:
    rng = Rng(20240601)
    draws = 6000 * n
    counts = Counter(rng.randrange(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    # Each count is ~Binomial(draws, 1/n), std < 80: a 10% band is more than 7 sigma wide.
    for value in range(n):
        assert abs(counts[value] - 6000) < 600, (value, counts)


def test_random_is_a_unit_interval_float() -> None:
    rng = Rng(5)
    values = [rng.random() for _ in range(5000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert 0.45 < sum(values) / len(values) < 0.55


@given(SEEDS, st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(seed, items) -> None:
    shuffled = list(items)
    Rng(seed).shuffle(shuffled)
    assert sorted(shuffled) == sorted(items)


def test_shuffle_reaches_every_ordering_of_three() -> None:
    rng = Rng(11)
    seen = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        rng.shuffle(items)
        seen[tuple(items)] += 1
    assert len(seen) == 6
    assert all(700 < count < 1300 for count in seen.values()), seen


@given(SEEDS, st.lists(st.integers(), min_size=1, max_size=10))
def test_choice_picks_an_element(seed, items) -> None:
    assert Rng(seed).choice(items) in items
