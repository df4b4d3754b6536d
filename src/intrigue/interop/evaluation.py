"""A standard evaluation of agents: win rates against the built-in bots, seats rotated, with 95%
Wilson intervals. Needs numpy (either research extra).

    from intrigue.interop import evaluate
    result = evaluate(policy, "project-assassination", games=200)
    print(result.markdown())

``policy`` is any of:

* a callable ``policy(observation, action_mask) -> int``: the seat's tensor and the mask of
  legal action indices, as the PettingZoo and Gymnasium environments give them (an SB3 model:
  ``lambda obs, mask: int(model.predict(obs, action_masks=mask, deterministic=True)[0])``);
* an OpenSpiel agent (``rl_agent.AbstractAgent``, e.g. DQN: its ``step`` gets a time step with
  the information-state tensor) or an OpenSpiel ``policy.Policy`` (``action_probabilities``;
  the most probable action is played): the game is then played through the OpenSpiel adapter;
* a bot name (``"random"``, ``"medium"``, ``"hard"``), ``"always-end"`` (`AlwaysEnd`: end the
  turn whenever allowed, else the first legal action) or an intrigue bot: the baselines every
  agent should beat.

Game ``i`` (of ``games``, for each opponent) is dealt from ``seed + i`` and puts the agent on
seat ``i % players``, every other seat to the opponent bot; every opponent meets the same deals.
A win scores 1, a draw 1/2 (as in the arena); games cut off by a ``max_turns`` the game does
not define are scored by the arbiter's verdict and counted in ``capped``, as are games the
decision cap stops (scored as draws).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from intrigue.bots import make_bot
from intrigue.bots.match import bot_move
from intrigue.engine import Action, Game, Rng, State, load
from intrigue.lab.stats import wilson_interval

from . import common
from .observations import SeatTensors

DEFAULT_OPPONENTS = ("random", "medium", "hard")


@dataclass
class Score:
    """An agent's results against one opponent."""

    opponent: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    capped: int = 0
    by_seat: dict[int, float] = field(default_factory=dict)

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def rate(self) -> float:
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.points, self.games)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "opponent": self.opponent,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "capped": self.capped,
            "rate": self.rate,
            "ci95": [low, high],
            "by_seat": {str(s): p for s, p in sorted(self.by_seat.items())},
        }


@dataclass
class Evaluation:
    """Scores of one agent against each opponent."""

    game: str
    players: int
    agent: str
    scores: list[Score]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "agent": self.agent,
            "scores": [s.to_json() for s in self.scores],
        }

    def markdown(self) -> str:
        rows = ["| agent | opponent | games | win rate | 95% interval | draws | capped |"]
        rows.append("|---|---|---:|---:|---|---:|---:|")
        for s in self.scores:
            low, high = s.interval
            rows.append(
                f"| {self.agent} | {s.opponent} | {s.games} | {s.rate:.1%} |"
                f" {low:.1%}-{high:.1%} | {s.draws} | {s.capped} |"
            )
        return "\n".join(rows)


def evaluate(
    policy: Any,
    game: str,
    opponents: Sequence[str] = DEFAULT_OPPONENTS,
    games: int = 100,
    *,
    players: int | None = None,
    seed: int = 0,
    name: str | None = None,
    history: bool = False,
    **options: Any,
) -> Evaluation:
    """Play ``games`` games against each opponent (see the module docstring); ``history``
    feeds a tensor policy the perfect-recall observation (``history=True`` of the envs)."""
    rules = load(game)
    count = rules.player_counts[0] if players is None else players
    options.setdefault("max_turns", common.default_max_turns(game))
    agent = _agent(policy, rules, count, options, history)
    scores = []
    for opponent in opponents:
        score = Score(opponent)
        for index in range(games):
            seat = index % count
            state = agent.play(seed + index, seat, opponent)
            _tally(score, state, seat)
        scores.append(score)
    return Evaluation(game, count, name or agent.name, scores)


def _tally(score: Score, state: State, seat: int) -> None:
    outcome = state.outcome
    score.games += 1
    score.capped += outcome is None or outcome.capped
    if outcome is None or outcome.is_draw:  # the decision cap stopped it: no result, a draw
        score.draws += 1
        result = 0.5
    else:
        result = float(seat in outcome.winners)
        score.wins += int(result)
    score.by_seat[seat] = score.by_seat.get(seat, 0.0) + result


# -- agents: one way to play a seat per kind of policy ----------------------------------------


