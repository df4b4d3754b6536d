"""Masquerade Murder (seed 000): five masked roles, secret targets, seat placement."""

from .rules import MasqueradeMurder, MurderState

GAME = MasqueradeMurder()

__all__ = ["GAME", "MasqueradeMurder", "MurderState"]
