"""Fixed-size observation tensors, one encoder per game, computed from ``state.view(seat)``.

``encoder(game_id).encode(view)`` gives a float32 vector whose size depends only on the game;
``encoder(game_id).layout.markdown()`` prints its layout table (docs/interop.md).
"""

from __future__ import annotations

import importlib

from .base import Canvas, Encoder, Field, History, Layout, Section

MODULES = {
    "masquerade-murder": "masquerade_murder",
    "masquerade-ball": "masquerade_ball",
    "project-assassination": "project_assassination",
    "shadows-over-japan": "shadows_over_japan",
}


def encoder(game_id: str) -> Encoder:
    """The tensor encoder of a game; KeyError for a game without one."""
    if game_id not in MODULES:
        raise KeyError(f"no observation tensor for game {game_id!r}")
    module = importlib.import_module(f"{__name__}.{MODULES[game_id]}")
    return module.ENCODER


__all__ = ["MODULES", "Canvas", "Encoder", "Field", "History", "Layout", "Section", "encoder"]
