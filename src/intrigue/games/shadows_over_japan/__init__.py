"""Shadows over Japan (seed 004): ninja clans secretly backing the Nobles of Sengoku Japan."""

from .rules import JapanState, ShadowsOverJapan

GAME = ShadowsOverJapan()

__all__ = ["GAME", "JapanState", "ShadowsOverJapan"]
