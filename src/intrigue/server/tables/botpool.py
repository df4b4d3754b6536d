"""Bot thinking, kept away from the humans: a bounded pool of worker processes.

A search bot thinks for a long while in Python; in a thread it would hold the GIL and stall the
event loop, so every human's move would wait (issue 18: 25 tables of ``hard`` bots pushed
another table's moves from 3 ms to over a second). So decisions run in their own processes:

* **Bounded.** At most ``Settings.bot_processes`` worker processes (0: think in a thread, as
  tests of the protocol alone may want). They are *spawned*, not forked, and import only the
  engine, the games and the bots (this module imports nothing of the server), so they start
  light and hold no sockets or database connections.
* **Fair.** A table's bots move one at a time, so a table waits for at most one decision; the
  waiting tables queue first come, first served for the workers (`asyncio.Semaphore` wakes its
  waiters in order), so a table with many bots cannot hold them all.
* **Quick.** A search stops after ``Settings.bot_move_seconds`` (``intrigue serve``: 1 s) even
  if its iterations are not done (`intrigue.bots.ismcts.cap_thinking`), so a slow or busy
  machine never keeps people waiting longer on a bot; on a fast one the cap is not reached.
* **Budgeted.** Each table may spend ``Settings.bot_budget`` CPU seconds thinking (its bots'
  decisions summed); once that is spent its bots play at the ``easy`` level, which costs
  microseconds (and is played in the event loop: shipping the position to a worker costs more
  than choosing a random legal move).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from intrigue.bots import Bot, make_bot
from intrigue.bots.advice import Advice, advise
from intrigue.bots.ismcts import cap_thinking
from intrigue.bots.match import bot_move
from intrigue.bots.random_bot import RandomBot
from intrigue.engine import Action, Rng, State
from intrigue.workers import die_with_parent

CHEAP = "easy"  # the level a table's bots fall back to once their thinking budget is spent


def think(bot: Bot, state: State, seat: int, rng: Rng) -> tuple[Action, Rng, float, int]:
    """One decision, in a worker process: the move, the generator as it was left, the CPU
    seconds it took and the worker's pid (so the pool can tell where thinking ran)."""
    start = time.process_time()
    action = bot_move(bot, state, seat, rng)
    return action, rng, time.process_time() - start, os.getpid()


def counsel(view: dict[str, Any], legal: list[Action]) -> tuple[Advice, float, int]:
    """A hint for a person (`intrigue.bots.advice`), in a worker process: the advice, the CPU
    seconds it took and the worker's pid. It gets the seat's view and moves, never a state."""
    start = time.process_time()
    advice = advise(view, legal)
    return advice, time.process_time() - start, os.getpid()


class BotPool:
    """The worker processes that bots think in, shared by every table of a server process."""

    def __init__(self, processes: int, budget: float, move_seconds: float = 0.0) -> None:
        self.processes = processes
        self.budget = budget  # CPU seconds of thinking per table (0: no limit)
        self.move_seconds = move_seconds  # a search's longest decision (0: no cap)
        self.spent: dict[str, float] = {}  # table id -> CPU seconds its bots have thought
        self.worker_pids: set[int] = set()
        self._executor: ProcessPoolExecutor | None = None
        self._turns: asyncio.Semaphore | None = None
        self._cheap = RandomBot()

    def over_budget(self, table_id: str) -> bool:
        return self.budget > 0 and self.spent.get(table_id, 0.0) >= self.budget

    async def move(self, table_id: str, bot: Bot, state: State, seat: int, rng: Rng) -> Action:
        """The move ``bot`` chooses for ``seat`` at ``state`` (``state`` is never changed)."""
        if self.over_budget(table_id) or _is_cheap(bot):
            return bot_move(self._cheap if not _is_cheap(bot) else bot, state, seat, rng)
        cap_thinking(bot, self.move_seconds)
        if self.processes <= 0:
            before = time.thread_time()
            action = await asyncio.to_thread(bot_move, bot, state, seat, rng)
            self._charge(table_id, time.thread_time() - before)
            return action
        action, used_rng = await self._in_worker(table_id, think, bot, state, seat, rng)
        rng.state = used_rng.state  # the bot's generator moves on as if it thought here
        return action

    async def advise(
        self, table_id: str, view: dict[str, Any], legal: list[Action]
    ) -> Advice | None:
        """A hint for the seat whose ``view`` and ``legal`` moves these are, thought where bots
        think and charged to the table like its bots' decisions; None once the table's budget
        is spent (a hint is a help, not a right)."""
        if self.over_budget(table_id) or not legal:
            return None
        if self.processes <= 0:
            before = time.thread_time()
            advice = await asyncio.to_thread(advise, view, legal)
            self._charge(table_id, time.thread_time() - before)
            return advice
        (advice,) = await self._in_worker(table_id, counsel, view, legal)
        return advice

    async def _in_worker(self, table_id: str, job: Callable[..., Any], *args: Any) -> Any:
        """``job(*args)`` in a worker, when the table's turn comes; it returns its results,
        then the CPU seconds it took and the worker's pid (charged and noted here)."""
        if self._turns is None:
            self._turns = asyncio.Semaphore(self.processes)
        async with self._turns:  # first come, first served: one decision per worker at a time
            loop = asyncio.get_running_loop()
            *results, seconds, pid = await loop.run_in_executor(self._pool(), job, *args)
        self.worker_pids.add(pid)
        self._charge(table_id, seconds)
        return results

    def forget(self, table_id: str) -> None:
        """Drop a table's account (it was evicted from memory or is over)."""
        self.spent.pop(table_id, None)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _charge(self, table_id: str, seconds: float) -> None:
        self.spent[table_id] = self.spent.get(table_id, 0.0) + max(0.0, seconds)

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_warm,
                initargs=(os.getpid(),),
            )
        return self._executor


def _is_cheap(bot: Bot) -> bool:
    return isinstance(bot, RandomBot)


def _warm(server: int) -> None:
    """A worker's start: watch the server (pid ``server``): a worker whose server died (even by
    SIGKILL, when no shutdown runs) exits rather than linger; and import the games now rather
    than during its first decision."""
    die_with_parent(server)
    import intrigue

    for info in intrigue.games():
        intrigue.load(info["id"])
    make_bot(CHEAP)


def worker_modules() -> list[str]:
    """The modules a worker process has imported (tests check no server part is among them)."""
    import sys

    return sorted(sys.modules)
