"""Benchmark: ISMCTS iterations per second and decision time, per registered game.

Run by hand (``.venv/bin/python bench/ismcts.py [--game ID] [--decisions N] [--bot NAME]``);
figures are recorded in docs/performance.md. Each decision is taken at a position reached by
seeded play (the game's heuristic with one move in four random; 5 to 80 moves in, or
``--moves LO HI``: late positions, where hands and boards are fuller, with ``--max-turns 0``
for the game's own length), with at least two legal moves, by a fresh bot (default:
``hard``, the default search). Iterations per second = total iterations / total time. Times
are wall-clock; ``cpu`` columns are the process's CPU time, which other jobs on a shared
machine disturb less. ``samples`` is the median number of determinizations a decision drew
(fewer than its iterations with ``reuse``), ``sampling`` the share of CPU time spent drawing
them (with the game's ``resample`` hook, a reading of the public play, its draws and its
reading count too); ``moves in`` the median number of moves played before a decision;
``choices`` a digest of the moves chosen (a speed-up that must not change play keeps it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
from dataclasses import replace
from typing import Any

import intrigue
from intrigue.bots import make_bot
from intrigue.bots.heuristic import SearchHooks, policy_for
from intrigue.engine import Rng, State, game_ids

# The caps the arena measurements use (docs/bots.md).
MAX_TURNS = {
    "masquerade-murder": 15,
    "masquerade-ball": 200,
    "project-assassination": 60,
    "shadows-over-japan": 8,
}


def position(
    game_id: str,
    seed: int,
    moves: tuple[int, int] = (5, 80),
    max_turns: int | None = -1,
    players: int | None = None,
) -> State:
    """A position with a real choice, reached by ``moves`` (a range) of seeded heuristic and
    random play; ``max_turns`` -1 is the arena's cap, None the game's own; ``players`` None:
    the fewest."""
    game = intrigue.load(game_id)
    cap = MAX_TURNS.get(game_id, 60) if max_turns == -1 else max_turns
    state = game.new(players, seed, max_turns=cap)
    rng = random.Random(seed)
    policy = policy_for(game_id)
    for _ in range(rng.randrange(*moves)):
        if state.is_over:
            break
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        if policy is None or rng.random() < 0.25:
            state.apply(seat, rng.choice(legal))
        else:
            state.apply(seat, policy(state.view(seat), legal, Rng(seed)))
    if state.is_over or len(state.legal_actions(state.to_move[0])) < 2:
        return position(game_id, seed + 1000, moves, max_turns, players)
    return state


def measure(
    game_id: str,
    decisions: int,
    bot_name: str,
    moves: tuple[int, int] = (5, 80),
    max_turns: int | None = -1,
    players: int | None = None,
) -> dict[str, Any]:
    wall, cpu, counts, samples, depths = [], [], [], [], []
    chosen: list[str] = []
    sampling = [0.0]
    for seed in range(decisions):
        state = position(game_id, seed, moves, max_turns, players)
        depths.append(state.actions_played)
        seat = state.to_move[0]
        bot = make_bot(bot_name)
        drawn = [0]
        _count_reading(bot, drawn, sampling)

        def sampler(rng: Rng, state: State = state, seat: int = seat, drawn: list = drawn) -> State:
            start = time.process_time()
            sample = state.determinize(seat, rng)
            sampling[0] += time.process_time() - start
            drawn[0] += 1
            return sample

        view, legal = state.view(seat), state.legal_actions(seat)
        start, start_cpu = time.perf_counter(), time.process_time()
        action = bot.choose(view, legal, Rng(seed), sampler=sampler)  # type: ignore[call-arg]
        chosen.append(str(action))
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        counts.append(bot.last_iterations)  # type: ignore[attr-defined]
        samples.append(drawn[0])
    return {
        "iterations_per_second": sum(counts) / sum(wall),
        "iterations_per_cpu_second": sum(counts) / sum(cpu),
        "decision_seconds_median": statistics.median(wall),
        "decision_seconds_max": max(wall),
        "decision_cpu_seconds_median": statistics.median(cpu),
        "decision_cpu_seconds_max": max(cpu),
        "iterations": statistics.median(counts),
        "samples": statistics.median(samples),
        "sampling_share": sampling[0] / sum(cpu),
        "moves_in_median": statistics.median(depths),
        "chosen": chosen,
        "chosen_digest": hashlib.sha256("\n".join(chosen).encode()).hexdigest()[:8],
    }


def _count_reading(bot: Any, drawn: list[int], sampling: list[float]) -> None:
    """Count and time the draws of the game's ``resample`` hook too (a search that reads the
    public play asks the driver's sampler once a decision and the hook for the rest), with the
    hook's own reading of the record, as sampling."""
    hooks_of = getattr(bot, "hooks", None)
    if hooks_of is None:
        return

    def hooks(game_id: str) -> SearchHooks:
        found = hooks_of(game_id)
        resample = found.resample
        if resample is None:
            return found

        def counted_resample(sample: State, seat: int, rng: Any) -> Any:
            start = time.process_time()
            draw = resample(sample, seat, rng)
            sampling[0] += time.process_time() - start

            def counted(rng: Any) -> State:
                start = time.process_time()
                world = draw(rng)
                sampling[0] += time.process_time() - start
                drawn[0] += 1
                return world

            return counted

        return replace(found, resample=counted_resample)

    bot.hooks = hooks


def add_moves_argument(parser: argparse.ArgumentParser) -> None:
    """``--moves LO HI``: how far into a game `position` goes."""
    parser.add_argument(
        "--moves", type=int, nargs=2, default=(5, 80), metavar=("LO", "HI"),
        help="moves played before a decision: a seeded number in [LO, HI) (default 5 80)",
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="game id (default: every game)")
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--players", type=int, help="number of players (default: the fewest)")
    parser.add_argument("--bot", default="hard", help="bot name with settings (default hard)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    add_moves_argument(parser)
    parser.add_argument(
        "--max-turns", type=int, default=-1,
        help="the games' cap (default: the arena's; 0: the game's own length)",
    )  # fmt: skip
    args = parser.parse_args()
    cap = None if args.max_turns == 0 else args.max_turns
    moves = (args.moves[0], args.moves[1])
    results = {
        g: measure(g, args.decisions, args.bot, moves, cap, args.players)
        for g in args.game or game_ids()
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    players = "" if args.players is None else f", {args.players} players"
    print(f"{args.bot}, {args.decisions} decisions per game{players}, {moves[0]}-{moves[1]} in")
    print(
        f"{'game':24} {'it/s':>7} {'it/cpu s':>9} {'median':>8} {'max':>7}"
        f" {'median cpu':>11} {'max cpu':>8} {'samples':>8} {'sampling':>9} {'moves in':>9}"
        f" {'choices':>8}"
    )
    for game_id, r in results.items():
        print(
            f"{game_id:24} {r['iterations_per_second']:7.0f} {r['iterations_per_cpu_second']:9.0f}"
            f" {r['decision_seconds_median']:7.3f}s {r['decision_seconds_max']:6.3f}s"
            f" {r['decision_cpu_seconds_median']:10.3f}s {r['decision_cpu_seconds_max']:7.3f}s"
            f" {r['samples']:8.0f} {r['sampling_share']:9.1%} {r['moves_in_median']:9.0f}"
            f" {r['chosen_digest']:>8}"
        )


if __name__ == "__main__":
    main()
