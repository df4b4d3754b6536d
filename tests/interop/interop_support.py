"""Shared settings of the interop tests: short games for every registered game and player count."""

from __future__ import annotations

import random

import intrigue
from intrigue.engine import State, game_ids

# Small caps keep each suite fast: units are the game's own (nights, turns, player turns, seasons).
SHORT_MAX_TURNS = {
    "masquerade-murder": 2,
    "masquerade-ball": 6,
    "project-assassination": 6,
    "shadows-over-japan": 2,
}

CONFIGS = [
    (game_id, players) for game_id in game_ids() for players in intrigue.load(game_id).player_counts
]
CONFIG_IDS = [f"{game_id}-{players}p" for game_id, players in CONFIGS]


def short(game_id: str) -> int:
    return SHORT_MAX_TURNS.get(game_id, 3)


def random_positions(game_id: str, players: int, count: int, seed: int = 0) -> list[State]:
    """``count`` unfinished positions reached by seeded random play (various depths)."""
    game = intrigue.load(game_id)
    rng = random.Random(seed)
    positions: list[State] = []
    attempt = 0
    while len(positions) < count and attempt < 20 * count:
        attempt += 1
        state = game.new(players, rng.randrange(1 << 30), max_turns=8)
        for _ in range(rng.randrange(0, 80)):
            if state.is_over:
                break
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if not state.is_over:
            positions.append(state)
    return positions


def played_states(game_id: str, players: int, seed: int, max_turns: int) -> list[State]:
    """Every state (clones) of one seeded random game, from the start to the end."""
    game = intrigue.load(game_id)
    rng = random.Random(seed)
    state = game.new(players, seed, max_turns=max_turns)
    states = [state.clone()]
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        states.append(state.clone())
    return states
