"""Fit how `hard` reads the clans' public play in Shadows over Japan (``FITTED`` in
``src/intrigue/bots/heuristics/shadows_over_japan.py``).

    .venv/bin/python bench/fit_noble_reading.py --players 3 --games 150 --seed 2000

Games of `medium` against itself (the heuristic, seeded); every ``--stride``-th position gives
one sample for the seat to move, if the claims leave it more than one Noble assignment: the
signs each other clan gave about each Noble so far (`sign_walk`), per assignment, and which
assignment is true. The weights are those of a conditional logit (the true assignment's chance
among the allowed ones is proportional to exp(weights · its signs)), fitted by Newton's method
with the harms held at log ``SELF_HARM``. Printed: the weights to paste, and on held-out games
(``--test`` games from ``--seed + 1000``) the mean log-chance of the true assignment and how
often it alone is the likeliest: for the claims alone, the old harms-only reading, the
shipped weights (with ``STRAY``) and the fit.
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np

import intrigue
from intrigue.bots.heuristics import shadows_over_japan as japan
from intrigue.games.shadows_over_japan.belief import consistent_nobles

Group = tuple[np.ndarray, int]  # signs of every allowed assignment, index of the true one


def medium_game(players: int, seed: int) -> object:
    """A whole game of the heuristic against itself."""
    state = intrigue.load("shadows-over-japan").new(players, seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, japan.rollout_policy(state, seat, state.legal_actions(seat), rng))
    return state


def groups(players: int, seeds: range, stride: int) -> list[Group]:
    """The samples of the games played with ``seeds``."""
    out = []
    for seed in seeds:
        game = medium_game(players, seed)
        tally = [[[0] * 4 for _ in japan.SIGNS] for _ in range(players)]
        truth = tuple(game.nobles)  # type: ignore[attr-defined]
        for step, replay in japan.sign_walk(game, tally):
            if step % stride or replay.phase in ("setup", "over") or replay.is_over:
                continue
            seat = replay.to_move[0]
            allowed = consistent_nobles(replay, seat)
            if len(allowed) < 2:
                continue
            signs = range(len(japan.SIGNS))
            rows = [
                [sum(tally[s][i][n] for s, n in enumerate(a) if s != seat) for i in signs]
                for a in allowed
            ]
            out.append((np.array(rows, float), allowed.index(truth)))
    return out


def log_chances(weights: np.ndarray, data: list[Group], stray: float = 0.0) -> tuple[float, float]:
    """Mean log-chance of the true assignment (``stray`` of the chance shared evenly, as
    `noble_odds` does), and how often it alone is the likeliest."""
    total, top = 0.0, 0
    for rows, truth in data:
        z = rows @ weights
        z -= z.max()
        p = np.exp(z) / np.exp(z).sum()
        total += math.log((1.0 - stray) * p[truth] + stray / len(p))
        top += int(z[truth] == 0.0 and (z == 0.0).sum() == 1)
    return total / len(data), top / len(data)


def fit(
    data: list[Group], fixed: dict[int, float], ridge: float = 1.0, steps: int = 30
) -> np.ndarray:
    """Newton's method on the conditional logit's log-likelihood less ``ridge`` times the
    free weights' squares (so that a sign that happens to separate the samples keeps a
    finite weight), ``fixed`` weights held."""
    dim = len(japan.SIGNS)
    free = [i for i in range(dim) if i not in fixed]
    weights = np.zeros(dim)
    for i, value in fixed.items():
        weights[i] = value
    for _ in range(steps):
        grad, hess = -2 * ridge * weights, -2 * ridge * np.eye(dim)
        for rows, truth in data:
            z = rows @ weights
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ rows
            grad += rows[truth] - mean
            hess -= (rows * p[:, None]).T @ rows - np.outer(mean, mean)
        weights[free] -= np.linalg.solve(hess[np.ix_(free, free)], grad[free])
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--test", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--stride", type=int, default=4)
    args = parser.parse_args()
    train = groups(args.players, range(args.seed, args.seed + args.games), args.stride)
    test = groups(args.players, range(args.seed + 1000, args.seed + 1000 + args.test), args.stride)
    harm = math.log(japan.SELF_HARM)
    fixed = {i: harm for i, sign in enumerate(japan.SIGNS) if sign in japan.HARMS}
    weights = fit(train, fixed)
    claims = np.zeros(len(japan.SIGNS))
    harms_only = np.array([fixed.get(i, 0.0) for i in range(len(japan.SIGNS))])
    print(f"samples: {len(train)} to fit, {len(test)} held out")
    shipped = np.array(japan.SIGN_WEIGHTS)
    readings = {"claims only": claims, "harms only": harms_only, "shipped": shipped}
    for name, w in {**readings, "fitted": weights}.items():
        mean, top = log_chances(w, test, japan.STRAY if name == "shipped" else 0.0)
        print(f"{name:12s} mean log-chance of the truth {mean:+.3f}, likeliest {top:.1%}")
    print("FITTED = {")
    for i, sign in enumerate(japan.SIGNS):
        if i not in fixed:
            print(f'    "{sign}": {weights[i]:.3f},')
    print("}")


if __name__ == "__main__":
    main()
