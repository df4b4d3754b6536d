"""The attacker of ``bench/load.py --abuse``: slow and greedy clients, from their own addresses.

Three attacks run at once in a process of their own, each from its own loopback address (the
victims' tables play from others, one address per table, like households):

* **trickle** (127.0.0.2): ``--trickle`` connections that send half a request's headers, then
  a byte a second; each is reopened as soon as the server closes it;
* **deaf spectators** (127.0.0.3): ``--deaf`` WebSockets opened as spectators of the victims'
  tables (round robin over the lobby's list) that never read a byte after their handshake,
  with a 4 KB receive buffer; reopened when closed;
* **flood** (127.0.0.4): ``--flood`` WebSockets that never say hello, reopened as soon as
  they are closed or refused.

It counts what the server answered: refusals (429 for HTTP, a WebSocket closed with a reason),
timeouts (408), closes, and the connections still open (or still waiting to be accepted) when
the run ended — about one per attacking task, since each reopens its connection at once.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import parse_uri

TRICKLE, DEAF, FLOOD = "127.0.0.2", "127.0.0.3", "127.0.0.4"
PARTIAL = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
ANSWERS = {b"HTTP/1.1 429": "refused (429)", b"HTTP/1.1 408": "timed out (408)"}
PAUSE = 0.5  # seconds before an attacker reopens a connection the server closed


@dataclass
class Attack:
    """What to throw at the server at ``base`` until ``until`` (time.monotonic())."""

    base: str
    until: float
    trickle: int = 1100
    deaf: int = 2000
    flood: int = 500


class Sock(asyncio.Protocol):
    """A WebSocket client that says ``hello`` (or nothing) and then never reads again."""

    def __init__(self, url: str, hello: bool, done: asyncio.Future[str]) -> None:
        self.ws = ClientProtocol(parse_uri(url), max_size=2**22)
        self.hello, self.done = hello, done
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Response):
                if event.status_code != 101:
                    self._finish("refused")
                    return
                if self.hello and self.ws.state is State.OPEN:
                    self.ws.send_text(json.dumps({"type": "hello"}).encode())
                    self._flush()
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                if b'"error"' in event.data:  # refused, with the reason
                    self._finish("refused")
                    return
                if self.hello and self.transport is not None:
                    self.transport.pause_reading()  # deaf from the first sync on

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish("closed")

    def _finish(self, how: str) -> None:
        if not self.done.done():
            self.done.set_result(how)
        if self.transport is not None:
            self.transport.close()

    def _flush(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            for data in self.ws.data_to_send():
                self.transport.write(data)


async def hold_socket(url: str, source: str, hello: bool, until: float, tally: Counter[str]) -> str:
    """One connection from ``source``, held until ``until`` unless the server ends it."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    done: asyncio.Future[str] = loop.create_future()
    try:
        sock.bind((source, 0))
        uri = parse_uri(url)
        await loop.sock_connect(sock, (uri.host, uri.port))
        transport, _ = await loop.create_connection(lambda: Sock(url, hello, done), sock=sock)
    except OSError:
        sock.close()
        return "failed to connect"
    tally["opened"] += 1
    try:
        return await asyncio.wait_for(done, max(0.0, until - time.monotonic()))
    except TimeoutError:
        return "still open at the end"
    finally:
        transport.close()


async def repeat_socket(
    url_of: Any, source: str, hello: bool, until: float, tally: Counter[str]
) -> None:
    """Reopen a connection each time the server closes it, until ``until``."""
    n = 0
    while time.monotonic() < until:
        tally[await hold_socket(url_of(n), source, hello, until, tally)] += 1
        n += 1
        await asyncio.sleep(PAUSE)


async def trickle_one(port: int, until: float, tally: Counter[str]) -> None:
    """Half a request, a byte a second, reopened whenever the server closes it."""
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(TRICKLE, 0)
            )
        except OSError:
            tally["failed to connect"] += 1
            await asyncio.sleep(PAUSE)
            continue
        tally["opened"] += 1
        writer.write(PARTIAL)
        answer: bytes | None = None  # still open when the run ends
        while time.monotonic() < until:
            try:
                answer = await asyncio.wait_for(reader.read(64), 1.0)
                break
            except TimeoutError:
                writer.write(b"X")
            except OSError:
                answer = b""
                break
        tally[answered(answer)] += 1
        writer.close()
        await asyncio.sleep(PAUSE)


def answered(answer: bytes | None) -> str:
    """What the server did with a trickling request, in words."""
    if answer is None:
        return "still open at the end"
    return ANSWERS.get(answer[:12], answer.decode(errors="replace")[:20] or "closed")


async def attack(plan: Attack) -> dict[str, dict[str, int]]:
    """Run the three attacks until ``plan.until``; what the server answered to each."""
    port = int(plan.base.rsplit(":", 1)[1])
    ws = "ws" + plan.base[len("http") :]
    tallies: dict[str, Counter[str]] = {"trickle": Counter(), "deaf": Counter(), "flood": Counter()}
    async with httpx.AsyncClient(base_url=plan.base, timeout=30) as http:
        tables: list[str] = []
        while not tables and time.monotonic() < plan.until:
            tables = [t["id"] for t in (await http.get("/api/tables")).json()["tables"]]
            await asyncio.sleep(0.2)
    if not tables:
        return {}

    def table_url(n: int) -> str:
        return f"{ws}/ws/{tables[n % len(tables)]}"

    jobs = [trickle_one(port, plan.until, tallies["trickle"]) for _ in range(plan.trickle)]
    jobs += [
        repeat_socket(lambda n, i=i: table_url(i + n), DEAF, True, plan.until, tallies["deaf"])
        for i in range(plan.deaf)
    ]
    jobs += [
        repeat_socket(table_url, FLOOD, False, plan.until, tallies["flood"])
        for _ in range(plan.flood)
    ]
    await asyncio.gather(*jobs)
    return {name: dict(tally) for name, tally in tallies.items()}


def run_attack(plan: Attack) -> dict[str, dict[str, int]]:
    """The attacker process's entry point."""
    return asyncio.run(attack(plan))
