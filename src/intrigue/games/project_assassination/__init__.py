"""Project Assassination (seed 003): two rival assassins on a 7x7 bar board."""

from .rules import AssassinationState, ProjectAssassination

GAME = ProjectAssassination()

__all__ = ["GAME", "AssassinationState", "ProjectAssassination"]
