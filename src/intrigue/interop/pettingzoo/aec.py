"""The AEC environment behind every game's PettingZoo module, and the module factory.

Agents are ``player_<seat>``. The agent to act is the first seat of the engine's ``to_move``:
a simultaneous phase is played as turns in that order, and each agent's observation hides
what the earlier ones chose, as the engine's views do. An observation is the game's
fixed-size tensor of ``view(seat)`` (a ``Box`` in [0, 1]; with ``history=True`` followed by
the seat's `History` of decisions, for perfect recall) and an ``int8`` mask over the game's
stable action indices, all zero unless it is that agent's turn.

Endings (docs/interop.md): a game that ends by its rules is *terminated* and every agent's
reward is its return (1 win, -1 loss, 0 draw). Reaching ``max_turns`` is such an ending only
where the game makes it a rule (Masquerade Murder: the ball ends, Good wins); in the other
games it is a cap the game does not define, so the episode is *truncated*, rewards are 0 and
each agent's ``infos`` carry the arbiter's verdict (``outcome``) for those who want to score it
anyway. The decision cap (``max_decisions``, `common.DECISIONS_PER_TURN`) truncates the same
way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger

from intrigue.engine import Game, State, load

from .. import common
from ..observations import SeatTensors

RENDER_MODES = ("human", "ansi")
ILLEGAL_REWARD = -1.0  # what PettingZoo's classic environments give an illegal move


class ActionSpace(spaces.Discrete):
    """``Discrete`` over the game's action indices that does not count ``True`` as index 1."""

    def contains(self, x: Any) -> bool:
        if x.__class__ is int:  # the common case, without gymnasium's general checks
            return 0 <= x < self._size
        return not isinstance(x, (bool, np.bool_)) and super().contains(x)

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self._size = n


def env_name(game_id: str, version: int = 0) -> str:
    """The versioned environment name: ``masquerade-murder`` -> ``masquerade_murder_v0``."""
    return f"{game_id.replace('-', '_')}_v{version}"


