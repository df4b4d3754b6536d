"""The ``expert`` level: `hard`'s search, scoring its cut-off rollouts with a trained evaluation.

The evaluation reads the same features as `hard`'s (the game heuristic module's
``features(state, seat)``, which read only what that seat may know, from a determinization)
and adds a small hidden layer to the fitted logistic model:

    logit = w . x + v . tanh(W x + c) + b,  value = 2 * sigmoid(logit) - 1 = tanh(logit / 2)

With ``v = 0`` and ``w`` the game's ``WEIGHTS`` it *is* `hard`'s evaluation with two players
(Shadows over Japan's `hard` scores three seats as a Luce choice among their rows,
which with two is this same model), which is where training starts
(``bench/train_expert.py``: expert iteration on games of the search itself).
The weights ship as small JSON files in ``bots/weights/<game>.json`` with the command, seed and
settings that produced them. A game without a file plays exactly as `hard`.
"""

from __future__ import annotations

import functools
import importlib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from intrigue.engine import State

from .heuristic import SearchHooks, search_hooks
from .heuristics import HEURISTICS
from .heuristics.valuation import every_seat
from .ismcts import ISMCTSBot

WEIGHTS_DIR = Path(__file__).with_name("weights")


@dataclass(frozen=True)
class ValueModel:
    """``logit = w . x + v . tanh(W x + c) + b`` over a game's feature vector ``x``."""

    w: np.ndarray  # (d,)
    hidden: np.ndarray  # W: (h, d)
    shift: np.ndarray  # c: (h,)
    out: np.ndarray  # v: (h,)
    bias: float = 0.0

    @classmethod
    def linear(cls, weights: Any, hidden: int = 0) -> ValueModel:
        """The logistic model ``weights`` (hidden units present but silent: ``v = 0``)."""
        w = np.asarray(weights, dtype=float)
        zeros = np.zeros((hidden, len(w)))
        return cls(w, zeros, np.zeros(hidden), np.zeros(hidden))

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Logits of the rows of ``x`` (n, d)."""
        z = x @ self.w + self.bias
        if len(self.out):
            z = z + np.tanh(x @ self.hidden.T + self.shift) @ self.out
        return z

    def to_json(self) -> dict[str, Any]:
        return {
            "w": self.w.tolist(),
            "hidden": self.hidden.tolist(),
            "shift": self.shift.tolist(),
            "out": self.out.tolist(),
            "bias": self.bias,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ValueModel:
        w = np.asarray(data["w"], dtype=float)
        hidden = np.asarray(data["hidden"], dtype=float).reshape(-1, len(w))
        return cls(
            w,
            hidden,
            np.asarray(data["shift"], dtype=float),
            np.asarray(data["out"], dtype=float),
            float(data["bias"]),
        )


def feature_module(game_id: str) -> Any:
    """The game's heuristic module (its ``features`` and ``WEIGHTS``), or None."""
    target = HEURISTICS.get(game_id)
    if target is None:
        return None
    module = importlib.import_module(target.partition(":")[0])
    return module if hasattr(module, "features") and hasattr(module, "WEIGHTS") else None


def weights_path(game_id: str) -> Path:
    return WEIGHTS_DIR / f"{game_id}.json"


def load_model(path: str | Path) -> ValueModel:
    """The model of a weights file written by ``bench/train_expert.py``."""
    return ValueModel.from_json(json.loads(Path(path).read_text())["model"])


@functools.cache
def shipped_model(game_id: str) -> ValueModel | None:
    """The trained model shipped for ``game_id``, or None when there is none."""
    path = weights_path(game_id)
    return load_model(path) if path.exists() else None


def model_evaluation(model: ValueModel, features: Any, seat_features: Any = None) -> Any:
    """``evaluate(state)``: every seat's value from its own features; with two players the
    two estimates are averaged into one zero-sum pair (the features are differences).
    ``seat_features(state)``, where the game has it, gives every seat's at once."""

    rows = seat_features if seat_features is not None else every_seat(features)

    def evaluate(state: State) -> list[float]:
        x = np.array(rows(state), dtype=float)
        values = np.tanh(0.5 * model.logits(x))
        if len(values) == 2:
            v = 0.5 * float(values[0] - values[1])
            return [v, -v]
        return values.tolist()

    return evaluate


def scaled(model: ValueModel, scale: float) -> ValueModel:
    """``model`` with every logit multiplied by ``scale`` (> 1: sharper values)."""
    return ValueModel(
        model.w * scale, model.hidden, model.shift, model.out * scale, model.bias * scale
    )


class ExpertBot(ISMCTSBot):
    """`hard`'s search (same settings and budget) with the trained evaluation of the game.

    ``model`` overrides the shipped weights (training compares candidates this way), as does
    ``weights``, the path of a weights file (``expert:weights=/tmp/candidate.json``).
    ``scale`` multiplies the evaluation's logits (``expert:scale=2``: sharper values; with no
    trained model it scales `hard`'s own evaluation).
    """

    name = "expert"

    def __init__(
        self,
        *args: Any,
        model: ValueModel | None = None,
        weights: str | None = None,
        scale: float = 1.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if not scale > 0:
            raise ValueError(f"scale must be above 0, not {scale!r}")
        self.model = load_model(weights) if model is None and weights else model
        self.scale = float(scale)

    def __repr__(self) -> str:
        return "Expert" + super().__repr__()

    def hooks(self, game_id: str) -> SearchHooks:
        base = search_hooks(game_id)
        model = self.model if self.model is not None else shipped_model(game_id)
        module = feature_module(game_id)
        if module is None or base.evaluate is None:
            return base
        if self.scale != 1.0:  # scales the trained model, else `hard`'s own weights
            start = model if model is not None else ValueModel.linear(module.WEIGHTS)
            model = scaled(start, self.scale)
        if model is None:
            return base
        every_seat = getattr(module, "seat_features", None)
        return replace(base, evaluate=model_evaluation(model, module.features, every_seat))
