"""Train the `expert` level's evaluation by expert iteration on games of the search itself.

Run by hand, one process, at low priority (``nice -n 19 .venv/bin/python bench/train_expert.py
--game ID --seed S``); it writes ``src/intrigue/bots/weights/<game>.json`` (the model, the
command line, the seed, the settings and each round's figures), which `ExpertBot` loads.

Each round:

1. plays ``--games`` seeded games of the current `expert` against itself (``--iterations``
   per decision, fewer than play's 400 to save time: the targets only need to be better than
   the evaluation's own guess);
2. records, at every decision with a choice, every seat's ``features`` of the position and a
   target: for the seat deciding, ``--mix`` times the search's value of the move it played
   (the search-improved estimate) plus the rest times its final result; for the others their
   result;
3. fits the model (`intrigue.bots.expert.ValueModel`: the logistic features plus ``--hidden``
   tanh units) on every round's samples so far, minimising cross-entropy with soft targets by
   full-batch Adam, from the current weights, for each number of hidden units and penalty
   listed; the last quarter of the games is held out and the fit with the lowest held-out
   loss is the candidate;
4. plays ``--match`` games of the candidate against the current model (seats swapped game by
   game, same iterations) and keeps the candidate if it scores at least one half.

Round 0's model is `hard`'s own evaluation (the game's ``WEIGHTS``, hidden units silent).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np

import intrigue
from fit_values import log_loss  # bench/fit_values.py, beside this script
from intrigue.bots.expert import ExpertBot, ValueModel, feature_module, weights_path
from intrigue.bots.match import bot_move, play_match
from intrigue.engine import Rng
from intrigue.lab.arena import seat_result

# The caps the arena measurements use (docs/bots.md).
MAX_TURNS = {"masquerade-ball": 200, "project-assassination": 60, "shadows-over-japan": 8}


def self_play(
    game_id: str, model: ValueModel, seed: int, players: int, iterations: int, mix: float
) -> tuple[list[list[float]], list[float]]:
    """One game of the expert against itself: feature rows and their targets."""
    features = feature_module(game_id).features
    options = {"max_turns": MAX_TURNS[game_id]} if game_id in MAX_TURNS else {}
    state = intrigue.load(game_id).new(players, seed, **options)
    # The whole budget a move (early=0): the played move's value is a training target.
    bots = [ExpertBot(iterations=iterations, model=model, early=0) for _ in range(players)]
    rng = Rng(seed ^ 0x5EED_B075)
    rows: list[tuple[int, list[float], float | None]] = []
    while not state.is_over:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        if len(legal) < 2:
            state.apply(seat, legal[0])
            continue
        before = [features(state, s) for s in range(players)]
        action = bot_move(bots[seat], state, seat, rng, legal=legal)
        rows += [(s, f, bots[seat].last_value if s == seat else None) for s, f in enumerate(before)]
        state.apply(seat, action)
    x, y = [], []
    for s, f, value in rows:
        result = seat_result(state, s)
        x.append(f)
        y.append(result if value is None else mix * value + (1 - mix) * result)
    return x, y


def stack(games: list[tuple[list[list[float]], list[float]]]) -> tuple[np.ndarray, np.ndarray]:
    """The games' feature rows and targets as arrays."""
    x = [row for rows, _ in games for row in rows]
    y = [target for _, targets in games for target in targets]
    return np.array(x, dtype=float), np.array(y, dtype=float)


def held_out_loss(model: ValueModel, x: np.ndarray, y: np.ndarray) -> float:
    return log_loss(1 / (1 + np.exp(-model.logits(x))), y)


def fit(
    start: ValueModel, x: np.ndarray, y: np.ndarray, hidden: int, l2: float, steps: int, seed: int
) -> ValueModel:
    """Cross-entropy with soft targets plus an L2 penalty, by full-batch Adam from ``start``."""
    rng = np.random.default_rng(seed)
    d = x.shape[1]
    if len(start.out) == hidden and np.any(start.out):
        big = start.hidden.copy()
        params = [start.w.copy(), big, start.shift.copy(), start.out.copy(), np.array(start.bias)]
    else:  # hidden units start random and silent: the model starts as ``start``'s logistic
        big = rng.normal(0.0, 0.5, (hidden, d))
        params = [start.w.copy(), big, np.zeros(hidden), np.zeros(hidden), np.array(start.bias)]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    n = len(y)
    for t in range(1, steps + 1):
        w, big, c, v, b = params
        h = np.tanh(x @ big.T + c)
        p = 1 / (1 + np.exp(-(x @ w + h @ v + b)))
        g = (p - y) / n
        dh = np.outer(g, v) * (1 - h * h)
        grads = [x.T @ g + l2 * w, dh.T @ x + l2 * big, dh.sum(0), h.T @ g + l2 * v, g.sum()]
        for i, grad in enumerate(grads):
            moments[i] = 0.9 * moments[i] + 0.1 * grad
            squares[i] = 0.999 * squares[i] + 0.001 * grad * grad
            step = (
                0.01 * (moments[i] / (1 - 0.9**t)) / (np.sqrt(squares[i] / (1 - 0.999**t)) + 1e-8)
            )
            params[i] = params[i] - step
    w, big, c, v, b = params
    return ValueModel(w, big, c, v, float(b))


