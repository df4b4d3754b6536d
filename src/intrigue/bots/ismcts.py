"""Information-Set Monte Carlo Tree Search (single-observer ISMCTS, Cowling et al. 2012).

The bot never sees the true state. Each iteration draws a determinization — a complete state
consistent with everything its seat has observed, from ``State.determinize`` through the
``sampler`` the driver hands over — then descends one shared tree, choosing among the actions
legal in that determinization by UCB with availability counts, expands one node, finishes the
game with random moves and backs the result up. The move played is the most visited root child.
Given an iteration budget and the same rng, the choice is deterministic.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from intrigue.engine import Action, State

from .base import RandomSource

Sampler = Callable[[Any], State]


class _Node:
    """Statistics of one action edge, from the point of view of the seat that played it."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


class ISMCTSBot:
    """Search over determinizations; ``iterations`` or ``seconds`` bounds each decision."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 400,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout_limit: int = 1000,
    ) -> None:
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.last_iterations = 0

    def __repr__(self) -> str:
        return f"ISMCTSBot(iterations={self.iterations}, seconds={self.seconds})"

    def choose(
        self,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: RandomSource,
        sampler: Sampler | None = None,
    ) -> Action:
        if not legal_actions:
            raise ValueError("a bot needs at least one legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if sampler is None:
            raise ValueError("ISMCTS needs a sampler of determinizations for its seat")
        seat = view["seat"]
        # The C-coded generator: rollouts draw hundreds of numbers per iteration.
        search_rng = random.Random(rng.randrange(1 << 62))
        root = _Node(-1)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.iterations if deadline is None else time.perf_counter() < deadline:
            self._iterate(root, sampler(search_rng), seat, search_rng)
            done += 1
        self.last_iterations = done
        visits = root.children
        # Most visited, ties broken by the fixed order of the legal actions.
        return max(legal_actions, key=lambda a: visits[a].visits if a in visits else -1)

    def _iterate(self, root: _Node, state: State, seat: int, rng: random.Random) -> None:
        path = self._select_and_expand(root, state, seat, rng)
        returns = self._rollout(state, rng)
        for node in path:
            node.visits += 1
            node.total += (returns[node.seat] + 1.0) * 0.5

    def _select_and_expand(
        self, node: _Node, state: State, seat: int, rng: random.Random
    ) -> list[_Node]:
        path: list[_Node] = []
        mover = seat  # at the root it is our decision even in a simultaneous phase
        c = self.exploration
        while not state.is_over:
            legal = state.legal_actions(mover)
            children = node.children
            untried = []
            best_action, best, best_score = None, None, -1.0
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                    continue
                child.avail += 1
                if untried:
                    continue
                score = child.total / child.visits + c * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if score > best_score:
                    best_action, best, best_score = action, child, score
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = _Node(mover)
                state.apply(mover, action)
                path.append(child)
                return path
            assert best is not None and best_action is not None
            state.apply(mover, best_action)
            path.append(best)
            node = best
            if not state.is_over:
                mover = state.to_move[0]
        return path

    def _rollout(self, state: State, rng: random.Random) -> tuple[float, ...]:
        for _ in range(self.rollout_limit):
            if state.is_over:
                break
            mover = state.to_move[0]
            legal = state.legal_actions(mover)
            state.apply(mover, legal[rng.randrange(len(legal))])
        outcome = state.outcome
        return outcome.returns if outcome is not None else (0.0,) * state.players
