"""Load on the game server: many Masquerade Murder tables, five WebSocket players each.

    .venv/bin/python bench/load.py                       # 200 clients for 20 s, own server
    .venv/bin/python bench/load.py --clients 200 --processes 2   # generator in 2 processes
    .venv/bin/python bench/load.py --clients 50 --seconds 10 --json
    .venv/bin/python bench/load.py --db postgresql://127.0.0.1/intrigue_load  # its own database
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000   # a server already running
    .venv/bin/python bench/load.py --abuse               # quiet run, then the same under attack
    .venv/bin/python bench/load.py --perf 8              # where the server's CPU goes (Linux perf)
    .venv/bin/python bench/load.py --processes 2 --runs 3 --against /tmp/old/src   # pairs

Unless ``--url`` is given, the benchmark starts the server itself (``uvicorn`` in a child
process, set up as ``intrigue serve`` does, on a fresh SQLite file or ``--db``) with the
per-connection rate limit lifted (these clients move faster than people can), and stops it at
the end. ``--server-pid`` names the process of a server given by ``--url``, so that its CPU is
reported too. The benchmark creates a table per game, far beyond ``intrigue serve``'s limit on
new tables per client address: start such a server with ``INTRIGUE_TABLES_PER_MINUTE=0`` (and
``INTRIGUE_MAX_OPEN_TABLES=0``) to measure it; the server started here has no such limit.

Every table is created through the HTTP API with five human seats; each client asks for
patches, as the table page does (docs/server.md), and plays a random
legal move as soon as it may (it has legal moves and no move of its own is waiting for an
answer). A finished game is followed by a new table for the same five clients. The run stops
by itself after ``--seconds`` (or ``--moves`` moves), and reports (see docs/performance.md):

* moves/s: moves acknowledged per second, after ``--warmup`` seconds;
* latency: from sending a move to receiving the update that acknowledges it (the mover's new
  view), p50/p95/p99/max in milliseconds;
* errors: error messages received (a correct client gets none) and connections lost;
* CPU: the server process's CPU time per second of the run (1.0 = one core busy), when the
  benchmark started the server or was given its pid, and the load generator's own (all its
  processes); also as CPU milliseconds per move, which depends less on what else the machine
  is running than moves/s does; and how long the server's event loop was ready to run but
  waiting for a CPU (the machine is busy with other work if that is large).

``--processes N`` spreads the tables over N generator processes, so that the generator's own
event loop is not what limits the run. The server started here delays the updates of the
seats not to move as ``intrigue serve`` does (``Settings.update_delay``); ``--update-delay 0``
sends every update at once.

``--runs N`` measures N times, each run on a fresh server, and ends with the median of each
figure: a single run of the same code moves by a tenth from one minute to the next on these
machines, so a comparison rests on several. ``--against SRC`` makes them pairs: the runs
alternate between this checkout's server and the one in SRC (a directory holding another
version's ``intrigue`` package, e.g. ``git archive REV src | tar -x -C /tmp/old`` gives
``/tmp/old/src``), N of each, and the medians are given side by side (docs/performance.md).

``--abuse`` measures what slow and greedy clients do to everyone else (issue 18, item 6): two
runs on two fresh servers with ``intrigue serve``'s limits on connections (`SERVE_LIMITS`), each
table's players connecting from an address of their own (127.0.1.x, like households): first a
quiet run, then the same run while the attacker of ``bench/abuse.py`` (trickling HTTP requests,
spectators that never read, a flood of connections that never say hello, each from one address)
works throughout. It reports both runs, the victims' p99 under attack over the quiet one, and
what the server answered the attacker.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

import server_profile  # bench/server_profile.py
from abuse import Attack, run_attack  # bench/abuse.py, beside this script

try:  # the generator's own parsing should cost as little as possible
    import orjson

    loads: Callable[[str | bytes], Any] = orjson.loads
except ImportError:  # pragma: no cover
    loads = json.loads

SEATS = 5
GAME = "masquerade-murder"
# As `intrigue.server.transport.run.serve` runs one process, less its banner and the rate limit.
# It also times every pass of the garbage collector (the thread CPU of each, and when it
# ended) and writes them to the file named by its fourth argument when it stops (uvicorn
# raises the SIGTERM it shut down on again once it is done, with the handler it found).
SERVER_SCRIPT = """
import gc, json, signal, sys, time, uvicorn
from intrigue.server.config import Settings, normalise_database_url
from intrigue.server.transport.run import uvicorn_config
from intrigue.server.transport.tuning import tune_process
settings = Settings(database_url=normalise_database_url(sys.argv[1]), bot_delay=0,
                    rate_per_second=1e9, rate_burst=10**9, **json.loads(sys.argv[3]))
