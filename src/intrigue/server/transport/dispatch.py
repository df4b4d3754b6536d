"""``intrigue serve --workers N``: one process accepts, N workers serve, a table meets in one.

With uvicorn's own worker processes every process accepts from the shared socket, so the
kernel spreads a table's connections over the processes, and each move then travels from one
to the others through the database and the bus (docs/performance.md: two workers played
fewer moves than one, with "table moved on" errors). Here the parent process accepts every
connection and looks at its request line without reading it (``MSG_PEEK``: the bytes stay in
the socket), then hands the socket itself to one worker over a Unix socket (``SCM_RIGHTS``):

* a request about a table (``/ws/{table}``, ``/api/tables/{table}...``, ``/table/{table}...``)
  goes to the worker `worker_for` the table, so all of a table's players share one process;
* any other connection goes to the worker of its client address, so an address's HTTP
  connections still meet one worker's per-address cap.

The worker (`intrigue.server.transport.worker`) reads the request itself, as if it had accepted
the connection. A connection whose request line does not arrive within `PEEK_SECONDS` is handed
on by its address; the worker's own deadlines then deal with it. This module only routes and
supervises: it never reads a request's headers or body, so it logs no secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
import socket
import subprocess
import zlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("intrigue.server")

PEEK_BYTES = 2048  # a request line longer than this is routed by address
PEEK_SECONDS = 2.0  # a connection silent this long is handed on by its address
PEEK_AGAIN = 0.02  # pause before looking again at a request line still arriving
MAX_PEEKING = 1024  # connections waited for at once; beyond, handed on by address at once
READY = b"ready"  # a worker's first message: it serves from now on
START_SECONDS = 300.0  # for every worker to be ready (a loaded machine imports slowly)
STOP_SECONDS = 30.0  # for the workers to finish after SIGTERM, before SIGKILL
RESPAWN_SECONDS = 1.0  # between a worker's death and its replacement
ACCEPT_PAUSE = 0.1  # after a failed accept (no descriptor left), before the next
# The paths that name a table, as segments before the table's id.
TABLE_PATHS = ((b"ws",), (b"api", b"tables"), (b"table",))

# Starts worker ``index`` (of the dispatcher's count) given its end of the channel.
Spawn = Callable[[socket.socket, int], "subprocess.Popen[bytes]"]


def table_of(head: bytes) -> str | None:
    """The table a request is about, from its request line (``GET /ws/abc HTTP/1.1``)."""
    line, complete, _ = head.partition(b"\r\n")
    parts = line.split(b" ")
    if not complete or len(parts) != 3:
        return None
    segments = parts[1].split(b"?", 1)[0].strip(b"/").split(b"/")
    for prefix in TABLE_PATHS:
        if len(segments) > len(prefix) and tuple(segments[: len(prefix)]) == prefix:
            table = segments[len(prefix)]
            return table.decode("latin-1") if table else None
    return None


def worker_for(table: str | None, address: str, workers: int) -> int:
    """The worker (0 to ``workers - 1``) for a request about ``table`` from ``address``."""
    key = f"table {table}" if table is not None else f"address {address}"
    return zlib.crc32(key.encode()) % workers


def table_ids_for(index: int, workers: int) -> Callable[[], str]:
    """New table ids that `worker_for` routes to worker ``index``: a table is then served
    where it was made, where its bots and clock run (its lease), so their moves need no
    note on the bus. A random id is drawn until one does (``workers`` draws on average; the
    ids keep 48 random bits less log2(workers))."""

    def new_id() -> str:
        while True:
            table = secrets.token_hex(6)
            if worker_for(table, "", workers) == index:
                return table

    return new_id


@dataclass
class Worker:
    """One worker process and the parent's end of the socket its connections go through."""

    process: subprocess.Popen[bytes]
    channel: socket.socket
    ready: bool = False