class IntrigueEnv(AECEnv):
    """One intrigue game as an AEC environment; ``options`` are the game's options."""

    metadata: dict[str, Any] = {
        "render_modes": list(RENDER_MODES),
        "name": "intrigue_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        max_decisions: int | None = None,
        history: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(RENDER_MODES)}")
        self.game: Game = load(game_id)
        self.metadata = {**IntrigueEnv.metadata, "name": env_name(game_id)}
        self.players = self.game.player_counts[0] if players is None else players
        options.setdefault("max_turns", common.default_max_turns(game_id))
        self.options = options
        self.game.new(self.players, 0, **options)  # reject bad options at construction
        self.max_decisions = common.decision_cap(self.game, self.players, options, max_decisions)
        self.render_mode = render_mode
        self.tensors = SeatTensors(
            self.game, self.players, options.get("max_turns"), self.max_decisions, history
        )
        self._action_ids = self.game.action_table.ids
        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self.seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self._observation_space() for a in self.possible_agents}
        self.action_spaces = {
            agent: ActionSpace(self.game.num_actions) for agent in self.possible_agents
        }
        self._seeds = random.Random()
        self._state: State | None = None

    def _observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.tensors.size,), np.float32),
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
            ids = self._action_ids
            mask[[ids[a] for a in state.legal_actions(seat)]] = 1
        return {"observation": self.tensor(seat), "action_mask": mask}

    def tensor(self, seat: int) -> np.ndarray:
        """A copy of ``seat``'s observation tensor (encoded once per position and seat)."""
        return self.tensors.tensor(self.intrigue_state, seat)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = common.integer_action(action)
        state = self.intrigue_state
        state.apply(self.seats[agent], self.game.action_at(index))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.outcome is not None:
            self._end(state)
        elif common.cut_off(state, self.max_decisions):
            self._cut_off()
        self._accumulate_rewards()
        self.agent_selection = self._to_move()

    def _end(self, state: State) -> None:
        """Rewards and flags of a finished game (see the module docstring)."""
        outcome = state.outcome
        assert outcome is not None
        truncated = outcome.capped and not self.game.max_turns_is_rule
        verdict = outcome.to_json()
        for agent in self.agents:
            seat = self.seats[agent]
            self.rewards[agent] = 0.0 if truncated else float(outcome.returns[seat])
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
            self.infos[agent] = {"outcome": verdict}

    def _cut_off(self) -> None:
        """The decision cap stopped the game: no result, every agent truncated."""
        for agent in self.agents:
            self.truncations[agent] = True
            self.infos[agent] = {"outcome": None, "cut_off": "max_decisions"}

    # -- output ---------------------------------------------------------------------------
    def render(self) -> str | None:
        """``ansi``: the game's terminal drawing of the spectator's view as plain text, as wide
        as it needs; ``human``: the same drawing printed to the terminal (in colour)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        view = self.intrigue_state.view(None)
        if self.render_mode == "human":
            common.print_drawing(self.game, view)
            return None
        return common.render_text(self.game, view)

    def close(self) -> None:
        self._state = None
        self.tensors.forget()


def wrap(raw: IntrigueEnv) -> AECEnv:
    """PettingZoo's classic wrappers, in its order: an illegal move ends the game with -1 for
    the offender, an action outside the space fails an assertion, and the API order is
    enforced (`ClassicWrapper`: the three in one layer)."""
    return ClassicWrapper(raw)


def _before_reset(name: str) -> property:
    """The raw env's attribute ``name``, refused before reset as `OrderEnforcingWrapper` does."""

    def get(self: ClassicWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class ClassicWrapper(wrappers.OrderEnforcingWrapper):
    """``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(TerminateIllegalWrapper(raw, -1)))``
    in one layer, with the same behaviour (tests play both stacks side by side).

    The stack cost more than the rest of a step but the tensor: every attribute the loop reads
    (``agent_selection``, ``terminations``, ...) went through three ``__getattr__`` hops and
    every call through three methods. Here they are properties and one method each. It is an
    `OrderEnforcingWrapper`, so PettingZoo's ``agent_iter`` and conversions treat it as one.
    """

    agent_selection = _before_reset("agent_selection")
    agents = _before_reset("agents")
    rewards = _before_reset("rewards")
    terminations = _before_reset("terminations")
    truncations = _before_reset("truncations")
    infos = _before_reset("infos")
    num_agents = _before_reset("num_agents")

    def __init__(self, env: IntrigueEnv) -> None:
        super().__init__(env)
        self._raw = env
        self._prev_obs: dict[str, np.ndarray] | None = None  # TerminateIllegalWrapper's
        self._terminated = False  # ended by an illegal move

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._raw._cumulative_rewards

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._terminated = False
        self._prev_obs = None
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        obs = self._raw.observe(agent)
        if agent == self._raw.agent_selection:
            self._prev_obs = obs
        return obs

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        assert agent is not None
        raw = self._raw
        return (
            self.observe(agent) if observe else None,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def step(self, action: Any) -> None:
        raw = self._raw
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        assert (action is None and dead) or raw.action_spaces[agent].contains(action), (
            "action is not in action space"
        )
        mask = (self._prev_obs or self.observe(agent))["action_mask"]
        self._prev_obs = None
        if self._terminated and dead:
            raw._was_dead_step(action)
        elif not dead and not mask[action]:
            self._end_illegal(raw, agent)
        else:
            raw.step(action)

    def _end_illegal(self, raw: IntrigueEnv, agent: str) -> None:
        """`TerminateIllegalWrapper`'s ending: -1 for ``agent``, 0 for the others, all done."""
        EnvLogger.warn_on_illegal_move()
        raw._cumulative_rewards[agent] = 0
        raw.terminations = dict.fromkeys(raw.agents, True)
        raw.truncations = dict.fromkeys(raw.agents, True)
        raw.rewards = dict.fromkeys(raw.truncations, 0)
        raw.rewards[agent] = float(ILLEGAL_REWARD)
        raw._accumulate_rewards()
        raw._deads_step_first()
        self._terminated = True

    def __str__(self) -> str:
        return str(self._raw)


class Module:
    """The three constructors of one game's versioned module (``masquerade_murder_v0``)."""

    def __init__(self, game_id: str, version: int = 0) -> None:
        self.game_id = game_id
        self.name = env_name(game_id, version)
        self.metadata = {**IntrigueEnv.metadata, "name": self.name}
        self.env = self._documented(self._env, "with PettingZoo's classic wrappers")
        self.raw_env = self._documented(self._raw_env, "without wrappers")
        self.parallel_env = self._documented(
            self._parallel_env, "as a parallel environment (one agent acts per step)"
        )

    def _raw_env(self, **kwargs: Any) -> IntrigueEnv:
        return IntrigueEnv(self.game_id, **kwargs)

    def _env(self, **kwargs: Any) -> AECEnv:
        return wrap(self._raw_env(**kwargs))

    def _parallel_env(self, **kwargs: Any) -> ParallelEnv:
        return turn_based_aec_to_parallel(self._env(**kwargs))

    def _documented(self, make: Callable[..., Any], how: str) -> Callable[..., Any]:
        def constructor(**kwargs: Any) -> Any:
            return make(**kwargs)

        constructor.__doc__ = (
            f"The {self.name} environment {how}. Keywords: ``players``, ``render_mode`` "
            f"('human' or 'ansi') and the options of {self.game_id}."
        )
        return constructor
