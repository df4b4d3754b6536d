"""A small, seedable, copyable random number generator.

Every chance event of every game draws from the `Rng` held in its state, so a seed plus the list
of actions replays a game exactly. The generator is SplitMix64: its whole state is one integer,
which makes cloning a state (millions of times, for search) cost nothing, and its output is the
same on every platform and Python version.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class Rng:
    """SplitMix64 pseudo-random generator with the few methods games need."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """The next 64 random bits."""
        self.state = s = (self.state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        """A float uniformly drawn from [0, 1)."""
        return (self.next64() >> 11) * (1.0 / (1 << 53))

    def randrange(self, n: int) -> int:
        """An integer uniformly drawn from 0..n-1 (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("randrange() needs a positive bound")
        bits = n.bit_length()
        if bits > 64:
            return self._randbelow_big(n, bits)
        while True:
            value = self.next64() >> (64 - bits)
            if value < n:
                return value

    def _randbelow_big(self, n: int, bits: int) -> int:
        words = (bits + 63) // 64
        while True:
            value = 0
            for _ in range(words):
                value = (value << 64) | self.next64()
            value >>= words * 64 - bits
            if value < n:
                return value

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randrange(len(seq))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """An independent generator seeded from this one."""
        return Rng(self.next64())

    def copy(self) -> Rng:
        return Rng(self.state)
