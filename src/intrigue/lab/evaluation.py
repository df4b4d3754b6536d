"""How each game looked as it went: the game's fitted evaluation at evenly spaced moments,
from the referee's seat and from every player's own.

Ludii computes lead changes, drama, stability and clarity from a heuristic evaluation of the
(fully known) state. Here a game has secrets, so each moment is evaluated twice:

* ``truth``: the game's evaluation of the real state, every seat's value in [-1, 1] (2 * the
  estimated chance to win - 1) — what a referee who sees everything would estimate;
* ``own``: every seat's value of its own chances in a determinization for that seat (a sample
  of the secrets consistent with what that seat has seen: what the seat itself can estimate).

and clarity — how clearly one move stands out — is measured among the legal moves of the seat
about to move, each evaluated in that seat's determinization.

This costs much more than playing (a determinization per seat and moment), so the lab does it
for a few games of a run (``--eval-games``), by replaying each finished game's actions. The
evaluation is the one the search bot uses (`intrigue.bots.heuristic.search_hooks`); games
without one get no evaluation metrics.
"""

from __future__ import annotations

from typing import Any

from intrigue.bots.heuristic import search_hooks
from intrigue.engine import Action, Rng, State, load

# Clarity: at most this many legal moves evaluated per moment (a seeded sample of them).
CLARITY_MOVES = 16
# Salt of the generator that draws determinizations, so they do not echo the game's own.
EVAL_RNG_SALT = 0xE7A1_5EED


def moments(steps: int, points: int) -> list[int]:
    """``points`` evenly spaced decision indices of a game of ``steps`` actions (each before
    that action), the first and the last included."""
    if steps <= 0 or points <= 0:
        return []
    if points == 1 or steps == 1:
        return [0]
    return sorted({round(k * (steps - 1) / (points - 1)) for k in range(points)})


def evaluation_trace(
    game_id: str,
    players: int,
    seed: int,
    options: dict[str, Any],
    history: list[tuple[int, Action]],
    points: int,
) -> dict[str, Any] | None:
    """Replay ``history`` and evaluate ``points`` moments of it; None without an evaluation."""
    evaluate = search_hooks(game_id).evaluate
    if evaluate is None or not history:
        return None
    rng = Rng(seed ^ EVAL_RNG_SALT)
    state = load(game_id).new(players, seed, **options)
    wanted = set(moments(len(history), points))
    trace: dict[str, Any] = {"steps": [], "truth": [], "own": [], "clarity": []}
    for index, (seat, action) in enumerate(history):
        if index in wanted:
            trace["steps"].append(index)
            trace["truth"].append(_rounded(evaluate(state)))
            trace["own"].append(
                [_round(evaluate(state.determinize(s, rng))[s]) for s in range(players)]
            )
            trace["clarity"].append(_clarity(state, seat, evaluate, rng))
        state.apply(seat, action)
    trace["length"] = len(history)
    return trace


def _clarity(state: State, seat: int, evaluate: Any, rng: Rng) -> list[float] | None:
    """[variance, narrowness, moves] of ``seat``'s legal moves as ``seat`` can judge them:
    each played in one determinization for ``seat`` and evaluated for ``seat``. Narrowness
    (Ludii's) is the share of moves worth more than mean + 3/4 of (best - mean). None with
    fewer than two legal moves."""
    sample = state.determinize(seat, rng)
    legal = sample.legal_actions(seat)
    if len(legal) < 2:
        return None
    if len(legal) > CLARITY_MOVES:
        picks = list(range(len(legal)))
        rng.shuffle(picks)
        legal = [legal[i] for i in sorted(picks[:CLARITY_MOVES])]
    values = []
    for action in legal:
        after = sample.clone()
        after.apply(seat, action)
        values.append(evaluate(after)[seat])
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / len(values)
    threshold = mean + 0.75 * (max(values) - mean)
    narrow = sum(v > threshold for v in values) / len(values)
    return [_round(variance), _round(narrow), len(legal)]


def _round(value: float) -> float:
    return round(float(value), 4)


def _rounded(values: Any) -> list[float]:
    return [_round(v) for v in values]