server = uvicorn.Server(uvicorn_config(settings, "127.0.0.1", int(sys.argv[2]), "warning"))
tune_process()
passes, began = [], [0.0]
census_file, census_from = (sys.argv[5], float(sys.argv[6])) if len(sys.argv) > 6 else ("", 0)
def census():
    # What a middle-generation pass is about to walk: the two young generations, by type,
    # and the references they hold (a pass follows each of them).
    young = gc.get_objects(0) + gc.get_objects(1)
    kinds = {}
    for obj in young:
        kinds[type(obj).__qualname__] = kinds.get(type(obj).__qualname__, 0) + 1
    refs = sum(len(gc.get_referents(obj)) for obj in young)
    with open(census_file, "w") as out:
        json.dump({"objects": len(young), "references": refs, "kinds": kinds}, out)
def timed(phase, info):
    global census_file
    if census_file and phase == "start" and info["generation"] == 1:
        if time.monotonic() >= census_from:  # once, after the warm-up; not in the pass's time
            census()
            census_file = ""
    if phase == "start":
        began[0] = time.thread_time()
    else:
        passes.append((info["generation"], time.monotonic(), time.thread_time() - began[0]))
gc.callbacks.append(timed)
def stopped(*_):
    with open(sys.argv[4], "w") as out:
        json.dump(passes, out)
    sys.exit(0)
