"""Fixtures for the Masquerade Murder rule tests (the helpers themselves are in mm_helpers)."""

from __future__ import annotations

import pytest
from mm_helpers import new_game

from intrigue.games.masquerade_murder.rules import MurderState


@pytest.fixture
def state() -> MurderState:
    """Night 1, target phase; roles C, T, S, A, D on seats 0..4; night-1 order 0, 1, 2, 3, 4."""
    return new_game()
