"""Fit a game's position evaluation: logistic regression of the result on its features.

Run by hand (``.venv/bin/python bench/fit_values.py --game ID [--games N]``); the printed
``WEIGHTS`` go into the game's heuristic module (``src/intrigue/bots/heuristics/``), whose
``features(state, seat)`` this script reads. Games are seeded self-play of the heuristic policy
with a uniformly random move instead with probability ``--epsilon`` (as in search rollouts);
every ``--stride``-th position gives one sample per seat still deciding the game, labelled with
that seat's result (1 win, 1/2 draw, 0 loss). The last tenth of the games is held out: the
script prints the log-loss and accuracy there against the constant model.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
from typing import Any

import numpy as np

import intrigue
from intrigue.bots.heuristic import search_hooks
from intrigue.bots.heuristics import HEURISTICS
from intrigue.lab.arena import seat_result

MAX_TURNS = {
    "masquerade-murder": 15,
    "masquerade-ball": 200,
    "project-assassination": 60,
    "shadows-over-japan": 200,  # whole games: a cut game scores its early lead as final
}


def samples(
    game_id: str,
    games: int,
    epsilon: float,
    stride: int,
    seed: int,
    max_turns: int | None = None,
    players: int | None = None,
) -> list[Any]:
    """Per game: (feature rows, labels); ``players`` None: the game's fewest."""
    cap = max_turns if max_turns is not None else MAX_TURNS.get(game_id, 60)
    module = importlib.import_module(HEURISTICS[game_id].partition(":")[0])
    game = intrigue.load(game_id)
    policy = search_hooks(game_id).policy  # the heuristic, read from the state when it can
    assert policy is not None
    out = []
    for index in range(games):
        rng = random.Random(seed + index)
        state = game.new(players, seed + index, max_turns=cap)
        seen: list[tuple[int, list[float]]] = []
        step = 0
        while not state.is_over:
            mover = state.to_move[0]
            if step % stride == 0:
                seen += [(s, module.features(state, s)) for s in range(state.players)]
            legal = state.legal_actions(mover)
            if rng.random() < epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                action = policy(state, mover, legal, rng)
            state.apply(mover, action)
            step += 1
        out.append(([f for _, f in seen], [seat_result(state, s) for s, _ in seen]))
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float, steps: int = 50) -> np.ndarray:
    """Logistic regression by Newton's method with a small ridge penalty."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + l2 * w
        hess = (x.T * (p * (1 - p))) @ x + l2 * np.eye(x.shape[1])
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--stride", type=int, default=3)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--players", type=int, help="number of players (default: the fewest)")
    parser.add_argument(
        "--max-turns", type=int, default=None, help="the games' cap (default: per game, above)"
    )
    parser.add_argument(
        "--compare", action="store_true", help="also score the game's current WEIGHTS held out"
    )
    args = parser.parse_args()
    data = samples(
        args.game, args.games, args.epsilon, args.stride, args.seed, args.max_turns, args.players
    )
    cut = len(data) - max(1, len(data) // 10)

    def stack(part: list[Any]) -> tuple[np.ndarray, np.ndarray]:
        xs = [row for rows, _ in part for row in rows]
        ys = [label for _, labels in part for label in labels]
        return np.array(xs, dtype=float), np.array(ys, dtype=float)

    x, y = stack(data[:cut])
    hx, hy = stack(data[cut:])
    w = fit(x, y, args.l2)
    p = 1.0 / (1.0 + np.exp(-(hx @ w)))
    base = np.full_like(hy, y.mean())
    print(f"{len(y)} training samples, {len(hy)} held out ({args.games} games)")
    print(f"held-out log-loss {log_loss(p, hy):.4f} (constant {log_loss(base, hy):.4f})")
    decided = hy != 0.5
    accuracy = np.mean((p[decided] > 0.5) == (hy[decided] > 0.5))
    print(f"held-out accuracy {accuracy:.3f} on {int(decided.sum())} decided samples")
    if args.compare:
        module = importlib.import_module(HEURISTICS[args.game].partition(":")[0])
        current = 1.0 / (1.0 + np.exp(-(hx @ np.array(module.WEIGHTS))))
        right = np.mean((current[decided] > 0.5) == (hy[decided] > 0.5))
        loss = log_loss(current, hy)
        print(f"current WEIGHTS: held-out log-loss {loss:.4f}, accuracy {right:.3f}")
    print("WEIGHTS = (" + ", ".join(f"{v:.4g}" for v in w) + ")")
    if not math.isfinite(float(np.sum(w))):
        raise SystemExit("the fit diverged")


if __name__ == "__main__":
    main()
