"""Load on the game server: many Masquerade Murder tables, five WebSocket players each.

    .venv/bin/python bench/load.py                       # 200 clients for 20 s, own server
    .venv/bin/python bench/load.py --clients 50 --seconds 10 --json
    .venv/bin/python bench/load.py --db postgresql://127.0.0.1/test
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000   # a server already running

Unless ``--url`` is given, the benchmark starts the server itself (``uvicorn`` in a child
process, on a fresh SQLite file or ``--db``) with the per-connection rate limit lifted (these
clients move faster than people can), and stops it at the end.

Every table is created through the HTTP API with five human seats; each client plays a random
legal move as soon as it may (it has legal moves and no move of its own is waiting for an
answer). A finished game is followed by a new table for the same five clients. The run stops
by itself after ``--seconds`` (or ``--moves`` moves), and reports (see docs/performance.md):

* moves/s: moves acknowledged per second, after ``--warmup`` seconds;
* latency: from sending a move to receiving the update that acknowledges it (the mover's new
  view), p50/p95/p99/max in milliseconds;
* errors: error messages received (a correct client gets none) and connections lost;
* CPU: the server process's CPU time per second of the run (1.0 = one core busy), when the
  benchmark started the server; the load generator's own CPU likewise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

SEATS = 5
GAME = "masquerade-murder"
SERVER_SCRIPT = """
import sys, uvicorn
from intrigue.server.config import Settings, normalise_database_url
from intrigue.server.run import uvicorn_config
settings = Settings(database_url=normalise_database_url(sys.argv[1]), bot_delay=0,
                    rate_per_second=1e9, rate_burst=10**9)
uvicorn.Server(uvicorn_config(settings, "127.0.0.1", int(sys.argv[2]), "warning")).run()
"""


@dataclass
class Tally:
    """What every client reports, shared by all of them (one event loop: no locks)."""

    measuring_from: float
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0
    lost: int = 0
    games: int = 0
    error_samples: list[str] = field(default_factory=list)

    def acknowledged(self, sent_at: float) -> None:
        now = time.perf_counter()
        if sent_at >= self.measuring_from:
            self.moves += 1
            self.latencies.append(now - sent_at)

    def error(self, text: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(text)


class Stop:
    """When the run ends: a deadline and a move budget."""

    def __init__(self, seconds: float, moves: int | None, tally: Tally) -> None:
        self.deadline = time.perf_counter() + seconds
        self.moves = moves
        self.tally = tally

    def __call__(self) -> bool:
        over_budget = self.moves is not None and self.tally.moves >= self.moves
        return over_budget or time.perf_counter() >= self.deadline


async def play_seat(url: str, rng: random.Random, tally: Tally, stop: Stop) -> None:
    """One client: act whenever possible until the game ends or the run stops."""
    async with connect(url, max_size=2**22) as ws:
        sent_at: float | None = None
        while not stop():
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.01, stop.deadline - time.perf_counter())
                )
            except TimeoutError:
                return
            message = json.loads(raw)
            if message["type"] == "error":
                tally.error(message["message"])
                sent_at = None
            elif message.get("accepted") is not None and sent_at is not None:
                tally.acknowledged(sent_at)
                sent_at = None
            if message["type"] == "error":
                continue
            if message["view"]["is_over"]:
                return
            legal = message["legal_actions"]
            if legal and sent_at is None:
                action = rng.choice(legal)["action"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action}))


async def run_table(
    http: httpx.AsyncClient, ws_base: str, rng: random.Random, tally: Tally, stop: Stop
) -> None:
    """Five clients playing table after table."""
    while not stop():
        response = await http.post("/api/tables", json={"game": GAME, "seats": ["human"] * SEATS})
        response.raise_for_status()
        table = response.json()
        urls = [f"{ws_base}/ws/{table['id']}?token={link['token']}" for link in table["links"]]
        results = await asyncio.gather(
            *(play_seat(u, random.Random(rng.random()), tally, stop) for u in urls),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, (ConnectionClosed, OSError)):
                tally.lost += 1
            elif isinstance(result, BaseException):
                raise result
        tally.games += 1


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def start_server(db_url: str | None, port: int, workdir: Path) -> subprocess.Popen[bytes]:
    url = db_url or f"sqlite:///{workdir / 'load.sqlite3'}"
    log = (workdir / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER_SCRIPT, url, str(port)], stdout=log, stderr=log
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


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def measure(args: argparse.Namespace, base: str, server_pid: int | None) -> dict[str, Any]:
    tables = max(1, args.clients // SEATS)
    start = time.perf_counter()
    tally = Tally(measuring_from=start + args.warmup)
    stop = Stop(args.warmup + args.seconds, args.moves, tally)
    ws_base = "ws" + base[len("http") :]
    rng = random.Random(args.seed)
    limits = httpx.Limits(max_connections=tables)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as http:
        tasks = [
            run_table(http, ws_base, random.Random(rng.random()), tally, stop)
            for _ in range(tables)
        ]
        runner = asyncio.gather(*tasks)
        await asyncio.sleep(args.warmup)
        cpu0 = cpu_seconds(server_pid) if server_pid else None
        own0, wall0 = own_cpu_seconds(), time.perf_counter()
        await runner
        wall = time.perf_counter() - wall0
        server_cpu = (
            (cpu_seconds(server_pid) - cpu0) / wall if server_pid and cpu0 is not None else None
        )
        own_cpu = (own_cpu_seconds() - own0) / wall
    ms = [1000 * x for x in tally.latencies]
    return {
        "clients": tables * SEATS,
        "tables": tables,
        "seconds": round(wall, 2),
        "moves": tally.moves,
        "moves_per_second": round(tally.moves / wall, 1),
        "games_finished": tally.games,
        "latency_ms": {
            "p50": round(percentile(ms, 0.50), 2),
            "p95": round(percentile(ms, 0.95), 2),
            "p99": round(percentile(ms, 0.99), 2),
            "max": round(max(ms), 2) if ms else None,
        },
        "errors": tally.errors,
        "error_samples": tally.error_samples,
        "connections_lost": tally.lost,
        "server_cpu_cores": None if server_cpu is None else round(server_cpu, 2),
        "load_generator_cpu_cores": round(own_cpu, 2),
    }


def report(result: dict[str, Any]) -> str:
    lat = result["latency_ms"]
    cpu = result["server_cpu_cores"]
    return "\n".join(
        [
            f"{result['clients']} clients on {result['tables']} tables, "
            f"{result['seconds']} s measured",
            f"moves/s   {result['moves_per_second']}  ({result['moves']} moves, "
            f"{result['games_finished']} games finished)",
            f"latency   p50 {lat['p50']} ms  p95 {lat['p95']} ms  p99 {lat['p99']} ms  "
            f"max {lat['max']} ms",
            f"errors    {result['errors']}  connections lost {result['connections_lost']}",
            f"CPU       server {'-' if cpu is None else cpu} cores, "
            f"load generator {result['load_generator_cpu_cores']} cores",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--db", help="database URL for the server started here (default: SQLite)")
    parser.add_argument("--clients", type=int, default=200, help="WebSocket clients (5 per table)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured duration")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds not measured")
    parser.add_argument("--moves", type=int, help="stop after this many measured moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="intrigue-load-") as tmp:
        proc = None
        base = args.url
        if base is None:
            port = free_port()
            proc = start_server(args.db, port, Path(tmp))
            base = f"http://127.0.0.1:{port}"
        try:
            result = asyncio.run(measure(args, base.rstrip("/"), proc.pid if proc else None))
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(30)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
