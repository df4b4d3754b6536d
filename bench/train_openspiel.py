"""Worked example: OpenSpiel's PyTorch DQN (or PPO) learns a game through the OpenSpiel adapter,
against `medium`.

    .venv/bin/python bench/train_openspiel.py                       # DQN, Project Assassination
    .venv/bin/python bench/train_openspiel.py --episodes 20000 --eval-games 200 \\
        --opponents medium --json                                   # the recorded run
    .venv/bin/python bench/train_openspiel.py --algorithm ppo --episodes 10000

Run by hand, not in CI (minutes of CPU; it keeps to one thread). The game is loaded with
``pyspiel.load_game`` and played with OpenSpiel's ``rl_environment``: the learner takes one
seat, its seat alternating every episode, fed the information-state tensor and the legal
actions; the other seat is the `medium` bot, which sees only its own view. The learner is
OpenSpiel's ``pytorch.dqn.DQN`` (discount 0.99, Huber loss, learning rate 5e-4, and potential-based
shaping on the VP lead: the settings of the recorded run in docs/interop.md; with discount 1 and no
shaping it did not learn) or ``pytorch.ppo.PPO`` (``--algorithm ppo``: its ``PPOAgent``
network, rollouts of ``--steps-per-batch`` of the learner's decisions). Before and after
training the script scores the learner with `intrigue.interop.evaluate` (DQN greedily, PPO by
its most likely legal action) against `medium` and `random`, beside the mask-only control.
Everything is seeded (`--seed`).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from open_spiel.python import rl_agent, rl_environment
from open_spiel.python.pytorch import dqn, ppo

from intrigue.bots import make_bot
from intrigue.bots.match import bot_move
from intrigue.engine import Rng
from intrigue.games.project_assassination.board import WIN_VP
from intrigue.interop import evaluate
from intrigue.interop import openspiel as adapter
from intrigue.interop.evaluation import Evaluation

DECISIONS_PER_EPISODE = 21  # the learner's decisions in a Project Assassination game, roughly
LEARNING_RATES = {"ppo": 3e-4, "dqn": 5e-4}


class Opponent:
    """The bot on every seat but the learner's, moving until the learner's turn."""

    def __init__(self, env: rl_environment.Environment, name: str, seed: int) -> None:
        self.env = env
        self.bot = make_bot(name)
        self.rng = Rng(seed)

    def advance(self, time_step: Any, seat: int) -> Any:
        """Play the bot's moves from ``time_step`` until ``seat`` is to move or the game ends."""
        while not time_step.last() and time_step.observations["current_player"] != seat:
            state = self.env.get_state.intrigue_state
            player = time_step.observations["current_player"]
            move = bot_move(self.bot, state, player, self.rng)
            time_step = self.env.step([state.game.action_index(move)])
        return time_step


def lead(state: Any, seat: int) -> float:
    """The seat's VP lead over its rival in units of the 12 VP that win (Project Assassination
    keeps VP in ``state.vp``; the capped game's verdict also goes to the most VP)."""
    return (state.vp[seat] - state.vp[1 - seat]) / WIN_VP


class Shaping:
    """Potential-based reward shaping (Ng, Harada and Russell, 1999) on the VP lead, for DQN:
    each of its transitions also earns ``weight`` times the change of `lead` since its previous
    decision, so an episode's shaping sums to ``weight`` times the final lead. Weight 0 leaves
    the game's own terminal reward alone."""

    def __init__(self, weight: float) -> None:
        self.weight = weight
        self.previous = 0.0

    def __call__(self, time_step: Any, state: Any, seat: int) -> Any:
        if not self.weight:
            return time_step
        potential = self.weight * lead(state, seat)
        rewards = list(time_step.rewards or [0.0, 0.0])  # None at the first step
        rewards[seat] += potential - self.previous
        self.previous = potential
        return time_step._replace(rewards=rewards)


