"""Playing the balance lab's games: one pure function per game, run serially, in processes or on
Ray, each finished game streamed to a JSON-lines file that a later run can resume from.

`play_one` is the only function that plays: every backend calls exactly it with the same
`GameTask`, and a task fixes everything about its game (seed, bots per seat, options), so a
game's result never depends on the backend, the worker count or the order games finish in.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import traceback
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from intrigue.bots import make_bot, register_bot
from intrigue.bots.match import bot_move
from intrigue.engine import Rng, State, load
from intrigue.workers import die_with_parent

from .arena import seat_result
from .evaluation import evaluation_trace
from .facts import game_facts
from .trace import GameWatch

BACKENDS = ("serial", "process", "ray")
# The bots' generator is derived from the game seed exactly as `play_match` derives it, so a
# lab game is the very game `intrigue arena` would play with the same seed and bots.
BOT_RNG_SALT = 0x5EED_B075


@dataclass(frozen=True)
class GameTask:
    """Everything that determines one game of a balance run."""

    game: str
    variant: str
    index: int
    seed: int
    players: int
    bots: tuple[str, ...]  # one bot name per seat
    options: dict[str, Any] = field(default_factory=dict)
    # (name, "module:attribute") bots to register first: workers are fresh interpreters.
    plugins: tuple[tuple[str, str], ...] = ()
    # The seat whose result the variant studies (restricted play, skill trace), if any.
    focus: int | None = None
    # Moments of the finished game to evaluate (0: none; see `evaluation`).
    eval_points: int = 0

    @property
    def key(self) -> tuple[str, int]:
        return (self.variant, self.index)


def play_one(task: GameTask) -> dict[str, Any]:
    """Play the task's game to the end and describe it as one JSON-ready row.

    Never raises for a failing game: an exception from a bot or the rules becomes an error row
    holding the traceback and the replay record up to the failure.
    """
    for name, target in task.plugins:
        register_bot(name, target)
    state: State | None = None
    try:
        state = load(task.game).new(task.players, task.seed, **task.options)
        bots = [make_bot(name) for name in task.bots]
        rng = Rng(task.seed ^ BOT_RNG_SALT)
        watch = GameWatch(state)
        while not state.is_over:
            for seat in state.to_move:
                # An earlier move in this simultaneous round may have ended the phase.
                if state.is_over or seat not in state.to_move:
                    continue
                view, legal = state.view(seat), state.legal_actions(seat)
                watch.decision(state, seat, view, legal)
                action = bot_move(bots[seat], state, seat, rng, view=view, legal=legal)
                watch.played(seat, action)
                state.apply(seat, action)
        row = {**_finished_row(task, state), **watch.finish(state)}
        if task.eval_points:
            row["eval"] = evaluation_trace(
                task.game, task.players, task.seed, task.options, state.history, task.eval_points
            )
    except Exception as exc:
        return _error_row(task, state, exc)
    return row


def _base_row(task: GameTask) -> dict[str, Any]:
    return {
        "variant": task.variant,
        "index": task.index,
        "seed": task.seed,
        "players": task.players,
        "bots": list(task.bots),
        "focus": task.focus,
    }


def _finished_row(task: GameTask, state: State) -> dict[str, Any]:
    outcome = state.outcome
    assert outcome is not None
    facts = game_facts(state)
    return {
        **_base_row(task),
        "status": "ok",
        "winners": list(outcome.winners),
        "results": [seat_result(state, seat) for seat in range(state.players)],
        "returns": list(outcome.returns),
        "scores": None if outcome.scores is None else list(outcome.scores),
        "reason": outcome.reason,
        "draw": outcome.is_draw,
        "capped": outcome.capped,
        "steps": facts.steps,
        "turns": facts.turns,
        "first": facts.first,
        "labels": facts.labels,
    }


def _error_row(task: GameTask, state: State | None, exc: Exception) -> dict[str, Any]:
    return {
        **_base_row(task),
        "status": "error",
        "error": f"{type(exc).__name__}: {exc}",
        "traceback": traceback.format_exc(),
        "steps": None if state is None else state.actions_played,
        "record": None if state is None else state.record().to_json(),
    }


# -- backends -----------------------------------------------------------------------------------
def run_tasks(
    tasks: list[GameTask],
    backend: str = "process",
    workers: int = 1,
    ray_address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Rows of the tasks' games, in the order they finish."""
    if backend == "serial" or (backend == "process" and workers <= 1):
        return (play_one(task) for task in tasks)
    if backend == "process":
        return _run_processes(tasks, workers)
    if backend == "ray":
        return _run_ray(tasks, workers, ray_address)
    raise ValueError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")


