"""Every intrigue game as a PettingZoo AEC environment (``pip install 'intrigue[pettingzoo]'``).

>>> from intrigue.interop.pettingzoo import env
>>> e = env("masquerade-murder", max_turns=3)
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_<seat>``. The agent to act is the first seat of the engine's ``to_move``:
a simultaneous phase is played as turns in that order, and each agent's observation hides
what the earlier ones chose, as the engine's views do. An observation is the game's
fixed-size tensor of ``view(seat)`` (a ``Box`` in [0, 1]) and an ``int8`` mask over the game's
stable action indices, all zero unless it is that agent's turn. Rewards come once, at the
end: the outcome's returns. A game ended by its ``max_turns`` cap (which defaults to the
adapter's finite value) is *truncated*, one ended by its rules *terminated*.
``reset(seed=...)`` makes the episode and every later unseeded reset reproducible.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from intrigue.engine import State, load

from . import common
from .tensors import encoder


class IntrigueEnv(AECEnv):
    """One intrigue game as an AEC environment; ``options`` are the game's options."""

    metadata = {"render_modes": ["ansi"], "name": "intrigue_v0", "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game = load(game_id)
        self.players = self.game.player_counts[0] if players is None else players
        options.setdefault("max_turns", common.default_max_turns(game_id))
        self.options = options
        self.game.new(self.players, 0, **options)  # reject bad options at construction
        self.render_mode = render_mode
        self.encoder = encoder(game_id)
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self.seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self._observation_space() for a in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self.game.num_actions) for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self._state: State | None = None

    def _observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def intrigue_state(self) -> State:
        """The engine's state of the current episode (it holds every secret)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    # -- the episode ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self._state = self.game.new(self.players, self._seeds.getrandbits(63), **self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._to_move()

    def _to_move(self) -> str:
        state = self.intrigue_state
        return self.possible_agents[state.to_move[0]] if state.to_move else self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.intrigue_state
        seat = self.seats[agent]
        mask = np.zeros(self.game.num_actions, np.int8)
        if agent == self.agent_selection and not state.is_over:
            ids = self.game.action_table.ids
            mask[[ids[a] for a in state.legal_actions(seat)]] = 1
        return {"observation": self.encoder.encode(state.view(seat)), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.intrigue_state
        state.apply(self.seats[agent], self.game.action_at(int(action)))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        outcome = state.outcome
        if outcome is not None:
            for a in self.agents:
                self.rewards[a] = float(outcome.returns[self.seats[a]])
                self.terminations[a] = not outcome.capped
                self.truncations[a] = outcome.capped
        self._accumulate_rewards()
        self.agent_selection = self._to_move()

    # -- output ---------------------------------------------------------------------------
    def render(self) -> str | None:
        """``ansi``: the game's terminal drawing of the spectator's view, as plain text."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return common.render_text(self.game, self.intrigue_state.view(None))

    def close(self) -> None:
        self._state = None


def raw_env(game_id: str, **options: Any) -> IntrigueEnv:
    """The environment without wrappers."""
    return IntrigueEnv(game_id, **options)


def env(game_id: str, **options: Any) -> AECEnv:
    """An AEC environment of ``game_id`` (``players``, ``render_mode`` and the game's
    options as keywords), wrapped in PettingZoo's order enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(game_id, **options))