signal.signal(signal.SIGTERM, stopped)
server.run()
stopped()
"""


@dataclass
class Tally:
    """What the clients of one generator process report (one event loop: no locks)."""

    measuring_from: float
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    lost: int = 0
    games: int = 0  # games played to their end
    updates: int = 0  # game messages (syncs and updates) received while measuring
    error_samples: list[str] = field(default_factory=list)
    cpu_seconds: float = 0.0  # this process's CPU time while measuring
    wall_seconds: float = 0.0

    def acknowledged(self, sent_at: float) -> None:
        now = time.monotonic()
        if sent_at >= self.measuring_from:
            self.moves += 1
            self.latencies.append(now - sent_at)

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(text)


class Stop:
    """When the run ends: a deadline (``time.monotonic``, the same in every process) and a
    move budget for this process."""

    def __init__(self, deadline: float, moves: int | None, tally: Tally) -> None:
        self.deadline = deadline
        self.moves = moves
        self.tally = tally

    def __call__(self) -> bool:
        over_budget = self.moves is not None and self.tally.moves >= self.moves
        return over_budget or time.monotonic() >= self.deadline


async def play_seat(
    url: str, token: str, rng: random.Random, tally: Tally, stop: Stop, source: str | None
) -> bool:
    """One client (connecting from ``source``, or any address): act whenever possible until
    the game ends (True) or the run stops."""
    loop = asyncio.get_running_loop()
    seat = Seat(url, token, rng, tally, stop, loop.create_future())
    uri = parse_uri(url)
    local = None if source is None else (source, 0)
    await loop.create_connection(lambda: seat, uri.host, uri.port, local_addr=local)
    timer = loop.call_later(max(0.0, stop.deadline - time.monotonic()), seat.finish, False)
    try:
        return await seat.done
    finally:
        timer.cancel()


class Seat(asyncio.Protocol):
    """A WebSocket client as plain callbacks on the sans-I/O protocol of ``websockets``: no
    task, queue or timer per message, so that the generator costs little next to the server."""

    def __init__(
        self,
        url: str,
        token: str,
        rng: random.Random,
        tally: Tally,
        stop: Stop,
        done: asyncio.Future[bool],
    ) -> None:
        # No extension offered: like a browser talking to a server that declines compression.
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.token = token
        self.rng, self.tally, self.stop, self.done = rng, tally, stop, done
        self.transport: asyncio.Transport | None = None
        self.sent_at: float | None = None
        self.parts: list[bytes] = []  # a fragmented message, if the server ever sends one
        # It takes patches, as the table page does: the legal moves and the step it holds.
        self.legal: list[dict[str, Any]] = []
        self.step = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.ws.send_request(self.ws.connect())
        self.flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Frame) and event.opcode in (Opcode.TEXT, Opcode.CONT):
                self.parts.append(event.data)
                if event.fin:
                    raw, self.parts = b"".join(self.parts), []
                    self.received(raw)
            elif isinstance(event, Response) and event.status_code != 101:
                self.finish(False)
            elif isinstance(event, Response):  # open: the token goes in the first message
                hello = {"type": "hello", "token": self.token, "patches": True}
                self.ws.send_text(json.dumps(hello).encode())
        self.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.tally.lost += 1
            self.done.set_result(False)

    def received(self, raw: bytes) -> None:
        kind, accepted, over, legal, step = glance(raw)
        self.legal = self.legal if legal is None else legal  # None: unchanged
        self.step = self.step if step is None else step
        if kind == "error":
            self.tally.error(loads(raw)["message"])
            self.sent_at = None
            return
        if kind not in ("sync", "update"):
            return  # table status and chat messages
        if time.monotonic() >= self.tally.measuring_from:
            self.tally.updates += 1
        if accepted and self.sent_at is not None:
            self.tally.acknowledged(self.sent_at)
            self.sent_at = None
        if over or self.stop():
            self.finish(over)
        elif self.legal and self.sent_at is None:
            action = self.rng.choice(self.legal)["action"]
            self.sent_at = time.monotonic()
            move = {"type": "act", "action": action, "step": self.step}
            self.ws.send_text(json.dumps(move).encode())

    def finish(self, over: bool) -> None:
        """Close the connection; the game ended (``over``) or the run stopped."""
        if self.done.done():
            return
        self.done.set_result(over)
        if self.transport is not None and not self.transport.is_closing():
            if self.ws.state is State.OPEN:
                self.ws.send_close()  # say goodbye, without waiting for the answer
                self.flush()
            self.transport.close()

    def flush(self) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)


_DECODER = json.JSONDecoder()
LEGAL_KEY = '"legal_actions":'
STEP_KEY = '"step":'  # the view's (or its patch's), which comes before the events
EVENTS_KEY = '"events":'


def glance(raw: str | bytes) -> tuple[str, bool, bool, list[dict[str, Any]] | None, int | None]:
    """The type of a server message, whether it acknowledges a move, whether the game is over,
    the legal moves and the step they answer (None: the same as before; the client takes
    patches): all a random player needs.

    Parsing whole views would make the generator cost more than the server; so the compact JSON
    the server sends is searched for these keys (a quoted key cannot occur inside a string,
    where quotes are escaped), and only the legal moves and the step are decoded. Anything
    unexpected is parsed in full.
    """
    text = raw if isinstance(raw, str) else raw.decode("utf-8")
    for kind in ("update", "sync"):
        if text.startswith(f'{{"type":"{kind}",'):
            events = text.find(EVENTS_KEY)
            if events < 0:
                break
            at = text.find(LEGAL_KEY, events)
            legal = None if at < 0 else _DECODER.raw_decode(text, at + len(LEGAL_KEY))[0]
            at = text.find(STEP_KEY, 0, events)
            step = None if at < 0 else _DECODER.raw_decode(text, at + len(STEP_KEY))[0]
            return kind, '"accepted":"' in text, '"is_over":true' in text, legal, step
    message = loads(text)
    if message.get("type") not in ("sync", "update"):
        return str(message.get("type")), False, False, None, None
    accepted = message.get("accepted") is not None
    view = message.get("view") or message.get("patch", {})
    return (
        message["type"],
        accepted,
        bool(view.get("is_over")),
        message.get("legal_actions"),
        view.get("step"),
    )


async def run_table(
    http: httpx.AsyncClient,
    ws_base: str,
    rng: random.Random,
    tally: Tally,
    stop: Stop,
    source: str | None = None,
) -> None:
    """Five clients playing table after table (from ``source``, or any address)."""
    while not stop():
        response = await http.post("/api/tables", json={"game": GAME, "seats": ["human"] * SEATS})
        if response.is_error:  # counted, not raised: httpx errors do not survive pickling
            tally.error(f"creating a table: HTTP {response.status_code} {response.text[:200]}")
            await asyncio.sleep(0.1)
            continue
        table = response.json()
        url = f"{ws_base}/ws/{table['id']}"
        tokens = [link["token"] for link in table["links"]]
        results = await asyncio.gather(
            *(play_seat(url, t, random.Random(rng.random()), tally, stop, source) for t in tokens),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, OSError):
                tally.lost += 1
            elif isinstance(result, BaseException):
                raise result
        if all(result is True for result in results):
            tally.games += 1


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process and its descendants alive now (Linux
    /proc): the workers of ``intrigue serve --workers`` count as the server's."""
    total = 0
    for member in process_tree(pid):
        try:
            total += cpu_ticks(Path(f"/proc/{member}/stat"))
        except OSError:
            continue  # it exited meanwhile
    return total / os.sysconf("SC_CLK_TCK")


