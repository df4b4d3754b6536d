"""The older part of an append-only flat list, frozen in chunks that clones share.

A state's history and log only grow, and a state is cloned far more often than it grows by
much: a server plays every move on a clone, a search clones at every iteration. Copying the
whole list at every clone made each copy cost the length of the game, and each copy was a new
container that the cyclic garbage collector walked item by item at its next pass (in a busy
server, most of what its collections walked; docs/performance.md). So a state keeps a short
list for the newest items (its *tail*) and a `Folded` value for the rest: tuples that are never
changed, shared by every clone, and soon old to the collector. A clone copies a short tail;
a long one it folds into its own `Folded` (the state cloned is never changed, so threads may
clone one state at once), which the clone's own copies then share.

The lists are flat (``seat, action, seat, action, ...``), not lists of tuples: CPython stops
tracking a tuple only when nothing in it is a container, so a tuple per log entry (which holds
its payload dict) would be tracked for the life of the game.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice
from typing import Any, NamedTuple

FOLD_AT = 96  # a clone folds the tail it copies when it holds more items than this


class Folded(NamedTuple):
    """Items frozen in chunks, oldest first, and how many there are."""

    chunks: tuple[tuple[Any, ...], ...] = ()
    length: int = 0

    def fold(self, tail: list[Any]) -> Folded:
        """These items followed by ``tail``'s (which the caller then empties)."""
        return Folded((*self.chunks, tuple(tail)), self.length + len(tail))

    def items(self, tail: list[Any], start: int = 0) -> Iterator[Any]:
        """The items from position ``start`` on (folded ones first), then ``tail``'s as they
        are now (a copy: items added to ``tail`` later are not read)."""
        if start >= self.length:
            return iter(tail[start - self.length :])
        chunks = self.chunks
        for i, chunk in enumerate(chunks):
            if start < len(chunk):
                return chain(islice(chunk, start, None), *chunks[i + 1 :], tail[:])
            start -= len(chunk)
        raise AssertionError("unreachable: start < length")

    def at(self, tail: list[Any], start: int, count: int) -> list[Any]:
        """``count`` items from position ``start`` on (fewer at the end)."""
        if start >= self.length:
            start -= self.length
            return tail[start : start + count]
        return list(islice(self.items(tail, start), count))

    def last(self, tail: list[Any], count: int) -> list[Any]:
        """The last ``count`` items (fewer if there are fewer)."""
        if count <= 0:
            return []
        if len(tail) >= count or not self.chunks:
            return tail[-count:]
        return list(self.items(tail, max(0, self.length + len(tail) - count)))


NOTHING_FOLDED = Folded()