class _Agent:
    """Plays whole games: the agent's seat by its policy, the others by the opponent bot."""

    name = "agent"

    def __init__(self, game: Game, players: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.max_decisions = common.decision_cap(game, players, options, None)

    def play(self, seed: int, seat: int, opponent: str) -> State:
        state = self.start(seed)
        bots = [make_bot(opponent) for _ in range(self.players)]
        rng = Rng(seed ^ 0xE7A1_0A7E)
        while not state.is_over and not common.cut_off(state, self.max_decisions):
            mover = state.to_move[0]
            if mover == seat:
                self.move(state, seat)
            else:
                self.apply(state, mover, bot_move(bots[mover], state, mover, rng))
        return state

    def start(self, seed: int) -> State:
        return self.game.new(self.players, seed, **self.options)

    def apply(self, state: State, seat: int, action: Action) -> None:
        state.apply(seat, action)

    def move(self, state: State, seat: int) -> None:
        raise NotImplementedError


class _BotAgent(_Agent):
    def __init__(self, bot: Any, *args: Any) -> None:
        super().__init__(*args)
        self.bot = bot
        self.name = getattr(bot, "name", type(bot).__name__)
        self._rng = Rng(0x0A6E_17)

    def move(self, state: State, seat: int) -> None:
        state.apply(seat, bot_move(self.bot, state, seat, self._rng))


class _TensorAgent(_Agent):
    """``policy(observation, action_mask) -> int``, fed like the PettingZoo environments."""

    def __init__(
        self, policy: Callable[[np.ndarray, np.ndarray], Any], history: bool, *args: Any
    ) -> None:
        super().__init__(*args)
        self.policy = policy
        self.name = getattr(policy, "__name__", "policy")
        self._tensors = SeatTensors(
            self.game, self.players, self.options.get("max_turns"), self.max_decisions, history
        )
        self._ids = self.game.action_table.ids

    def move(self, state: State, seat: int) -> None:
        observation = self._tensors.tensor(state, seat)
        mask = np.zeros(self.game.num_actions, np.int8)
        mask[[self._ids[a] for a in state.legal_actions(seat)]] = 1
        index = int(self.policy(observation, mask))
        state.apply(seat, self.game.action_at(index))


class _OpenSpielAgent(_Agent):
    """An OpenSpiel agent or policy: the game is played through the OpenSpiel adapter, so it
    sees exactly the tensors and states it was trained on."""

    def __init__(self, policy: Any, *args: Any) -> None:
        super().__init__(*args)
        from . import openspiel

        self.policy = policy
        self.name = type(policy).__name__
        self.spiel_game = openspiel.load_game(
            self.game.id, players=self.players, **_flat(self.game, self.options)
        )
        self._seed_digits = openspiel.seed_digits
        self._spiel_state: Any = None

    def start(self, seed: int) -> State:
        spiel_state = self.spiel_game.new_initial_state()
        for digit in self._seed_digits(seed):
            spiel_state.apply_action(digit)
        self._spiel_state = spiel_state
        return spiel_state.intrigue_state

    def apply(self, state: State, seat: int, action: Action) -> None:
        self._spiel_state.apply_action(self.game.action_index(action))

    def move(self, state: State, seat: int) -> None:
        spiel_state = self._spiel_state
        if hasattr(self.policy, "action_probabilities"):
            probs = self.policy.action_probabilities(spiel_state, seat)
            action = max(probs, key=lambda a: (probs[a], -a))
        else:  # an rl_agent plays the seat it is told (its player_id), greedily
            owner = self.policy.player_id
            self.policy.player_id = seat
            try:
                step = self.policy.step(_time_step(spiel_state, self.players), is_evaluation=True)
            finally:
                self.policy.player_id = owner
            action = step.action
        spiel_state.apply_action(int(action))


def _time_step(spiel_state: Any, players: int) -> Any:
    """The `rl_environment.TimeStep` an OpenSpiel agent expects at a decision."""
    from open_spiel.python import rl_environment

    player = spiel_state.current_player()
    observations = {
        "info_state": [spiel_state.information_state_tensor(p) for p in range(players)],
        "legal_actions": [
            spiel_state.legal_actions(p) if p == player else [] for p in range(players)
        ],
        "current_player": player,
        "serialized_state": [],
    }
    return rl_environment.TimeStep(
        observations=observations,
        rewards=[0.0] * players,
        discounts=[1.0] * players,
        step_type=rl_environment.StepType.MID,
    )


def _flat(game: Game, options: dict[str, Any]) -> dict[str, Any]:
    """Options as OpenSpiel parameters (lists ';'-joined)."""
    flat = {}
    for option in game.options:
        value = options.get(option.name)
        if value is None:
            continue
        flat[option.name] = (
            common.LIST_SEPARATOR.join(map(str, value)) if isinstance(value, list) else value
        )
    return flat


class AlwaysEnd:
    """The trivial policy: ``end`` whenever it is legal, else the legal action with the lowest
    index. In Project Assassination it beats a uniformly random player almost always (the
    random seat walks into enemies), which is why "beats random" measures nothing there."""

    name = "always-end"
    END = Action("end")

    def choose(self, view: dict[str, Any], legal_actions: list[Action], rng: Any) -> Action:
        if self.END in legal_actions:
            return self.END
        return min(legal_actions, key=_index_of(view["game"]))


def _index_of(game_id: str) -> Callable[[Action], int]:
    return load(game_id).action_table.ids.__getitem__


def _agent(
    policy: Any, game: Game, players: int, options: dict[str, Any], history: bool = False
) -> _Agent:
    args = (game, players, options)
    if policy == AlwaysEnd.name:
        policy = AlwaysEnd()
    if isinstance(policy, str):
        agent: _Agent = _BotAgent(make_bot(policy), *args)
        agent.name = policy
        return agent
    if hasattr(policy, "choose"):
        return _BotAgent(policy, *args)
    if hasattr(policy, "action_probabilities") or (
        hasattr(policy, "step") and hasattr(policy, "player_id")
    ):
        return _OpenSpielAgent(policy, *args)
    if callable(policy):
        return _TensorAgent(policy, history, *args)
    raise TypeError(f"not a policy: {policy!r} (see intrigue.interop.evaluation)")


def random_policy(seed: int = 0) -> Callable[[np.ndarray, np.ndarray], int]:
    """A policy(observation, mask) that plays uniformly among the legal actions."""
    stream = random.Random(seed)

    def uniform(observation: np.ndarray, mask: np.ndarray) -> int:
        return int(stream.choice(np.flatnonzero(mask)))

    return uniform