def cpu_ticks(stat: Path) -> int:
    """User + system clock ticks of a process or thread, from its /proc ``stat`` file."""
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc)."""
    tree, index = [pid], 0
    while index < len(tree):
        try:
            children = Path(f"/proc/{tree[index]}/task/{tree[index]}/children").read_text()
        except OSError:
            children = ""
        tree.extend(int(child) for child in children.split())
        index += 1
    return tree


def thread_figures(pid: int) -> dict[str, tuple[float, int]]:
    """CPU seconds and context switches so far of the threads of ``pid`` and its descendants
    (Linux /proc), in two groups: ``loop``, each process's main thread (its event loop), and
    ``other``, the rest (the database writer, the executor). A context switch is a thread
    giving up or losing its CPU: a thread waiting for the interpreter lock another holds makes
    them, so their count a move shows how often the server's threads hand the lock around."""
    figures = {"loop": [0.0, 0], "other": [0.0, 0]}
    tick = os.sysconf("SC_CLK_TCK")
    for member in process_tree(pid):
        try:
            threads = os.listdir(f"/proc/{member}/task")
        except OSError:
            continue  # it exited meanwhile
        for tid in threads:
            task = Path(f"/proc/{member}/task/{tid}")
            try:
                ticks = cpu_ticks(task / "stat")
                status = (task / "status").read_text()
            except OSError:
                continue
            switches = sum(
                int(line.split()[1]) for line in status.splitlines() if "ctxt_switches" in line
            )
            group = figures["loop" if tid == str(member) else "other"]
            group[0] += ticks / tick
            group[1] += switches
    return {name: (cpu, switches) for name, (cpu, switches) in figures.items()}


