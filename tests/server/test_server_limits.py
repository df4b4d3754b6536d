"""Bots cannot swamp the server (issue 18, item 3), over real sockets: table creation is
rate-limited per client address (429), open tables and all-bot tables are capped (503), bots
think in a bounded pool of worker processes that import no part of the server, each table's
thinking has a CPU budget, and idle or finished tables leave memory and reload when opened.

The attack: one client created 2,000 tables in 13 s, and 25 tables of ``hard`` bots (thinking
in the default thread pool, under the GIL) slowed every other table's moves a hundredfold."""

from __future__ import annotations

import asyncio
import gc
import os
import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_driver import (
    TIMEOUT,
    Player,
    ProcessServer,
    ThreadServer,
    create_table,
    first_action,
    is_over,
    play_until,
    wait_until,
)

import intrigue
from intrigue.bots import make_bot
from intrigue.engine import Rng
from intrigue.server.config import SERVE_LIMITS, Settings, limits_from_environment
from intrigue.server.tables.botpool import BotPool, worker_modules
from intrigue.server.tables.connection import RateLimiter
from processes import alive

BOTS = ["easy"] * 5
HUMANS = ["human"] * 5


def post(server: ThreadServer, seats: list[str], **extra) -> httpx.Response:
    body = {"game": "masquerade-murder", "seats": seats, **extra}
    return httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)


@pytest.fixture
def limited(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ThreadServer]:
    """A server with the limits the test names (``@pytest.mark.parametrize`` indirect)."""
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", **request.param)
    running = ThreadServer(settings).start()
    yield running
    running.stop()


