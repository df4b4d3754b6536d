"""Worked example: sb3-contrib's MaskablePPO learns one seat of a game against `medium`.

    .venv/bin/python bench/train_maskable_ppo.py                   # Project Assassination
    .venv/bin/python bench/train_maskable_ppo.py --steps 800000 --opponents medium --json
    .venv/bin/python bench/train_maskable_ppo.py --net 64 64 --ent-coef 0 --batch-size 64  # SB3's

Run by hand, not in CI: training is CPU-heavy (it keeps to one thread, but takes minutes).
The learner plays `SingleAgentEnv` (its seat rotates every episode, the other seat is the
`medium` bot) with the game's own observation tensor and action mask. Before and after
training the script scores it with `intrigue.interop.evaluate` against `medium` (and
`random`), beside the mask-only control (uniformly random legal actions), so the reported
number says what the tensors taught. Everything is seeded (`--seed`): the same command on the
same machine gives the same numbers (docs/interop.md keeps a run).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from intrigue.interop import evaluate
from intrigue.interop.evaluation import Evaluation
from intrigue.interop.gymnasium import SingleAgentEnv


def model_policy(model: MaskablePPO) -> Any:
    """The trained model as an evaluation policy: its greedy action among the legal ones."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(observation, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    policy.__name__ = "maskable-ppo"
    return policy


def score(policy: Any, args: argparse.Namespace, name: str) -> Evaluation:
    return evaluate(
        policy,
        args.game,
        opponents=tuple(args.opponents),
        games=args.eval_games,
        seed=10_000 + args.seed,  # deals the learner never trained on
        name=name,
        max_turns=args.max_turns,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="project-assassination")
    parser.add_argument("--opponent", default="medium", help="the bot it trains against")
    parser.add_argument("--steps", type=int, default=100_000, help="learner decisions")
    parser.add_argument("--max-turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--opponents", nargs="+", default=["medium", "random"])
    # Beside SB3's defaults (64x64, no entropy bonus, batches of 64) these learned faster in
    # the recorded runs (docs/interop.md): a 1,424-wide tensor, 853 actions, ~20 decisions a game.
    parser.add_argument("--net", type=int, nargs="+", default=[256, 256], help="hidden layers")
    parser.add_argument("--ent-coef", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--n-steps", type=int, default=2048, help="steps per rollout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    torch.set_num_threads(1)  # a shared 2-core machine: one core for the learner
    env = SingleAgentEnv(args.game, opponent=args.opponent, max_turns=args.max_turns)
    env.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        ent_coef=args.ent_coef,
        policy_kwargs={"net_arch": args.net},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    before = score(model_policy(model), args, "untrained")
    control = score("random", args, "mask-only (random legal)")
    start, cpu_start = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.steps)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    after = score(model_policy(model), args, f"maskable-ppo {args.steps} steps")
    report = {
        "args": vars(args),
        "train_seconds": seconds,
        "train_cpu_seconds": cpu_seconds,
        "results": [e.to_json() for e in (control, before, after)],
    }
    if args.json:
        print(json.dumps(report, indent=1))
        return
    print(f"trained {args.steps} steps in {seconds:.0f} s against {args.opponent}")
    for evaluation in (control, before, after):
        print(evaluation.markdown())


if __name__ == "__main__":
    main()
