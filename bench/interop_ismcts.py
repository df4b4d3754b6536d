"""Benchmark: intrigue's ISMCTS against OpenSpiel's Python ISMCTS on the same games.

Run by hand (``.venv/bin/python bench/interop_ismcts.py [--game ID] [--games N]``); figures
are recorded in docs/interop.md. Needs the ``openspiel`` extra.

1. **Speed.** At positions reached by seeded random play, each bot searches with a fixed
   budget: intrigue's `ISMCTSBot` through `bots.match.bot_move` (determinizations from
   ``State.determinize``, random rollouts on the engine), OpenSpiel's
   ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` through the adapter (determinizations
   from ``resample_from_infostate``, which calls the same ``determinize``, and
   ``RandomRolloutEvaluator`` rollouts through pybind). Iterations per second = iterations /
   wall time.
2. **Head to head at equal time.** Intrigue's bot gets ``--seconds`` per decision; OpenSpiel's
   bot gets the number of simulations it runs in that time at the measured rate. Seats
   alternate between the bots game by game (even seats, then odd seats); a bot's win rate is
   the share of its seat-games won (Masquerade Murder's teams can make both bots win).

Both use UCB with the same exploration (intrigue: 0.7 on returns scaled to [0, 1]; OpenSpiel:
``uct_c`` 1.4 on returns in [-1, 1]) and random rollouts to the end of the game (intrigue's
``rollout="random"``: the plain algorithm, without the heuristic guidance of ``hard``).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import intrigue
from intrigue.bots.ismcts import ISMCTSBot
from intrigue.bots.match import bot_move
from intrigue.engine import Rng, State
from intrigue.interop import openspiel as adapter

MAX_TURNS = {"masquerade-murder": 3, "project-assassination": 20}
EXPLORATION = 0.7


def position(game_id: str, seed: int) -> State:
    """A mid-game position reached by seeded random play."""
    game = intrigue.load(game_id)
    state = game.new(None, seed, max_turns=MAX_TURNS.get(game_id, 6))
    rng = random.Random(seed)
    for _ in range(rng.randrange(3, 25)):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    if state.is_over or len(state.legal_actions(state.to_move[0])) < 2:
        return position(game_id, seed + 1000)
    return state


def openspiel_bot(game: Any, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2 * EXPLORATION,
        max_simulations=max(1, simulations),
        random_state=np.random.RandomState(seed),
    )
    bot.set_resampler(adapter.resampler(seed))
    return bot


def speed(game_id: str, positions: int, iterations: int) -> dict[str, float]:
    """Iterations per second of both bots at the same positions."""
    game = adapter.load_game(game_id, max_turns=MAX_TURNS.get(game_id, 6))
    own_time = os_time = 0.0
    own_iters = os_iters = 0
    for seed in range(positions):
        state = position(game_id, seed)
        seat = state.to_move[0]
        # Masquerade Murder's belief tables are computed at a position's first determinization
        # and cached for the process: pay that before timing, or whichever bot ran first would.
        state.determinize(seat, Rng(seed))
        bot = ISMCTSBot(iterations=iterations, exploration=EXPLORATION, rollout="random")
        start = time.perf_counter()
        bot_move(bot, state, seat, Rng(seed))
        own_time += time.perf_counter() - start
        own_iters += bot.last_iterations
        os_state = game.adopt(state.clone())
        start = time.perf_counter()
        openspiel_bot(game, iterations, seed).step(os_state)
        os_time += time.perf_counter() - start
        os_iters += iterations
    return {"intrigue_it_per_s": own_iters / own_time, "openspiel_it_per_s": os_iters / os_time}


def play(game_id: str, seconds: float, os_simulations: int, seed: int, own_seats: set[int]) -> Any:
    """One game: intrigue's bot on ``own_seats``, OpenSpiel's on the others."""
    game = adapter.load_game(game_id, max_turns=MAX_TURNS.get(game_id, 6))
    state = game.new_initial_state()
    for digit in adapter.seed_digits(random.Random(seed).getrandbits(64)):
        state.apply_action(digit)
    own = ISMCTSBot(iterations=10**9, seconds=seconds, exploration=EXPLORATION, rollout="random")
    other = openspiel_bot(game, os_simulations, seed)
    rng = Rng(seed)
    while not state.is_terminal():
        seat = state.current_player()
        if seat in own_seats:
            action = bot_move(own, state.intrigue_state, seat, rng)
            state.apply_action(game.spec.game.action_index(action))
        else:
            state.apply_action(int(other.step(state)))
    return state.intrigue_state.outcome


def head_to_head(game_id: str, games: int, seconds: float, os_rate: float) -> dict[str, float]:
    players = intrigue.load(game_id).player_counts[0]
    simulations = max(1, round(os_rate * seconds))
    wins = {"intrigue": 0, "openspiel": 0}
    seat_games = {"intrigue": 0, "openspiel": 0}
    draws = 0
    for g in range(games):
        # Alternate which seats each bot holds: even seats one game, odd seats the next.
        own_seats = {s for s in range(players) if s % 2 == g % 2}
        outcome = play(game_id, seconds, simulations, 1000 + g, own_seats)
        draws += not outcome.winners
        for seat in range(players):
            who = "intrigue" if seat in own_seats else "openspiel"
            seat_games[who] += 1
            wins[who] += seat in outcome.winners
    return {
        "games": games,
        "seconds_per_decision": seconds,
        "openspiel_simulations": simulations,
        "intrigue_win_rate": wins["intrigue"] / seat_games["intrigue"],
        "openspiel_win_rate": wins["openspiel"] / seat_games["openspiel"],
        "draws": draws / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="game id (default: MM and PA)")
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=0.05)
    args = parser.parse_args()
    results = {}
    for game_id in args.game or ["project-assassination", "masquerade-murder"]:
        rates = speed(game_id, args.positions, args.iterations)
        duel = (  # --games 0: speed only
            head_to_head(game_id, args.games, args.seconds, rates["openspiel_it_per_s"])
            if args.games > 0
            else {}
        )
        results[game_id] = {**rates, **duel}
        print(json.dumps({game_id: results[game_id]}), flush=True)


if __name__ == "__main__":
    main()
