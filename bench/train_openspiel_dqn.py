"""Worked example: OpenSpiel's DQN (PyTorch) learns a game through the OpenSpiel adapter,
against `medium`.

    .venv/bin/python bench/train_openspiel_dqn.py                    # Project Assassination
    .venv/bin/python bench/train_openspiel_dqn.py --episodes 5000 --seed 1 --json

Run by hand, not in CI (minutes of CPU; it keeps to one thread). The game is loaded with
``pyspiel.load_game`` and played with OpenSpiel's ``rl_environment``: the learner (OpenSpiel's
``pytorch.dqn.DQN``, fed the information-state tensor and legal actions) takes one seat, its
seat alternating every episode; the other seat is the `medium` bot, which sees only its own
view. Before and after training the script scores the agent with `intrigue.interop.evaluate`
(the same OpenSpiel agent object, greedy) against `medium` and `random`, beside the
mask-only control. Everything is seeded (`--seed`).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import dqn

from intrigue.bots import make_bot
from intrigue.bots.match import bot_move
from intrigue.engine import Rng
from intrigue.interop import evaluate
from intrigue.interop import openspiel as adapter
from intrigue.interop.evaluation import Evaluation

DECISIONS_PER_EPISODE = 21  # the learner's decisions in a Project Assassination game, roughly


def train(agent: dqn.DQN, env: rl_environment.Environment, args: argparse.Namespace) -> int:
    """Play ``args.episodes`` episodes, the agent on seat ``episode % players``; returns the
    number of the agent's decisions."""
    bot = make_bot(args.opponent)
    rng = Rng(args.seed)
    players = env.num_players
    decisions = 0
    for episode in range(args.episodes):
        agent.player_id = episode % players
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            if player == agent.player_id:
                action = agent.step(time_step).action
                decisions += 1
            else:
                state = env.get_state.intrigue_state
                move = bot_move(bot, state, player, rng)
                action = state.game.action_index(move)
            time_step = env.step([action])
        agent.step(time_step)  # the final reward reaches the replay buffer
    return decisions


def score(agent: Any, args: argparse.Namespace, name: str) -> Evaluation:
    return evaluate(
        agent,
        args.game,
        opponents=tuple(args.opponents),
        games=args.eval_games,
        seed=10_000 + args.seed,
        name=name,
        max_turns=args.max_turns,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="project-assassination")
    parser.add_argument("--opponent", default="medium")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--max-turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--opponents", nargs="+", default=["medium", "random"])
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--epsilon-end", type=float, default=0.05)
    parser.add_argument("--learn-every", type=int, default=4, help="decisions per update")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)
    game = adapter.load_game(args.game, max_turns=args.max_turns)
    env = rl_environment.Environment(game, seed=args.seed)
    agent = dqn.DQN(
        player_id=0,
        state_representation_size=game.information_state_tensor_size(),
        num_actions=game.num_distinct_actions(),
        hidden_layers_sizes=[256, 256],
        replay_buffer_capacity=50_000,
        batch_size=64,
        learning_rate=args.learning_rate,
        optimizer_str="adam",
        # OpenSpiel 2.x decays epsilon exponentially by default: with the duration set to the
        # whole run it still explores 43% of the time at the end, so the greedy policy is
        # learned from near-random play that rarely reaches the late game. Decay linearly
        # to `--epsilon-end` over the first half of the run (about 21 decisions an episode).
        epsilon_decay_schedule_str="linear",
        epsilon_end=args.epsilon_end,
        epsilon_decay_duration=args.episodes * DECISIONS_PER_EPISODE // 2,
        learn_every=args.learn_every,
        min_buffer_size_to_learn=1000,
        seed=args.seed,
    )
    control = score("random", args, "mask-only (random legal)")
    before = score(agent, args, "untrained")
    start, cpu_start = time.perf_counter(), time.process_time()
    decisions = train(agent, env, args)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    after = score(agent, args, f"dqn {args.episodes} episodes")
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