def dqn_episode(agent: dqn.DQN, opponent: Opponent, args: argparse.Namespace) -> int:
    """One DQN training episode; returns the agent's decisions."""
    env, seat, shaping = opponent.env, agent.player_id, Shaping(args.shaping)
    decisions = 0
    time_step = opponent.advance(env.reset(), seat)
    while not time_step.last():
        action = agent.step(shaping(time_step, env.get_state.intrigue_state, seat)).action
        time_step = opponent.advance(env.step([action]), seat)
        decisions += 1
    agent.step(shaping(time_step, env.get_state.intrigue_state, seat))  # the final reward
    return decisions


def ppo_episode(agent: ppo.PPO, opponent: Opponent, args: argparse.Namespace) -> int:
    """One PPO training episode (a rollout may span episodes: the agent learns whenever its
    buffer of ``steps_per_batch`` decisions is full); returns the agent's decisions."""
    seat = agent.player_id
    decisions = 0
    time_step = opponent.advance(opponent.env.reset(), seat)
    while not time_step.last():
        action = agent.step([time_step])[0].action
        time_step = opponent.advance(opponent.env.step([action]), seat)
        reward = time_step.rewards[seat] if time_step.last() else 0.0
        agent.post_step([reward], [float(time_step.last())])
        decisions += 1
        if agent.cur_batch_idx == agent.steps_per_batch:
            agent.learn([time_step])
    return decisions


def train(agent: Any, env: rl_environment.Environment, args: argparse.Namespace) -> int:
    """Play ``args.episodes`` episodes, the agent on seat ``episode % players``; returns the
    number of the agent's decisions. With ``--log-every`` it prints the mean game result
    (while exploring, against the opponent, unshaped) to stderr."""
    opponent = Opponent(env, args.opponent, args.seed)
    episode: Callable[..., int] = ppo_episode if args.algorithm == "ppo" else dqn_episode
    decisions = 0
    results: list[float] = []
    for number in range(args.episodes):
        agent.player_id = number % env.num_players
        decisions += episode(agent, opponent, args)
        results.append(env.get_state.returns()[agent.player_id])
        if args.log_every and (number + 1) % args.log_every == 0:
            recent = results[-args.log_every :]
            print(f"{number + 1} episodes: mean result {np.mean(recent):+.3f}", file=sys.stderr)
    return decisions


class Greedy:
    """A PPO agent as an OpenSpiel agent for `evaluate`: the legal action its policy rates
    highest (sb3's ``deterministic=True``), on the seat ``player_id``."""

    def __init__(self, agent: ppo.PPO) -> None:
        self.agent = agent
        self.player_id = 0

    @torch.no_grad()
    def step(self, time_step: Any, is_evaluation: bool = True) -> rl_agent.StepOutput:
        info_state = time_step.observations["info_state"][self.player_id]
        legal = time_step.observations["legal_actions"][self.player_id]
        logits = self.agent.network.actor(torch.tensor([info_state], dtype=torch.float32))[0]
        return rl_agent.StepOutput(action=legal[int(torch.argmax(logits[legal]))], probs=[])


def score(agent: Any, args: argparse.Namespace, name: str) -> Evaluation:
    return evaluate(
        Greedy(agent) if isinstance(agent, ppo.PPO) else agent,
        args.game,
        opponents=tuple(args.opponents),
        games=args.eval_games,
        seed=10_000 + args.seed,
        name=name,
        max_turns=args.max_turns,
    )


def make_ppo(game: Any, args: argparse.Namespace) -> ppo.PPO:
    """OpenSpiel's PyTorch PPO with its small ``PPOAgent`` network (64x64, tanh), settings
    as sb3's PPO defaults: rollouts of 2,048 decisions, 10 epochs, minibatches of 256."""
    return ppo.PPO(
        input_shape=(game.information_state_tensor_size(),),
        num_actions=game.num_distinct_actions(),
        num_players=game.num_players(),
        steps_per_batch=args.steps_per_batch,
        num_minibatches=args.minibatches,
        update_epochs=args.epochs,
        learning_rate=args.learning_rate,
        gamma=args.discount,
        entropy_coef=args.entropy,
        agent_fn=ppo.PPOAgent,
    )


