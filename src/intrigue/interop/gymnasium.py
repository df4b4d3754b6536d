"""Every intrigue game as a single-agent Gymnasium environment: one seat learns, bots play the
others (``pip install 'intrigue[pettingzoo]'`` brings Gymnasium).

Importing this module registers each game with Gymnasium, so ``make`` finds it::

    import gymnasium
    env = gymnasium.make("intrigue.interop.gymnasium:intrigue/ProjectAssassination-v0",
                         opponent="medium", max_turns=60)

or build it directly: ``SingleAgentEnv("project-assassination", opponent="medium")``.

* The learner's seat rotates over the seats, one episode each (``seat=`` fixes it); every
  other seat is played by ``opponent`` (a bot name: ``random``, ``medium``, ``hard``, with
  settings such as ``"hard:iterations=50"``), seeing only its own view.
* Observation: the seat's fixed-size tensor (``Box`` in [0, 1]; ``history=True`` appends the
  seat's `History` of decisions, for perfect recall); the legal actions are in
  ``info["action_mask"]`` and ``action_masks()`` (what sb3-contrib's ``MaskablePPO`` reads).
* Rewards and endings as in the PettingZoo environments: the seat's return when the game
  ends by its rules (``terminated``); 0 and ``truncated`` when a ``max_turns`` the game does
  not define cuts it off (the verdict is in ``info["outcome"]``). An illegal action ends the
  episode with -1, as PettingZoo's classic environments do (``info["illegal"]``). The
  decision cap (``max_decisions``, `common.DECISIONS_PER_TURN`) truncates like a cap.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from intrigue.bots import make_bot
from intrigue.bots.match import bot_move
from intrigue.engine import Game, Rng, State, game_ids, load

from . import common
from .observations import SeatTensors

NAMESPACE = "intrigue"
ILLEGAL_REWARD = -1.0


def env_id(game_id: str, version: int = 0) -> str:
    """Gymnasium's id: ``project-assassination`` -> ``intrigue/ProjectAssassination-v0``."""
    name = "".join(part.title() for part in game_id.split("-"))
    return f"{NAMESPACE}/{name}-v{version}"


class SingleAgentEnv(gymnasium.Env):
    """One seat of an intrigue game against bots, as a Gymnasium environment."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 1}

    def __init__(
        self,
        game_id: str,
        opponent: str = "medium",
        seat: int | None = None,
        players: int | None = None,
        render_mode: str | None = None,
        max_decisions: int | None = None,
        history: bool = False,
        **options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.game: Game = load(game_id)
        self.players = self.game.player_counts[0] if players is None else players
        options.setdefault("max_turns", common.default_max_turns(game_id))
        self.options = options
        self.game.new(self.players, 0, **options)  # reject bad options now
        self.max_decisions = common.decision_cap(self.game, self.players, options, max_decisions)
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, not {seat}")
        self.fixed_seat = seat
        self.opponent = opponent
        self._bots = [make_bot(opponent) for _ in range(self.players)]
        self.render_mode = render_mode
        self.tensors = SeatTensors(
            self.game, self.players, options.get("max_turns"), self.max_decisions, history
        )
        self.observation_space = spaces.Box(0.0, 1.0, (self.tensors.size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._ids = self.game.action_table.ids
        self._episodes = 0
        self._seeds = random.Random()
        self._state: State | None = None
        self._ended: tuple[bool, bool] | None = None  # (terminated, truncated) once over
        self.seat = 0 if seat is None else seat
        self._rng = Rng(0)

    @property
    def intrigue_state(self) -> State:
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    # -- the episode ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
            self._episodes = 0
        game_seed = self._seeds.getrandbits(63)
        self.seat = self._episodes % self.players if self.fixed_seat is None else self.fixed_seat
        self._episodes += 1
        self._state = self.game.new(self.players, game_seed, **self.options)
        self._ended = None
        self._rng = Rng(game_seed ^ 0x0990_7E17)
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.intrigue_state
        index = common.integer_action(action)
        if self._ended is not None:  # stepping past the end changes nothing
            return self._observation(), 0.0, *self._ended, self._info()
        mask = self.action_masks()
        if not 0 <= index < len(mask) or not mask[index]:
            self._ended = (True, False)
            return self._observation(), ILLEGAL_REWARD, True, False, {"illegal": True}
        state.apply(self.seat, self.game.action_at(index))
        self._play_opponents()
        if state.outcome is None:
            if common.cut_off(state, self.max_decisions):  # no result: truncated
                self._ended = (False, True)
                info = {**self._info(), "outcome": None, "cut_off": "max_decisions"}
                return self._observation(), 0.0, False, True, info
            return self._observation(), 0.0, False, False, self._info()
        outcome = state.outcome
        truncated = outcome.capped and not self.game.max_turns_is_rule
        self._ended = (not truncated, truncated)
        reward = 0.0 if truncated else float(outcome.returns[self.seat])
        info = {**self._info(), "outcome": outcome.to_json()}
        return self._observation(), reward, not truncated, truncated, info

    def _play_opponents(self) -> None:
        state = self.intrigue_state
        while (
            not state.is_over
            and self.seat not in state.to_move
            and not common.cut_off(state, self.max_decisions)
        ):
            other = state.to_move[0]
            state.apply(other, bot_move(self._bots[other], state, other, self._rng))

    # -- what the learner sees ------------------------------------------------------------
    def _observation(self) -> np.ndarray:
        return self.tensors.tensor(self.intrigue_state, self.seat)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner's seat now, as booleans over the action indices."""
        mask = np.zeros(self.game.num_actions, bool)
        state = self.intrigue_state
        if not state.is_over:
            mask[[self._ids[a] for a in state.legal_actions(self.seat)]] = True
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "seat": self.seat}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        view = self.intrigue_state.view(self.seat)
        if self.render_mode == "human":
            common.print_drawing(self.game, view)
            return None
        return common.render_text(self.game, view)


def register() -> list[str]:
    """Register every game with Gymnasium (``intrigue/<Game>-v0``); returns the ids."""
    ids = []
    for game_id in game_ids():
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(name, entry_point=SingleAgentEnv, kwargs={"game_id": game_id})
        ids.append(name)
    return ids


register()