class Dispatcher:
    """Accepts on ``listener`` and hands each connection to one of ``count`` workers."""

    def __init__(self, listener: socket.socket, count: int, spawn: Spawn) -> None:
        self.listener = listener
        self.spawn = spawn  # starts worker i given its end of the channel
        self.workers: list[Worker] = []
        self.count = count
        self.peeking = 0
        self.stopping = asyncio.Event()
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> int:
        """Serve until SIGINT or SIGTERM; then stop the workers. The exit status."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stopping.set)
        try:
            self.workers = [self._start(index) for index in range(self.count)]
            if not await self._all_ready():
                return 1
            self.listener.setblocking(False)
            accepting = asyncio.create_task(self._accept())
            supervising = asyncio.create_task(self._supervise())
            await self.stopping.wait()
            accepting.cancel()
            supervising.cancel()
            return 0
        finally:
            self.listener.close()
            await self._stop_workers()

    # -- workers -----------------------------------------------------------------------------
    def _start(self, index: int) -> Worker:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = self.spawn(theirs, index)
        finally:
            theirs.close()  # the child has its own copy
        ours.setblocking(False)
        return Worker(process, ours)

    async def _all_ready(self) -> bool:
        """Wait for every worker's `READY`; False if one exits first or the time runs out."""
        try:
            async with asyncio.timeout(START_SECONDS):
                for worker in self.workers:
                    await self._until_ready(worker)
        except (TimeoutError, ConnectionError) as exc:
            log.error("a server worker did not start: %s", exc or "no answer in time")
            return False
        return True

    async def _until_ready(self, worker: Worker) -> None:
        message = await asyncio.get_running_loop().sock_recv(worker.channel, len(READY))
        if message != READY:
            raise ConnectionError(f"worker {worker.process.pid} exited")
        worker.ready = True

    async def _supervise(self) -> None:
        """Replace a worker that died (its tables reload from the database in the new one)."""
        while True:
            await asyncio.sleep(RESPAWN_SECONDS)
            for index, worker in enumerate(self.workers):
                if worker.process.poll() is None:
                    continue
                status = worker.process.returncode
                log.error("server worker %d exited (status %s); starting another", index, status)
                try:
                    replacement = self._start(index)
                except OSError as exc:  # no process or descriptor to spare: try next pass
                    log.error("could not start a server worker: %s", exc)
                    continue
                worker.channel.close()
                self.workers[index] = replacement
                self._spawn_task(self._until_ready(replacement))

    async def _stop_workers(self) -> None:
        for worker in self.workers:
            with contextlib.suppress(ProcessLookupError):
                worker.process.terminate()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_SECONDS
        for worker in self.workers:
            while worker.process.poll() is None and loop.time() < deadline:
                await asyncio.sleep(0.05)
            if worker.process.poll() is None:
                worker.process.kill()
                worker.process.wait()
            worker.channel.close()

    # -- connections -------------------------------------------------------------------------
    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                connection, address = await loop.sock_accept(self.listener)
            except OSError as exc:  # out of descriptors, say: the backlog waits meanwhile
                log.warning("could not accept a connection: %s", exc)
                await asyncio.sleep(ACCEPT_PAUSE)
                continue
            connection.setblocking(False)
            with contextlib.suppress(OSError):  # as uvicorn's own listening servers do
                connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            host = str(address[0]) if isinstance(address, tuple) else ""
            self._spawn_task(self._route(connection, host))

    def _spawn_task(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)  # a reference, so the task is not collected while it runs
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("dispatcher: %s", exc)  # a worker that never became ready, say

    async def _route(self, connection: socket.socket, address: str) -> None:
        try:
            head = b""
            if self.peeking < MAX_PEEKING:
                self.peeking += 1
                try:
                    head = await _peek(connection)
                finally:
                    self.peeking -= 1
            if head is None:  # the client left before asking anything
                return
            self._hand(worker_for(table_of(head), address, len(self.workers)), connection)
        finally:
            connection.close()  # our copy; the worker holds its own

    def _hand(self, first: int, connection: socket.socket) -> None:
        """Pass ``connection`` to worker ``first``, or the next that can take it."""
        count = len(self.workers)
        for index in [(first + step) % count for step in range(count)]:
            worker = self.workers[index]
            if not worker.ready:
                continue
            try:
                socket.send_fds(worker.channel, [b"c"], [connection.fileno()])
                return
            except OSError:  # that worker is gone, or its queue is full: try the next
                continue
        log.warning("no server worker could take a connection; it was closed")


async def _peek(connection: socket.socket) -> bytes | None:
    """The start of the request on ``connection``, left unread; None if the client left."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PEEK_SECONDS
    while True:
        try:
            head = connection.recv(PEEK_BYTES, socket.MSG_PEEK)
        except BlockingIOError:
            head = b""
            waiting = True
        except OSError:
            return None
        else:
            if not head:
                return None  # closed
            if b"\r\n" in head or len(head) >= PEEK_BYTES:
                return head
            waiting = False
        remaining = deadline - loop.time()
        if remaining <= 0:
            return head
        if waiting:
            await _readable(connection, remaining)
        else:  # part of a line: the socket stays readable, so look again a little later
            await asyncio.sleep(min(PEEK_AGAIN, remaining))


async def _readable(connection: socket.socket, timeout: float) -> None:
    """Return when ``connection`` has bytes to read (or has closed), or after ``timeout``."""
    loop = asyncio.get_running_loop()
    ready = loop.create_future()
    fd = connection.fileno()
    loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready, timeout)
    finally:
        loop.remove_reader(fd)
