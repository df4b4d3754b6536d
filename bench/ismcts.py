"""Benchmark: ISMCTS iterations per second and decision time, per registered game.

Run by hand (``.venv/bin/python bench/ismcts.py [--game ID] [--decisions N]``); figures are
recorded in docs/performance.md. Each decision is taken at a position reached by seeded random
play, by a bot with the default budget; iterations per second = total iterations / total time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import intrigue
from intrigue.bots.ismcts import ISMCTSBot
from intrigue.bots.match import bot_move
from intrigue.engine import Rng, State, game_ids

MAX_TURNS = {"masquerade-murder": 15}


def position(game_id: str, seed: int) -> State:
    """A mid-game position reached by seeded random play."""
    game = intrigue.load(game_id)
    state = game.new(None, seed, max_turns=MAX_TURNS.get(game_id, 60))
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 40)):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    if state.is_over:
        return position(game_id, seed + 1000)
    return state


def measure(game_id: str, decisions: int, iterations: int) -> dict[str, float]:
    times, counts = [], []
    for seed in range(decisions):
        state = position(game_id, seed)
        seat = state.to_move[0]
        bot = ISMCTSBot(iterations=iterations)
        start = time.perf_counter()
        bot_move(bot, state, seat, Rng(seed))
        times.append(time.perf_counter() - start)
        counts.append(bot.last_iterations)
    return {
        "iterations_per_second": sum(counts) / sum(times),
        "decision_seconds_median": statistics.median(times),
        "decision_seconds_max": max(times),
        "iterations": iterations,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="game id (default: every game)")
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=ISMCTSBot().iterations)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results = {g: measure(g, args.decisions, args.iterations) for g in args.game or game_ids()}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{'game':24} {'it/s':>10} {'median decision':>16} {'max decision':>13}")
    for game_id, r in results.items():
        print(
            f"{game_id:24} {r['iterations_per_second']:10.0f} "
            f"{r['decision_seconds_median']:15.3f}s {r['decision_seconds_max']:12.3f}s"
        )


if __name__ == "__main__":
    main()
