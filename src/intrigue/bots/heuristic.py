"""The heuristic bot: each game's own rule-of-thumb policy, working from the seat's view.

A game's heuristic module (listed in `heuristics.HEURISTICS`) defines ``choose(view, legal,
rng)``, the policy. It may also help the search bot (`search_hooks`):

* ``rollout_policy(state, seat, legal, rng) -> Action``: a move for ``seat`` in a
  determinization, for rollouts (by default ``choose`` on ``state.view(seat)``);
* ``evaluate(state) -> list[float]``: how good a determinization looks for every seat, each
  value in [-1, 1] like the outcome's returns, so rollouts can stop early;
* ``shortlist(state, seat, legal, rng) -> list[Action]``: the legal moves for ``seat`` in a
  determinization, the policy's best first (its first is the policy's move), so that search
  may consider only the first few (the ``width`` setting);
* ``resample(sample, seat, rng) -> sampler``: built once per decision from a determinization,
  a sampler ``rng -> State`` that draws the determinizations itself, weighing the hidden facts
  by how well they explain the public play (which ``State.determinize`` does not weigh)
  before it builds a sample; it takes the place of the driver's sampler;
* ``beaten(state, seat) -> bool``: whether ``seat`` is out of the game in a determinization
  and, as the rollout policy plays, stays out (it has lost), so that a search with a rollout
  depth stops a line once its own seat is out and scores it -1;
* ``explain(view, legal, action) -> str | None``: why ``choose`` picked ``action``, in a short
  phrase for people (the hints of a "First game", `intrigue.bots.advice`);
* ``SEARCH``: a dict of the game's default search settings (``depth``, ``bias``, ``epsilon``).

Search hands these hooks determinizations only (never the real game), so whatever they read
in ``state`` is a sample consistent with what the searching seat has seen.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from intrigue.engine import Action, State

from .base import RandomSource
from .heuristics import HEURISTICS

Policy = Callable[[dict[str, Any], list[Action], RandomSource], Action]
# ``explain(view, legal, action)``: why the policy picked ``action``, for people (advice.py).
Explainer = Callable[[dict[str, Any], list[Action], Action], str | None]
RolloutPolicy = Callable[[State, int, list[Action], Any], Action]
Shortlist = Callable[[State, int, list[Action], Any], list[Action]]
Resampler = Callable[[State, int, Any], Callable[[Any], State]]
Evaluator = Callable[[State], Sequence[float]]
Beaten = Callable[[State, int], bool]
_policies: dict[str, Policy] = {}
_hooks: dict[str, SearchHooks] = {}


def _module(game_id: str) -> tuple[ModuleType, str] | None:
    target = HEURISTICS.get(game_id)
    if target is None:
        return None
    module_name, _, attribute = target.partition(":")
    return importlib.import_module(module_name), attribute


def policy_for(game_id: str) -> Policy | None:
    """The heuristic policy written for ``game_id``, if there is one."""
    if game_id not in _policies:
        found = _module(game_id)
        if found is None:
            return None
        module, attribute = found
        _policies[game_id] = getattr(module, attribute)
    return _policies[game_id]


def explainer_for(game_id: str) -> Explainer | None:
    """The reason-giver of ``game_id``'s heuristic (``explain``), if it has one."""
    found = _module(game_id)
    return None if found is None else getattr(found[0], "explain", None)


@dataclass(frozen=True)
class SearchHooks:
    """What a game's heuristic module offers the search bot (see the module docstring)."""

    policy: RolloutPolicy | None = None
    evaluate: Evaluator | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    shortlist: Shortlist | None = None
    resample: Resampler | None = None
    beaten: Beaten | None = None


def _view_policy(choose: Policy) -> RolloutPolicy:
    def policy(state: State, seat: int, legal: list[Action], rng: Any) -> Action:
        return choose(state.view(seat), legal, rng)

    return policy


def search_hooks(game_id: str) -> SearchHooks:
    """The rollout policy, evaluation and search settings of ``game_id`` (empty if none)."""
    if game_id not in _hooks:
        found = _module(game_id)
        if found is None:
            _hooks[game_id] = SearchHooks()
        else:
            module, attribute = found
            policy = getattr(module, "rollout_policy", None)
            if policy is None:
                policy = _view_policy(getattr(module, attribute))
            _hooks[game_id] = SearchHooks(
                policy,
                getattr(module, "evaluate", None),
                dict(getattr(module, "SEARCH", {})),
                getattr(module, "shortlist", None),
                getattr(module, "resample", None),
                getattr(module, "beaten", None),
            )
    return _hooks[game_id]


class HeuristicBot:
    """Plays the game's heuristic policy; a game without one gets uniform random moves."""

    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[Action], rng: RandomSource
    ) -> Action:
        if not legal_actions:
            raise ValueError("a bot needs at least one legal action to choose from")
        policy = policy_for(view["game"])
        if policy is None:
            return legal_actions[rng.randrange(len(legal_actions))]
        return policy(view, legal_actions, rng)

    def __repr__(self) -> str:
        return "HeuristicBot()"
