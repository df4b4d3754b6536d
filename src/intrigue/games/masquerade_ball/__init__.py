"""The Masquerade Ball (seed 001): masked court cards, pip-map dances and the Circle of Power."""

from .rules import BallState, MasqueradeBall

GAME = MasqueradeBall()

__all__ = ["GAME", "BallState", "MasqueradeBall"]