@pytest.mark.parametrize("limited", [{"tables_per_minute": 3, "bot_delay": 0}], indirect=True)
def test_table_creation_is_rate_limited_per_address(limited):
    for _ in range(3):
        assert post(limited, HUMANS).status_code == 201
    refused = post(limited, HUMANS)
    assert refused.status_code == 429
    assert "too many new tables from your address" in refused.json()["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert len(limited.hub.tables) == 3  # nothing was created


@pytest.mark.parametrize("limited", [{"tables_per_minute": 0, "bot_delay": 0}], indirect=True)
def test_no_creation_limit_when_set_to_zero(limited):
    """What bench/load.py uses to create its many tables."""
    assert all(post(limited, HUMANS).status_code == 201 for _ in range(40))


@pytest.mark.parametrize(
    "limited", [{"max_bot_tables": 2, "max_open_tables": 4, "bot_delay": 60}], indirect=True
)
def test_all_bot_tables_and_open_tables_are_capped(limited):
    # Bots wait a minute before each move, so these tables stay open.
    assert [post(limited, BOTS).status_code for _ in range(2)] == [201, 201]
    refused = post(limited, BOTS)
    assert refused.status_code == 503 and "only bots" in refused.json()["detail"]
    # A table with a human seat is still welcome, up to the cap on open tables.
    assert [post(limited, ["human", *BOTS[1:]]).status_code for _ in range(2)] == [201, 201]
    full = post(limited, HUMANS)
    assert full.status_code == 503 and "open tables" in full.json()["detail"]
    assert full.headers["Retry-After"]


@pytest.mark.parametrize("limited", [{"evict_after": 0.3, "bot_delay": 0}], indirect=True)
def test_idle_and_finished_tables_leave_memory_and_reload_when_opened(limited):
    # An unfinished table nobody is at: played one move, left, evicted.
    table = create_table(limited.url, seats=HUMANS)
    player = Player(limited.ws_url, table["id"], table["links"][0]["token"])
    assert player.act(first_action(player.sync()))["type"] == "update"
    player.close()
    wait_until(lambda: table["id"] not in limited.hub.tables, "the idle table to be evicted")
    # Opened again: rebuilt from the database, as it was.
    again = Player(limited.ws_url, table["id"], table["links"][0]["token"])
    assert again.sync()["view"]["step"] == 1
    assert table["id"] in limited.hub.tables
    again.close()
    # A finished game of bots leaves memory too; its replay still opens.
    bots = create_table(limited.url, seats=BOTS, options={"max_turns": 1})
    wait_until(lambda: bots["id"] not in limited.hub.tables, "the finished table to be evicted")
    info = httpx.get(f"{limited.url}/api/tables/{bots['id']}", timeout=TIMEOUT).json()
    assert info["status"] == "over" and is_over({"view": info["view"]})


FINISHED_SOON = {"evict_after": 600, "evict_finished_after": 0.3, "bot_delay": 0}


@pytest.mark.parametrize("limited", [FINISHED_SOON], indirect=True)
def test_a_finished_table_leaves_memory_long_before_an_idle_unfinished_one(limited):
    """A busy server finishes games every second: their tables go after
    ``evict_finished_after``, not the ten minutes an unfinished table nobody is at may wait."""
    waiting = create_table(limited.url, seats=HUMANS)
    finished = create_table(limited.url, seats=BOTS, options={"max_turns": 1})
    wait_until(lambda: finished["id"] not in limited.hub.tables, "the finished table to go")
    assert waiting["id"] in limited.hub.tables
    info = httpx.get(f"{limited.url}/api/tables/{finished['id']}", timeout=TIMEOUT).json()
    assert info["status"] == "over"  # reloaded from the database when asked for


@pytest.mark.parametrize("limited", [FINISHED_SOON], indirect=True)
def test_an_evicted_table_is_freed_without_the_garbage_collector(limited):
    """Its clock and hints refer to it weakly, so no cycle keeps it (and its game) in memory
    until a full collection, which in a busy server walked every table finished since."""
    table = create_table(limited.url, seats=["human", *BOTS[1:]], options={"max_turns": 1})
    player = Player(limited.ws_url, table["id"], table["links"][0]["token"])
    player.sync()
    play_until(player, is_over, first_action)
    live = weakref.ref(limited.hub.tables[table["id"]])
    game = weakref.ref(live().state)
    gc.disable()
    try:
        player.close()
        wait_until(lambda: table["id"] not in limited.hub.tables, "the finished table to go")
        wait_until(lambda: live() is None and game() is None, "the table to be freed")
    finally:
        gc.enable()


@pytest.mark.parametrize("limited", [{"evict_after": 0.3, "bot_delay": 0}], indirect=True)
def test_your_tables_lists_a_finished_table_without_bringing_it_back(limited):
    """A lobby polls "your tables" every second: a finished table evicted from memory is listed
    from what it was, not reloaded (and replayed) at every poll."""
    table = create_table(limited.url, seats=["human", *BOTS[1:]], options={"max_turns": 1})
    token = table["links"][0]["token"]
    player = Player(limited.ws_url, table["id"], token)
    player.sync()
    play_until(player, is_over, first_action)
    player.close()

    def listed() -> dict:
        answer = httpx.post(
            f"{limited.url}/api/my-tables", json={"tokens": [token]}, timeout=TIMEOUT
        )
        (entry,) = answer.json()["tables"]
        return entry

    before = listed()
    assert before["status"] == "over" and not before["your_turn"]
    wait_until(lambda: table["id"] not in limited.hub.tables, "the finished table to be evicted")
    assert listed() == before
    assert table["id"] not in limited.hub.tables  # listed, not loaded


@pytest.mark.parametrize("limited", [{"evict_after": 0.2, "bot_delay": 0}], indirect=True)
def test_a_table_with_a_running_clock_stays_in_memory(limited):
    clocked = post(limited, HUMANS, clock={"mode": "move", "seconds": 60}).json()
    plain = create_table(limited.url, seats=HUMANS)
    wait_until(lambda: plain["id"] not in limited.hub.tables, "the plain table to be evicted")
    assert clocked["id"] in limited.hub.tables  # its deadline must still be watched


@pytest.mark.parametrize(
    "limited", [{"bot_processes": 1, "bot_delay": 0, "bot_budget": 0}], indirect=True
)
def test_bots_think_in_worker_processes_that_import_no_server(limited):
    table = create_table(limited.url, seats=["human"] + ["medium"] * 4, options={"max_turns": 1})
    player = Player(limited.ws_url, table["id"], table["links"][0]["token"])
    view = player.sync()
    while not is_over(view):
        view = player.act(first_action(view)) if view["legal_actions"] else player.recv()
    player.close()
    pool = limited.hub.pool
    assert pool.worker_pids and os.getpid() not in pool.worker_pids
    assert pool.spent[table["id"]] > 0
    loop = asyncio.new_event_loop()
    try:
        modules = loop.run_until_complete(loop.run_in_executor(pool._pool(), worker_modules))
    finally:
        loop.close()
    heavy = [m for m in modules if m.startswith(("fastapi", "starlette", "sqlalchemy", "uvicorn"))]
    assert not heavy and "intrigue.server.transport" not in modules
    assert "intrigue.server.storage" not in modules and "intrigue.bots" in modules


@pytest.mark.parametrize(
    "limited", [{"bot_processes": 1, "bot_delay": 0, "bot_budget": 1e-9}], indirect=True
)
def test_a_table_that_spent_its_thinking_budget_plays_on_cheaply(limited):
    table = create_table(limited.url, seats=["hard"] * 5, options={"max_turns": 2})
    wait_until(
        lambda: httpx.get(f"{limited.url}/api/tables/{table['id']}").json()["status"] == "over",
        "the game to end",
        timeout=60,
    )
    pool = limited.hub.pool
    # One search was paid for; every later move was the cheap bot's (not charged).
    assert pool.over_budget(table["id"])
    assert len(pool.worker_pids) == 1 and 0 < pool.spent[table["id"]] < 60


def test_the_bot_pool_caps_every_search_it_runs():
    """``bot_move_seconds`` stops a search bot's decision at the cap: a search of a billion
    iterations (which would never end) plays its move after the first one."""
    state = intrigue.load("masquerade-ball").new(2, 5)
    seat = state.to_move[0]
    bot = make_bot("hard:iterations=1000000000")
    pool = BotPool(0, 0, move_seconds=1e-9)
    action = asyncio.run(pool.move("t", bot, state, seat, Rng(1)))
    assert action in state.legal_actions(seat)
    assert bot.last_iterations == 1 and bot.cap == 1e-9
    assert limits_from_environment({})["bot_move_seconds"] == 1.0  # intrigue serve's default
    assert Settings().bot_move_seconds == 0  # none in an application built in a test


def test_limits_are_set_from_the_environment():
    chosen = limits_from_environment(
        {"INTRIGUE_TABLES_PER_MINUTE": "0", "INTRIGUE_BOT_BUDGET": "2"}
    )
    assert chosen == {**SERVE_LIMITS, "tables_per_minute": 0, "bot_budget": 2.0}
    assert limits_from_environment({})["tables_per_minute"] == 30  # intrigue serve's default
    assert Settings(**chosen).tables_per_minute == 0
    rated = limits_from_environment({"INTRIGUE_RATE_PER_SECOND": "0.5", "INTRIGUE_RATE_BURST": "3"})
    assert (rated["rate_per_second"], rated["rate_burst"]) == (0.5, 3)
    with pytest.raises(ValueError, match="INTRIGUE_MAX_BOT_TABLES"):
        limits_from_environment({"INTRIGUE_MAX_BOT_TABLES": "lots"})


def test_a_rate_of_zero_sets_no_limit_and_a_rate_paces():
    unlimited = RateLimiter(0, 0)
    assert all(unlimited.allow() for _ in range(1000))
    paced = RateLimiter(0.001, 3)
    assert [paced.allow() for _ in range(5)] == [True, True, True, False, False]


def test_bot_workers_exit_when_their_server_is_killed(tmp_path):
    """A SIGKILLed server runs no shutdown: its workers notice and exit by themselves."""
    log = tmp_path / "server.log"
    one = {"INTRIGUE_BOT_PROCESSES": "1"}
    server = ProcessServer(f"sqlite:///{tmp_path / 'db.sqlite3'}", log, env=one).start()
    try:
        table = create_table(server.url, seats=["human", *["medium"] * 4], options={"max_turns": 1})
        player = Player(server.ws_url, table["id"], table["links"][0]["token"])
        view = player.sync()
        while not is_over(view):  # the medium bots think in the worker: it is running
            view = player.act(first_action(view)) if view["legal_actions"] else player.recv()
        player.close()
        assert server.proc is not None
        workers = children(server.proc.pid)
        assert len(workers) == 1
        # A spawned worker re-imports the server's main module (``-m intrigue.cli.main``):
        # cleanly, without runpy's RuntimeWarning that the module was imported twice.
        assert "RuntimeWarning" not in log.read_text()
    finally:
        server.kill()
    wait_until(lambda: not any(alive(pid) for pid in workers), "the workers to exit", 30)


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s bot workers (its spawned children, from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(fields[1]) == pid and b"spawn_main" in command:
                found.append(int(entry.name))
    return found


# A worker's first act, run as a process of its own whose parent is the test's process.
WORKER_START = """
import sys
from intrigue.workers import die_with_parent
die_with_parent(int(sys.argv[1]))
print("working")
"""


def test_a_bot_worker_whose_server_died_while_it_started_exits_at_once():
    """A worker started for a server that is no longer its parent (the server died while the
    worker was starting, and the orphan was adopted) exits instead of waiting for jobs that
    never come; one whose server is alive goes on."""
    run = [sys.executable, "-c", WORKER_START]
    orphan = subprocess.run([*run, str(os.getpid() + 1_000_000)], capture_output=True, text=True)
    assert orphan.returncode == 0 and "working" not in orphan.stdout
    served = subprocess.run([*run, str(os.getpid())], capture_output=True, text=True)
    assert served.returncode == 0 and served.stdout.strip() == "working", served.stderr


# A server that dies (as by SIGKILL: no shutdown) moments after its bot pool began to spawn a
# worker, which is then still importing; it prints the worker's pid first.
SERVER_DYING_WHILE_ITS_WORKER_STARTS = """
import os, sys, time
from intrigue.server.tables.botpool import BotPool
pool = BotPool(processes=1, budget=0)._pool()
pool.submit(os.getpid)
print(*pool._processes, flush=True)
time.sleep(float(sys.argv[1]))
os._exit(0)
"""


@pytest.mark.parametrize("delay", [0.02, 0.05, 0.1])
def test_a_server_killed_while_its_bot_worker_starts_leaves_no_worker_behind(delay):
    """The worker, adopted by another process before it could ask to die with its server,
    sees that its server is gone and exits (before: an orphan waiting for work forever)."""
    run = [sys.executable, "-c", SERVER_DYING_WHILE_ITS_WORKER_STARTS, str(delay)]
    server = subprocess.run(run, capture_output=True, text=True, timeout=60)
    workers = [int(pid) for pid in server.stdout.split()]
    assert len(workers) == 1, server.stderr
    wait_until(lambda: not any(alive(pid) for pid in workers), "the worker to exit", 30)
