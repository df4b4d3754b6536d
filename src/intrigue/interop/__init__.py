"""Doors for researchers: intrigue's games in OpenSpiel and PettingZoo.

The adapters live in submodules so that importing `intrigue` never needs their libraries:

* `intrigue.interop.openspiel` (extra ``openspiel``) registers every game with OpenSpiel;
* `intrigue.interop.pettingzoo` (extra ``pettingzoo``) builds PettingZoo AEC environments;
* `intrigue.interop.gymnasium` (extra ``pettingzoo``) offers one seat against bots as a
  Gymnasium environment, registered for ``gymnasium.make``;
* `intrigue.interop.tensors` holds each game's fixed-size observation tensor (needs numpy);
* `intrigue.interop.evaluate` scores an agent against the built-in bots (needs numpy).

See docs/interop.md.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "evaluate":  # imported on first use: it needs numpy
        from .evaluation import evaluate

        return evaluate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
