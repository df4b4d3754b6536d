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

3. **A level against OpenSpiel's bot** (``--bot hard``, any bot spec; docs/bots.md): the same
   duel with one of our levels, held to ``--seconds`` a decision (``hard:seconds=S``: its
   search with a time budget instead of its 400 iterations), against OpenSpiel's bot held to
   the same CPU time: each of its decisions runs as many simulations as its CPU rate over
   the decisions before fits (`TimedOpenSpielBot`). Every deal is played twice, the seats
   swapped (``--deals``, from ``--seed``; ``--max-turns``: the cap, default the adapter's).
   Prints one JSON line a game, then the totals.
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
from intrigue.bots import make_bot
from intrigue.bots.ismcts import ISMCTSBot
from intrigue.bots.match import bot_move
from intrigue.engine import Rng, State
from intrigue.interop import openspiel as adapter
from intrigue.interop.common import default_max_turns

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


class TimedOpenSpielBot:
    """OpenSpiel's ISMCTS held to ``seconds`` of CPU a decision: each decision runs as many
    simulations as its rate so far fits (the rate of the decisions before, halved in weight
    at each, starting from ``rate``)."""

    def __init__(self, bot: ismcts.ISMCTSBot, seconds: float, rate: float) -> None:
        self.bot, self.seconds, self.rate = bot, seconds, rate
        self.simulations: list[int] = []

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:  # answered without a search: no time to measure
            return int(legal[0])
        count = max(2, round(self.rate * self.seconds))  # one makes no root visit
        self.bot._max_simulations = count  # the bot reads it at every search
        start = time.process_time()
        action = int(self.bot.step(state))
        spent = time.process_time() - start
        if spent > 0:
            self.rate = 0.5 * self.rate + 0.5 * count / spent
        self.simulations.append(count)
        return action


def level_game(
    game_id: str,
    spec: str,
    seconds: float,
    rate: float,
    deal: int,
    own_seats: set[int],
    max_turns: int,
) -> dict[str, Any]:
    """One game of the deal ``deal``: ``spec`` held to ``seconds`` a decision on ``own_seats``,
    OpenSpiel's bot on the others, held to the same CPU time."""
    game = adapter.load_game(game_id, max_turns=max_turns)
    state = game.new_initial_state()
    for digit in adapter.seed_digits(random.Random(deal).getrandbits(64)):
        state.apply_action(digit)
    own = make_bot(f"{spec}:seconds={seconds}")
    other = TimedOpenSpielBot(openspiel_bot(game, 1, deal), seconds, rate)
    rng = Rng(deal)
    own_cpu, own_decisions = 0.0, 0
    while not state.is_terminal():
        seat = state.current_player()
        if seat in own_seats:
            start = time.process_time()
            action = bot_move(own, state.intrigue_state, seat, rng)
            own_cpu += time.process_time() - start
            own_decisions += 1
            state.apply_action(game.spec.game.action_index(action))
        else:
            state.apply_action(other.step(state))
    outcome = state.intrigue_state.outcome
    sims = sorted(other.simulations) or [0]
    return {
        "deal": deal,
        "own_seats": sorted(own_seats),
        "winners": list(outcome.winners),
        "capped": outcome.capped,
        "own_cpu_per_decision": own_cpu / max(own_decisions, 1),
        "openspiel_median_simulations": sims[len(sims) // 2],
    }


def level_duel(
    game_id: str,
    spec: str,
    deals: int,
    seed: int,
    seconds: float,
    rate: float,
    max_turns: int,
) -> dict[str, Any]:
    """``deals`` deals, each played with ``spec`` on the even seats and then on the odd ones."""
    players = intrigue.load(game_id).player_counts[0]
    score = {"ours": 0.0, "theirs": 0.0}
    games = capped = 0
    for deal in range(seed, seed + deals):
        for parity in (0, 1):
            own_seats = {s for s in range(players) if s % 2 == parity}
            row = level_game(game_id, spec, seconds, rate, deal, own_seats, max_turns)
            print(json.dumps({"game": game_id, "bot": spec, **row}), flush=True)
            games += 1
            capped += row["capped"]
            winners = set(row["winners"])  # none: a draw, half each
            score["ours"] += bool(winners & own_seats) if winners else 0.5
            score["theirs"] += bool(winners - own_seats) if winners else 0.5
    return {
        "game": game_id,
        "bot": spec,
        "seconds": seconds,
        "games": games,
        "capped": capped,
        "ours": score["ours"],
        "theirs": score["theirs"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="game id (default: MM and PA)")
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=0.05)
    parser.add_argument("--bot", help="a level or bot spec to duel (3. above), e.g. hard")
    parser.add_argument("--deals", type=int, default=5, help="with --bot: deals, each twice")
    parser.add_argument("--seed", type=int, default=1000, help="with --bot: the first deal")
    parser.add_argument("--max-turns", type=int, help="with --bot: the cap (adapter default)")
    args = parser.parse_args()
    if args.bot:
        for game_id in args.game or ["project-assassination", "masquerade-murder"]:
            cap = args.max_turns or default_max_turns(game_id)
            # The simulation rate of OpenSpiel's bot, to start from (its own decisions adjust it).
            rate = speed(game_id, args.positions, args.iterations)["openspiel_it_per_s"]
            duel = level_duel(game_id, args.bot, args.deals, args.seed, args.seconds, rate, cap)
            print(json.dumps(duel), flush=True)
        return
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
