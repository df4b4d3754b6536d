"""The ``intrigue`` terminal front end: ``intrigue games``, ``play`` and ``replay``."""

from .main import main

__all__ = ["main"]
