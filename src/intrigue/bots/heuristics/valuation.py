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
