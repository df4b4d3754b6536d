"""Position values for search: a logistic model of the chance to win, fitted offline.

A game's heuristic module may describe a determinization for a seat by a few numbers
(``features(state, seat)``) and give weights fitted by ``bench/fit_values.py`` on games of
its heuristic against itself: the estimated chance to win is ``sigmoid(weights . features)``,
and the value handed to search is that chance rescaled to [-1, 1] like an outcome's returns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any


def win_value(weights: Sequence[float], features: Sequence[float]) -> float:
    """``2 * sigmoid(weights . features) - 1``: -1 a sure loss, 0 even, 1 a sure win."""
    z = sum(w * f for w, f in zip(weights, features, strict=True))
    # tanh(z / 2) == 2 * sigmoid(z) - 1, without overflow for large |z|.
    return math.tanh(z * 0.5)


def every_seat(
    features: Callable[[Any, int], Sequence[float]],
) -> Callable[[Any], list[Sequence[float]]]:
    """``seat_features(state)``: every seat's ``features(state, seat)``, one seat at a time."""

    def seat_features(state: Any) -> list[Sequence[float]]:
        return [features(state, seat) for seat in range(state.players)]

    return seat_features


def every_seat_evaluation(
    weights: Sequence[float], seat_features: Callable[[Any], Sequence[Sequence[float]]]
) -> Callable[[Any], list[float]]:
    """``evaluate(state)``: every seat's `win_value` of its own row of ``seat_features(state)``
    (a game may compute every seat's features at once, sharing the work they have in common)."""

    def evaluate(state: Any) -> list[float]:
        """Every seat's chance to win from a determinization, as values in [-1, 1]."""
        return [win_value(weights, row) for row in seat_features(state)]

    return evaluate


def per_seat_evaluation(
    weights: Sequence[float], features: Callable[[Any, int], Sequence[float]]
) -> Callable[[Any], list[float]]:
    """``evaluate(state)``: every seat's `win_value` of its own features of the state."""
    return every_seat_evaluation(weights, every_seat(features))


def luce_evaluation(
    weights: Sequence[float], strengths: Callable[[Any], Sequence[Sequence[float]] | None]
) -> Callable[[Any], list[float]]:
    """``evaluate(state)`` for a game of several seats where one wins: each seat's chance is a
    Luce choice among the seats, ``exp(u_s) / sum_j exp(u_j)`` with ``u_j = weights . a_j``,
    ``a_j`` seat ``j``'s own row of ``strengths(state)`` (None: nothing to tell yet, every value
    0), rescaled to [-1, 1] as `win_value` is. With two seats this *is* `win_value` of the
    difference of the two rows, so features written as "mine minus my rival's" keep their
    fitted weights; with more, what weakens any rival is worth something to a seat, not only
    what weakens the strongest (the pairwise model sees only that one)."""

    def evaluate(state: Any) -> list[float]:
        rows = strengths(state)
        if rows is None:
            return [0.0] * state.players
        scores = [sum(w * a for w, a in zip(weights, row, strict=True)) for row in rows]
        top = max(scores)
        odds = [math.exp(u - top) for u in scores]  # shifted: no overflow
        total = sum(odds)
        return [2.0 * o / total - 1.0 for o in odds]

    return evaluate
