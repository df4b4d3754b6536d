"""A face-down deck, shuffled lazily.

Nobody ever sees a deck's order (RULINGS §3.2), so instead of shuffling at set-up each draw
takes a uniformly random card among those nobody has seen yet, from the state's `Rng`: the
same distribution as a shuffle, without paying for it in every playout. A deck is, from the
top down:

* ``top``: cards whose order an option fixed (top card last, so ``pop()`` draws it);
* ``pool``: the unseen cards, kept sorted so a draw depends only on the generator and on
  *which* cards are left, never on the history that left them (replays stay exact);
* ``bottom``: cards put back under the deck (the Boss, an enemy with no room), in the order
  they went under; both players saw them, so their order is public.

``drawn`` lists the cards drawn from ``top`` and ``pool`` in order: it is what an option must
fix to replay the game with these draws (the determinizer uses it).
"""

from __future__ import annotations

from typing import Any


class Deck:
    __slots__ = ("bottom", "drawn", "pool", "top")

    def __init__(
        self,
        top: list[str],
        pool: list[str],
        bottom: list[str] | None = None,
        drawn: list[str] | None = None,
    ) -> None:
        self.top = top
        self.pool = pool
        self.bottom = [] if bottom is None else bottom
        self.drawn = [] if drawn is None else drawn

    @classmethod
    def build(cls, contents: tuple[str, ...], fixed_top: list[str] | None) -> Deck:
        """A deck of ``contents`` whose first cards (top first) are ``fixed_top``."""
        if not fixed_top:
            return cls([], sorted(contents))
        pool = list(contents)
        for card in fixed_top:
            pool.remove(card)
        return cls(list(reversed(fixed_top)), sorted(pool))

    def __len__(self) -> int:
        return len(self.top) + len(self.pool) + len(self.bottom)

    def __bool__(self) -> bool:
        return bool(self.top or self.pool or self.bottom)

    def draw(self, rng: Any) -> str:
        if self.top:
            card = self.top.pop()
        elif self.pool:
            card = self.pool.pop(rng.randrange(len(self.pool)))
        else:
            return self.bottom.pop(0)
        self.drawn.append(card)
        return card

    def put_under(self, card: str) -> None:
        self.bottom.append(card)

    def forget_order(self) -> None:
        """Treat the fixed top cards as unseen too (what a player believes)."""
        if self.top:
            self.pool = sorted(self.pool + self.top)
            self.top = []

    def copy(self) -> Deck:
        return Deck(self.top.copy(), self.pool.copy(), self.bottom.copy(), self.drawn.copy())