def match(game_id: str, a: ValueModel, b: ValueModel, games: int, seed: int, args: Any) -> float:
    """``a``'s mean result against ``b`` over ``games`` games, seats swapped game by game."""
    options = {"max_turns": MAX_TURNS[game_id]} if game_id in MAX_TURNS else {}
    total = 0.0
    for i in range(games):
        bots = [ExpertBot(iterations=args.iterations, model=m) for m in (a, b)]
        seat = i % 2
        if seat:
            bots.reverse()
        state = play_match(game_id, bots, seed + i, args.players, options)
        total += seat_result(state, seat)
    return total / games


def command(args: argparse.Namespace) -> str:
    """The command line that reproduces this run, every setting spelled out."""
    options = {k: v for k, v in vars(args).items() if k not in ("out", "samples")}
    flags = " ".join(f"--{k} {v}" for k, v in options.items())
    return f"nice -n 19 .venv/bin/python bench/train_expert.py {flags}"


def save(args: argparse.Namespace, history: list[Any], model: ValueModel, cpu: float) -> None:
    """Write the weights file: the model with the command, seed, settings and rounds."""
    out = weights_path(args.game) if args.out is None else args.out
    payload = {
        "game": args.game,
        "command": command(args),
        "seed": args.seed,
        "settings": {k: v for k, v in vars(args).items() if k not in ("game", "out", "samples")},
        "rounds": history,
        "cpu_seconds": round(cpu, 1),
        "model": model.to_json(),
    }
    with open(out, "w") as handle:
        json.dump(payload, handle, indent=1)
        handle.write("\n")
    print(f"wrote {out}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--games", type=int, default=40, help="self-play games per round")
    parser.add_argument("--iterations", type=int, default=100, help="search per decision")
    parser.add_argument("--mix", type=float, default=0.5, help="search value's share of a target")
    parser.add_argument("--hidden", default="0,4,8", help="hidden units to try, comma-separated")
    parser.add_argument("--l2", default="0.001,0.01,0.1", help="penalties to try")
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--match", type=int, default=20, help="games of candidate vs current")
    parser.add_argument("--out", default=None, help="default: the package's weights file")
    parser.add_argument("--samples", default=None, help="also save the samples here (.npz)")
    args = parser.parse_args()
    module = feature_module(args.game)
    if module is None:
        raise SystemExit(f"{args.game} has no features/WEIGHTS to start from")
    current = ValueModel.linear(module.WEIGHTS)
    games: list[tuple[list[list[float]], list[float]]] = []
    history = []
    started = time.process_time()
    for round_ in range(args.rounds):
        base = args.seed + 10_000 * round_
        for i in range(args.games):
            games.append(
                self_play(args.game, current, base + i, args.players, args.iterations, args.mix)
            )
            cpu = time.process_time() - started
            print(f"round {round_} game {i}: {len(games[-1][1])} rows, {cpu:.0f} s", flush=True)
        cut = len(games) - max(1, len(games) // 4)
        x, y = stack(games[:cut])
        hx, hy = stack(games[cut:])
        if args.samples:
            np.savez_compressed(args.samples, x=x, y=y, hx=hx, hy=hy)
        fits = [
            fit(current, x, y, int(h), float(l2), args.steps, base)
            for h in args.hidden.split(",")
            for l2 in args.l2.split(",")
        ]
        candidate = min(fits, key=lambda m: held_out_loss(m, hx, hy))
        score = match(args.game, candidate, current, args.match, base + 5000, args)
        record = {
            "round": round_,
            "samples": len(y),
            "held_out": len(hy),
            "held_out_loss_current": round(held_out_loss(current, hx, hy), 4),
            "held_out_loss_candidate": round(held_out_loss(candidate, hx, hy), 4),
            "held_out_loss_constant": round(log_loss(np.full_like(hy, y.mean()), hy), 4),
            "candidate_hidden": len(candidate.out),
            "match_games": args.match,
            "candidate_score": score,
            "kept": score >= 0.5,
            "cpu_seconds": round(time.process_time() - started, 1),
        }
        print(json.dumps(record), flush=True)
        history.append(record)
        if score >= 0.5:
            current = candidate
        save(args, history, current, time.process_time() - started)  # a checkpoint each round


if __name__ == "__main__":
    main()