def waited_for_cpu(pid: int) -> float | None:
    """Seconds the main thread of ``pid`` has spent ready to run, waiting for a CPU (Linux)."""
    try:
        return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def start_server(
    db_url: str | None,
    port: int,
    workdir: Path,
    limits: dict[str, Any] | None = None,
    census_after: float | None = None,
    src: str | None = None,
) -> subprocess.Popen[bytes]:
    """The server process; ``census_after``: seconds after which it counts what its next
    middle-generation collection walks (`collector_census`); ``src``: the directory of the
    ``intrigue`` package it runs (None: this checkout's)."""
    url = db_url or f"sqlite:///{workdir / 'load.sqlite3'}"
    log = (workdir / "server.log").open("wb")
    extra = json.dumps(limits or {})
    census = []
    if census_after is not None:
        census = [str(workdir / CENSUS_FILE), str(time.monotonic() + census_after)]
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            SERVER_SCRIPT,
            url,
            str(port),
            extra,
            str(workdir / GC_FILE),
            *census,
        ],
        stdout=log,
        stderr=log,
        env=source_env(src),
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {(workdir / 'server.log').read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 30 s")


GC_FILE = "gc.json"  # where the server started here leaves its collector's passes
CENSUS_FILE = "census.json"  # and, with --census, what one of its passes walked


def collector_census(path: Path, top: int = 8) -> dict[str, Any] | None:
    """What the server's first middle-generation collection after the warm-up walked: how
    many objects, the references they hold, and the most common types. None if not taken."""
    try:
        taken = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    kinds = sorted(taken["kinds"].items(), key=lambda item: -item[1])[:top]
    return {"objects": taken["objects"], "references": taken["references"], "kinds": kinds}


def census_line(census: dict[str, Any] | None) -> list[str]:
    """The report's line on the census (none if not asked for or not taken)."""
    if census is None:
        return []
    kinds = ", ".join(f"{name} {count:,}" for name, count in census["kinds"])
    return [
        f"census    a middle-generation pass walked {census['objects']:,} objects holding "
        f"{census['references']:,} references: {kinds}"
    ]


def collector_pauses(path: Path, start: float, end: float) -> dict[str, Any] | None:
    """The collector's passes in the server started here between ``start`` and ``end``
    (``time.monotonic``, the same clock in every process): per generation, how many and how
    long (thread CPU ms). None if the server left no record."""
    try:
        passes = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    pauses: dict[str, Any] = {}
    for generation in range(3):
        ms = [1000 * cpu for gen, at, cpu in passes if gen == generation and start <= at <= end]
        if ms:
            pauses[f"gen{generation}"] = {
                "count": len(ms),
                "mean_ms": round(sum(ms) / len(ms), 1),
                "max_ms": round(max(ms), 1),
                "total_s": round(sum(ms) / 1000, 3),
            }
    return pauses


def server_complaints(log: Path, keep: int = 20) -> list[str]:
    """The last warnings and errors of the server started here: why clients saw errors."""
    lines = log.read_text(errors="replace").splitlines()
    return [line for line in lines if "WARNING" in line or "ERROR" in line or "Error" in line][
        -keep:
    ]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Plan:
    """What one generator process does: its tables, and the shared timeline."""

    base: str
    tables: int
    seed: int
    start: float  # time.monotonic() at which every process starts playing
    warmup: float
    seconds: float
    moves: int | None
    first_table: int = 0  # this process's tables are numbered from here (their addresses)
    own_addresses: bool = False  # each table's players connect from 127.0.1.x of their own


def table_address(number: int) -> str:
    """The loopback address the players of table ``number`` connect from (``--abuse``)."""
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


async def generate(plan: Plan) -> Tally:
    """Play ``plan.tables`` tables until the deadline; the tally of this process."""
    await asyncio.sleep(max(0.0, plan.start - time.monotonic()))
    measuring_from = plan.start + plan.warmup
    tally = Tally(measuring_from=measuring_from)
    stop = Stop(measuring_from + plan.seconds, plan.moves, tally)
    ws_base = "ws" + plan.base[len("http") :]
    rng = random.Random(plan.seed)
    # Well below the cap on HTTP connections per address of ``intrigue serve`` (--abuse).
    limits = httpx.Limits(max_connections=min(plan.tables, 8))
    async with httpx.AsyncClient(base_url=plan.base, timeout=30, limits=limits) as http:
        runner = asyncio.gather(
            *(
                run_table(
                    http,
                    ws_base,
                    random.Random(rng.random()),
                    tally,
                    stop,
                    table_address(plan.first_table + i) if plan.own_addresses else None,
                )
                for i in range(plan.tables)
            )
        )
        await asyncio.sleep(max(0.0, measuring_from - time.monotonic()))
        cpu0, wall0 = own_cpu_seconds(), time.monotonic()
        await runner
        tally.wall_seconds = time.monotonic() - wall0
        tally.cpu_seconds = own_cpu_seconds() - cpu0
    return tally


def run_generator(plan: Plan) -> dict[str, Any]:
    """One generator process (or the only one): its tally as a plain dict."""
    try:
        import uvloop  # a cheaper event loop leaves more of the machine to the server

        runner: Callable[..., Any] = uvloop.run
    except ImportError:  # pragma: no cover
        runner = asyncio.run
    return asdict(runner(generate(plan)))


def measure(
    args: argparse.Namespace,
    base: str,
    server_pid: int | None,
    attacked: bool = False,
    profile: Path | None = None,
) -> tuple[dict[str, Any], tuple[float, float]]:
    """The run's figures, and when it was measured (``time.monotonic``: the warm-up is left
    out); ``profile``: where ``perf record`` writes ``--perf`` seconds of the server's stacks
    from the end of the warm-up on."""
    tables = max(1, args.clients // SEATS)
    processes = max(1, min(args.processes, tables))
    start = time.monotonic() + 1.0  # time to start the generator processes
    rng = random.Random(args.seed)
    counts = [tables // processes + (1 if i < tables % processes else 0) for i in range(processes)]
    plans = [
        Plan(
            base=base,
            tables=counts[i],
            seed=rng.getrandbits(32),
            start=start,
            warmup=args.warmup,
            seconds=args.seconds,
            moves=None if args.moves is None else -(-args.moves // processes),
            first_table=sum(counts[:i]),
            own_addresses=args.abuse,
        )
        for i in range(processes)
    ]
    # Even one generator runs in a process of its own: this one samples the server's CPU while
    # it runs, from the end of the warm-up on. The attacker, if any, has a process of its own.
    with multiprocessing.get_context("spawn").Pool(processes + attacked) as pool:
        if attacked:
            until = start + args.warmup + args.seconds
            plan = Attack(base, until, args.trickle, args.deaf, args.flood)
            answered = pool.apply_async(run_attack, (plan,))
        pending = pool.map_async(run_generator, plans)
        time.sleep(max(0.0, start + args.warmup - time.monotonic()))
        cpu0 = cpu_seconds(server_pid) if server_pid else None
        threads0 = thread_figures(server_pid) if server_pid else None
        waited0 = waited_for_cpu(server_pid) if server_pid else None
        wall0 = time.monotonic()
        recording = None
        if profile is not None and server_pid:
            recording = server_profile.record(server_pid, args.perf, profile)
        tallies = pending.get()
        if recording is not None:
            recording.wait()
        wall = time.monotonic() - wall0
        server_cpu = cpu_seconds(server_pid) - cpu0 if server_pid and cpu0 is not None else None
        waited1 = waited_for_cpu(server_pid) if server_pid else None
        threads1 = thread_figures(server_pid) if server_pid else None
        if attacked:
            attacker = answered.get()
    result = summarise(args, tallies, tables, processes, wall, server_cpu)
    if waited0 is not None and waited1 is not None:
        result["server_waited_for_cpu_seconds"] = round(waited1 - waited0, 2)
    if threads0 is not None and threads1 is not None and result["moves"]:
        result["server_threads"] = per_move(threads0, threads1, result["moves"])
    if attacked:
        result["attacker"] = attacker
    return result, (wall0, wall0 + wall)


def per_move(
    before: dict[str, tuple[float, int]], after: dict[str, tuple[float, int]], moves: int
) -> dict[str, dict[str, float]]:
    """`thread_figures` over a run, per move: CPU ms and context switches of each group."""
    return {
        name: {
            "cpu_ms_per_move": round(1000 * (after[name][0] - before[name][0]) / moves, 3),
            "switches_per_move": round((after[name][1] - before[name][1]) / moves, 2),
        }
        for name in before
    }


def summarise(
    args: argparse.Namespace,
    tallies: list[dict[str, Any]],
    tables: int,
    processes: int,
    wall: float,
    server_cpu: float | None,
) -> dict[str, Any]:
    ms = [1000 * x for t in tallies for x in t["latencies"]]
    moves = sum(t["moves"] for t in tallies)
    seconds = max(t["wall_seconds"] for t in tallies) or wall
    own_cpu = sum(t["cpu_seconds"] for t in tallies)
    return {
        "clients": tables * SEATS,
        "tables": tables,
        "generator_processes": processes,
        "seconds": round(seconds, 2),
        "moves": moves,
        "moves_per_second": round(moves / seconds, 1),
        "games_finished": sum(t["games"] for t in tallies),
        # What every connection of the tables received: 5 a move if every seat hears of
        # every move (fewer with `Settings.update_delay`).
        "updates_per_move": round(sum(t["updates"] for t in tallies) / moves, 2) if moves else None,
        "latency_ms": {
            "p50": round(percentile(ms, 0.50), 2),
            "p95": round(percentile(ms, 0.95), 2),
            "p99": round(percentile(ms, 0.99), 2),
            "max": round(max(ms), 2) if ms else None,
        },
        "errors": sum(t["errors"] for t in tallies),
        "error_samples": [s for t in tallies for s in t["error_samples"]][:5],
        "connections_lost": sum(t["lost"] for t in tallies),
        "server_cpu_cores": None if server_cpu is None else round(server_cpu / wall, 2),
        "server_cpu_ms_per_move": (
            None if server_cpu is None or not moves else round(1000 * server_cpu / moves, 3)
        ),
        "load_generator_cpu_cores": round(own_cpu / seconds, 2),
        "load_generator_cpu_ms_per_move": round(1000 * own_cpu / moves, 3) if moves else None,
        "load_average": os.getloadavg()[0],
    }


def report(result: dict[str, Any]) -> str:
    lat = result["latency_ms"]
    cpu = result["server_cpu_cores"]
    per_move = result["server_cpu_ms_per_move"]
    return "\n".join(
        [
            f"{result['clients']} clients on {result['tables']} tables, "
            f"{result['generator_processes']} generator process(es), "
            f"{result['seconds']} s measured",
            f"moves/s   {result['moves_per_second']}  ({result['moves']} moves, "
            f"{result['games_finished']} games finished, "
            f"{result['updates_per_move']} updates received a move)",
            f"latency   p50 {lat['p50']} ms  p95 {lat['p95']} ms  p99 {lat['p99']} ms  "
            f"max {lat['max']} ms",
            f"errors    {result['errors']}  connections lost {result['connections_lost']}"
            + (f"  e.g. {result['error_samples'][0]!r}" if result["error_samples"] else ""),
            f"CPU       server {'-' if cpu is None else cpu} cores "
            f"({'-' if per_move is None else per_move} ms/move), "
            f"load generator {result['load_generator_cpu_cores']} cores "
            f"({result['load_generator_cpu_ms_per_move']} ms/move)",
            *threads_line(result.get("server_threads")),
            f"machine   load average {result['load_average']:.2f} at the end "
            f"({os.cpu_count()} CPUs, shared with whatever else runs); the server's event loop "
            f"waited {result.get('server_waited_for_cpu_seconds', '-')} s for a CPU",
            *collector_line(result.get("collector")),
            *census_line(result.get("census")),
            *profile_lines(result.get("profile"), per_move),
        ]
    )


def profile_lines(shares: dict[str, float] | None, cpu_ms_per_move: float | None) -> list[str]:
    """With ``--perf``: where the server's CPU went, a part a line."""
    if shares is None:
        return []
    if not shares:
        return ["perf recorded nothing (see /proc/sys/kernel/perf_event_paranoid)"]
    return ["where the server's CPU went (perf):", server_profile.table(shares, cpu_ms_per_move)]


def threads_line(threads: dict[str, dict[str, float]] | None) -> list[str]:
    """The report's line on the server's threads (none without the server's pid)."""
    if threads is None:
        return []
    loop, other = threads["loop"], threads["other"]
    return [
        f"threads   event loop {loop['cpu_ms_per_move']} ms/move, "
        f"{loop['switches_per_move']} context switches a move; "
        f"other threads {other['cpu_ms_per_move']} ms/move, "
        f"{other['switches_per_move']} switches a move"
    ]


def collector_line(pauses: dict[str, Any] | None) -> list[str]:
    """The report's line on the garbage collector's pauses (none for a server not ours)."""
    if pauses is None:
        return []
    parts = [
        f"{gen} {p['count']} x {p['mean_ms']} ms (max {p['max_ms']})" for gen, p in pauses.items()
    ]
    return ["collector " + (", ".join(parts) if parts else "no pass") + " (server thread CPU)"]


# ``intrigue serve``'s limits on connections, which --abuse runs both servers with.
CONNECTION_LIMITS = (
    "max_http_per_address",
    "max_sockets_per_address",
    "max_spectators_per_table",
    "max_sockets_per_seat",
)


def source_env(src: str | None) -> dict[str, str] | None:
    """The environment of a server that runs the ``intrigue`` package found in ``src`` (first
    on its path, before this checkout's) instead of this checkout's; None: unchanged."""
    if src is None:
        return None
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    return env


def run_once(
    args: argparse.Namespace, attacked: bool = False, src: str | None = None
) -> dict[str, Any]:
    """One measured run: on ``--url``, or on a server of its own (stopped at the end), which
    runs the ``intrigue`` package of ``src`` if given (`source_env`)."""
    from intrigue.server.config import SERVE_LIMITS

    limits = {name: SERVE_LIMITS[name] for name in CONNECTION_LIMITS} if args.abuse else {}
    limits["update_delay"] = (
        SERVE_LIMITS["update_delay"] if args.update_delay is None else args.update_delay
    )
    with tempfile.TemporaryDirectory(prefix="intrigue-load-") as tmp:
        proc = None
        base = args.url
        server_pid = args.server_pid
        if base is None:
            port = free_port()
            census_after = args.warmup + args.seconds / 2 if args.census else None
            proc = start_server(args.db, port, Path(tmp), limits, census_after, src)
            base, server_pid = f"http://127.0.0.1:{port}", proc.pid
        try:
            profile = Path(tmp) / "perf.data" if args.perf else None
            result, window = measure(args, base.rstrip("/"), server_pid, attacked, profile)
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(30)
        if profile is not None:  # empty if perf could not record (perf_event_paranoid?)
            found = profile.exists() and server_profile.script(profile)
            result["profile"] = server_profile.split(found) if found else {}
        if proc is not None and result["errors"]:
            result["server_log"] = server_complaints(Path(tmp) / "server.log")
        if proc is not None:
            result["collector"] = collector_pauses(Path(tmp) / GC_FILE, *window)
            if args.census:
                result["census"] = collector_census(Path(tmp) / CENSUS_FILE)
    result["limits"] = limits
    return result


# The figures `--runs` gives the median of: (label, how to read it from a run's result).
MEDIANS = (
    ("moves/s", lambda r: r["moves_per_second"]),
    ("p99 ms", lambda r: r["latency_ms"]["p99"]),
    ("server CPU ms/move", lambda r: r["server_cpu_ms_per_move"]),
    (
        "event loop ms/move",
        lambda r: (r.get("server_threads") or {}).get("loop", {}).get("cpu_ms_per_move"),
    ),
)


def run_line(label: str, result: dict[str, Any]) -> str:
    """One run of a series, on one line."""
    figures = "  ".join(f"{name} {read(result)}" for name, read in MEDIANS)
    return f"{label:10} {figures}"


def medians(results: list[dict[str, Any]]) -> dict[str, float | None]:
    """The median of each of `MEDIANS` over ``results`` (None where a run lacks it)."""
    out: dict[str, float | None] = {}
    for name, read in MEDIANS:
        values = [read(r) for r in results]
        out[name] = None if None in values else round(statistics.median(values), 3)
    return out


def series(args: argparse.Namespace) -> dict[str, list[dict[str, Any]]]:
    """``--runs`` runs of each code (this checkout's, and ``--against``'s alternating with
    it), printing a line a run as it ends."""
    codes: list[tuple[str, str | None]] = [("this", None)]
    if args.against:
        codes.append(("against", args.against))
    results: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in codes}
    for i in range(args.runs):
        for label, src in codes:
            result = run_once(args, src=src)
            results[label].append(result)
            if not args.json:
                print(run_line(f"{label} {i + 1}", result), flush=True)
    return results


def series_report(results: dict[str, list[dict[str, Any]]]) -> str:
    """The medians of each code's runs, side by side; with ``--perf``, where each code's
    server CPU went (the mean share of each part over its runs)."""
    lines = ["medians:"]
    for label, runs in results.items():
        figures = "  ".join(f"{name} {value}" for name, value in medians(runs).items())
        lines.append(f"{label:10} {figures}  ({len(runs)} runs)")
    columns = {
        label: (server_profile.mean(splits), medians(runs)["server CPU ms/move"])
        for label, runs in results.items()
        if (splits := [r["profile"] for r in runs if r.get("profile")])
    }
    if columns:
        lines += ["where the server's CPU went (perf, mean of the runs):"]
        lines.append(server_profile.side_by_side(columns))
    return "\n".join(lines)


def abuse_report(quiet: dict[str, Any], attacked: dict[str, Any]) -> str:
    """Both runs, the victims' p99 under attack over the quiet one, and the attacker's tally."""
    ratio = attacked["latency_ms"]["p99"] / quiet["latency_ms"]["p99"]
    lines = ["quiet run:", report(quiet), "", "under attack:", report(attacked), ""]
    lines.append(f"victims' p99 under attack / quiet: {ratio:.2f}")
    for name, answers in attacked.get("attacker", {}).items():
        said = ", ".join(f"{how}: {n}" for how, n in sorted(answers.items()))
        lines.append(f"attacker {name:8} {said}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--server-pid", type=int, help="the pid of the --url server, for its CPU")
    parser.add_argument("--db", help="database URL for the server started here (default: SQLite)")
    parser.add_argument("--clients", type=int, default=200, help="WebSocket clients (5 per table)")
    parser.add_argument("--processes", type=int, default=1, help="load generator processes")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured duration")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured")
    parser.add_argument("--moves", type=int, help="stop after this many measured moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--update-delay",
        type=float,
        help="seconds updates to connections not to move may wait (default: intrigue serve's)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--census",
        action="store_true",
        help="count what one middle-generation collection of the server walks (mid-run; "
        "that pass's figures include the count's own time)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="runs (each on a fresh server), then their medians"
    )
    parser.add_argument(
        "--against",
        metavar="SRC",
        help="alternate the runs with a server running the intrigue package in SRC",
    )
    parser.add_argument(
        "--perf",
        type=float,
        metavar="SECONDS",
        help="profile the server with Linux perf for SECONDS after the warm-up and report "
        "where its CPU went, part by part (bench/server_profile.py)",
    )
    parser.add_argument("--abuse", action="store_true", help="a quiet run, then under attack")
    parser.add_argument("--trickle", type=int, default=1100, help="--abuse: trickling requests")
    parser.add_argument("--deaf", type=int, default=2000, help="--abuse: spectators not reading")
    parser.add_argument("--flood", type=int, default=500, help="--abuse: silent sockets")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs takes a number of runs of at least 1")
    if args.against and (args.url or args.abuse):
        parser.error("--against starts servers of its own: not with --url or --abuse")
    if args.against and not (Path(args.against) / "intrigue" / "__init__.py").is_file():
        parser.error(f"--against {args.against}: no intrigue package there")
    if args.perf and shutil.which("perf") is None:
        parser.error("--perf needs Linux perf (Debian's package linux-perf)")
    if args.runs > 1 or args.against:
        results = series(args)
        print(json.dumps(results, indent=2) if args.json else series_report(results))
        return 0
    if args.abuse:
        quiet, attacked = run_once(args), run_once(args, attacked=True)
        both = {"quiet": quiet, "attacked": attacked}
        print(json.dumps(both, indent=2) if args.json else abuse_report(quiet, attacked))
        return 0
    result = run_once(args)
    print(json.dumps(result, indent=2) if args.json else report(result))
    if not args.json and result.get("server_log"):
        print("server log:", *result["server_log"], sep="\n  ")
    return 0


if __name__ == "__main__":
    sys.exit(main())