def make_dqn(game: Any, args: argparse.Namespace) -> dqn.DQN:
    """OpenSpiel's PyTorch DQN with the command's hyper-parameters. Epsilon decays linearly
    from ``--epsilon-start`` to ``--epsilon-end`` over ``--decay-fraction`` of the run's
    decisions (estimated at DECISIONS_PER_EPISODE an episode)."""
    decay = int(args.episodes * DECISIONS_PER_EPISODE * args.decay_fraction)
    return dqn.DQN(
        player_id=0,
        state_representation_size=game.information_state_tensor_size(),
        num_actions=game.num_distinct_actions(),
        hidden_layers_sizes=args.hidden,
        replay_buffer_capacity=args.replay_capacity,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        update_target_network_every=args.target_every,
        learn_every=args.learn_every,
        discount_factor=args.discount,
        min_buffer_size_to_learn=args.min_buffer,
        epsilon_start=args.epsilon_start,
        epsilon_end=args.epsilon_end,
        epsilon_decay_duration=max(decay, 1),
        epsilon_decay_schedule_str="linear",
        optimizer_str="adam",
        loss_str=args.loss,
        seed=args.seed,
    )


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add = parser.add_argument
    add("--algorithm", choices=["dqn", "ppo"], default="dqn")
    add("--game", default="project-assassination")
    add("--opponent", default="medium")
    add("--episodes", type=int, default=3000)
    add("--max-turns", type=int, default=60)
    add("--seed", type=int, default=0)
    add("--eval-games", type=int, default=200)
    add("--opponents", nargs="+", default=["medium", "random"])
    add("--learning-rate", type=float, help="default: DQN 5e-4, PPO 3e-4")
    add("--discount", type=float, default=0.99)
    add("--log-every", type=int, default=0, help="episodes per progress line")
    add("--json", action="store_true")
    ppo_options = parser.add_argument_group("PPO")
    ppo_options.add_argument("--steps-per-batch", type=int, default=2048, help="rollout length")
    ppo_options.add_argument("--minibatches", type=int, default=8)
    ppo_options.add_argument("--epochs", type=int, default=10)
    ppo_options.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    options = parser.add_argument_group("DQN").add_argument
    options("--hidden", type=int, nargs="+", default=[256, 256])
    options("--batch-size", type=int, default=64)
    options("--replay-capacity", type=int, default=50_000)
    options("--min-buffer", type=int, default=1000, help="transitions before learning")
    options("--target-every", type=int, default=1000, help="decisions per target copy")
    options("--learn-every", type=int, default=4, help="decisions per update")
    options("--loss", choices=["mse", "huber"], default="huber")
    options("--epsilon-start", type=float, default=1.0)
    options("--epsilon-end", type=float, default=0.05)
    options("--decay-fraction", type=float, default=0.5)
    options("--shaping", type=float, default=1.0, help="weight of the VP lead (0: none)")
    args = parser.parse_args(argv)
    if args.learning_rate is None:
        args.learning_rate = LEARNING_RATES[args.algorithm]
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)
    game = adapter.load_game(args.game, max_turns=args.max_turns)
    env = rl_environment.Environment(game)
    # its chance sampler (the deals): Environment(game, seed=...) passes `seed` on as a game
    # setting, ignored for a loaded game, and leaves the sampler unseeded
    env.seed(args.seed)
    agent = make_ppo(game, args) if args.algorithm == "ppo" else make_dqn(game, args)
    control = score("random", args, "mask-only (random legal)")
    before = score(agent, args, "untrained")
    start, cpu_start = time.perf_counter(), time.process_time()
    decisions = train(agent, env, args)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    after = score(agent, args, f"{args.algorithm} {args.episodes} episodes")
    report = {
        "args": vars(args),
        "train_seconds": seconds,
        "train_cpu_seconds": cpu_seconds,
        "decisions": decisions,
        "results": [e.to_json() for e in (control, before, after)],
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"trained {args.episodes} episodes ({decisions} decisions) in {seconds:.0f} s")
    for evaluation in (control, before, after):
        print(evaluation.markdown())


if __name__ == "__main__":
    main()