def _run_processes(tasks: list[GameTask], workers: int) -> Iterator[dict[str, Any]]:
    # "spawn": fresh interpreters, safe even when the parent runs threads (Ray, a server),
    # where forking can deadlock. Games are far longer than a worker's start-up.
    context = multiprocessing.get_context("spawn")
    # Keep a bounded number of games in flight, so a huge run holds few futures in memory.
    limit = workers * 4
    queue = iter(tasks)
    # Workers end with this process even when it is killed without closing the pool: an
    # orphan would play out the game it holds (minutes of CPU for a search bot).
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    ) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        try:
            _top_up(pending, queue, limit, lambda t: pool.submit(play_one, t))
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                _top_up(pending, queue, limit, lambda t: pool.submit(play_one, t))
        finally:
            # Interrupted (or the consumer stopped): drop the games not started yet.
            for future in pending:
                future.cancel()


def _top_up(pending: set[Any], queue: Iterator[GameTask], limit: int, submit: Callable) -> None:
    while len(pending) < limit:
        task = next(queue, None)
        if task is None:
            return
        pending.add(submit(task))


def _run_ray(tasks: list[GameTask], workers: int, address: str | None) -> Iterator[dict[str, Any]]:
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise RuntimeError("--ray needs Ray: pip install 'intrigue[lab]'") from exc
    started = not ray.is_initialized()
    if started:
        # A designer's local run reports nothing home unless they asked for it.
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        local = {"num_cpus": workers} if address is None and workers > 1 else {}
        ray.init(address=address, include_dashboard=False, log_to_driver=False, **local)
    remote = ray.remote(num_cpus=1)(play_one)
    # Enough games in flight to keep the cluster busy, without submitting a million at once.
    limit = max(workers, int(ray.cluster_resources().get("CPU", 1))) * 4
    queue = iter(tasks)
    pending: set[Any] = set()
    try:
        _top_up(pending, queue, limit, remote.remote)
        while pending:
            done, rest = ray.wait(list(pending), num_returns=1)
            pending = set(rest)
            for ref in done:
                yield ray.get(ref)
            _top_up(pending, queue, limit, remote.remote)
    finally:
        for ref in pending:
            ray.cancel(ref)
        if started:
            ray.shutdown()


# -- the stream of finished games ---------------------------------------------------------------
def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a games file; a line cut short by an interruption is ignored."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and "variant" in row and "index" in row:
            rows.append(row)
    return rows


class GameStream:
    """Appends each finished game to ``games.jsonl`` as soon as it is known."""

    def __init__(self, path: Path, keep: Iterable[dict[str, Any]] = ()) -> None:
        """Start the file afresh with only the rows in ``keep`` (those of a resumed run)."""
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        # Rewritten rather than appended to: a resumed file may end in a half-written line.
        with path.open("w") as out:
            for row in keep:
                out.write(json.dumps(row) + "\n")
        self._out = path.open("a")

    def write(self, row: dict[str, Any]) -> None:
        self._out.write(json.dumps(row) + "\n")
        # Flushed per game, so an interrupted run loses at most the games still playing.
        self._out.flush()

    def close(self) -> None:
        self._out.close()
