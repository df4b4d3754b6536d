"""Slow and greedy clients cannot take the server from others (issue 18, item 6), over real
sockets: incomplete HTTP requests are timed out, HTTP connections and WebSockets are capped per
client address, spectators per table and connections per seat, and a socket that stops taking
its messages is dropped (it catches up with a full sync when it reconnects).

The attacks: 1,100 connections trickling their headers left no file descriptor for anyone, so
every legitimate request failed; there was no cap on connections per address, seat or table;
2,000 spectators that never read slowed another table's moves from 6 ms to over a second.
"""

from __future__ import annotations

import contextlib
import functools
import json
import resource
import socket
import time
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
    hello,
    wait_until,
)
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response
from websockets.sync.client import ClientConnection, connect
from websockets.uri import parse_uri

from intrigue.server.config import SERVE_LIMITS, Settings
from intrigue.server.tables.connection import Client
from intrigue.server.transport.websocket import CLOSE_TRY_LATER

ATTACKER = "127.0.0.2"  # another address of the loopback interface: not the victim's
PARTIAL = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # headers never finished
FILES = 256  # the server's limit on open files in the flood test


def trickler(port: int, source: str = ATTACKER, first: bytes = PARTIAL) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), TIMEOUT, source_address=(source, 0))
    if first:
        sock.sendall(first)
    return sock


def answer_to(sock: socket.socket, drip: bytes = b"") -> bytes:
    """What the server says before it closes ``sock``, sending ``drip`` every 0.1 s meanwhile
    (a trickle that must not keep the connection alive); fails if it never closes."""
    sock.settimeout(0.1)
    received = b""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            if drip:
                with contextlib.suppress(OSError):  # closed by the server meanwhile
                    sock.sendall(drip)
            continue
        except ConnectionResetError:
            return received
        if not chunk:
            return received
        received += chunk
    raise AssertionError("the server never closed the trickling connection")


def small_file_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


@pytest.fixture
def few_files(tmp_path: Path) -> Iterator[ProcessServer]:
    """``intrigue serve`` (its default limits) allowed 256 open files."""
    server = ProcessServer(
        f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "server.log", preexec=small_file_limit
    )
    yield server.start()
    server.stop()


def test_trickling_connections_leave_room_for_a_request(few_files):
    flood = [trickler(few_files.port) for _ in range(FILES + 100)]
    try:
        for sock in flood:
            with contextlib.suppress(OSError):  # (those the server refused are closed)
                sock.sendall(b"X")  # the headers go on... a byte at a time
        # Someone else, meanwhile, is served.
        response = httpx.get(f"{few_files.url}/api/games", timeout=TIMEOUT)
        assert response.status_code == 200
        # The flood was cut to the cap per address, with a reason.
        refused = answer_to(flood[-1])
        assert refused.startswith(b"HTTP/1.1 429")
        assert b"too many connections from your address" in refused
    finally:
        for sock in flood:
            sock.close()
    assert SERVE_LIMITS["max_http_per_address"] < FILES / 2


@pytest.fixture
def strict(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ThreadServer]:
    """A server with the limits the test names (``@pytest.mark.parametrize`` indirect)."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_delay=0, **request.param
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


DEADLINES = {"header_timeout": 0.5, "body_timeout": 0.5}


@pytest.mark.parametrize("strict", [DEADLINES], indirect=True)
def test_headers_trickled_a_byte_at_a_time_are_timed_out(strict):
    answer = answer_to(trickler(strict.port), drip=b"X")
    assert answer.startswith(b"HTTP/1.1 408")
    assert b"the request was not received in time" in answer


@pytest.mark.parametrize("strict", [DEADLINES], indirect=True)
def test_a_silent_connection_is_closed(strict):
    assert answer_to(trickler(strict.port, first=b"")) == b""


@pytest.mark.parametrize("strict", [DEADLINES], indirect=True)
def test_a_trickled_body_is_timed_out(strict):
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
    )
    answer = answer_to(trickler(strict.port, first=head), drip=b" ")
    assert b"201" not in answer  # no table was made of half a body


@pytest.mark.parametrize("strict", [DEADLINES], indirect=True)
def test_requests_in_time_are_served_on_a_kept_alive_connection(strict):
    with httpx.Client(base_url=strict.url, timeout=TIMEOUT) as http:
        for _ in range(3):
            assert http.get("/api/games").status_code == 200


JUNK = json.dumps({"type": "act", "action": "x" * 3900, "step": 0})


class DeafClient:
    """A client that never reads a byte after its handshake (a tiny receive buffer too)."""

    def __init__(self, port: int, table_id: str, token: str | None = None) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        self.ws = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws/{table_id}"))
        self.ws.send_request(self.ws.connect())
        self._flush()
        while not any(isinstance(e, Response) for e in self.ws.events_received()):
            self.ws.receive_data(self.sock.recv(4096))
        self.send(json.dumps(hello(token)))

    def send(self, text: str) -> None:
        self.ws.send_text(text.encode())
        self._flush()

    def _flush(self) -> None:
        for data in self.ws.data_to_send():
            self.sock.sendall(data)

    def close(self) -> None:
        self.sock.close()


def answered_or_dropped(client: Client, messages: int) -> bool:
    return client.queued >= messages or client.dropped


def spectator(server: ThreadServer, table_id: str, token: str | None = None) -> ClientConnection:
    opening = connect(f"{server.ws_url}/ws/{table_id}", open_timeout=TIMEOUT, legacy=False)
    ws = opening.__enter__()  # (closed by the test)
    with contextlib.suppress(ConnectionClosed):  # refused before its hello: said why
        ws.send(json.dumps(hello(token)))
    return ws


def refusal(ws: ClientConnection) -> tuple[str, int]:
    """The error a refused connection was sent, and its close code."""
    message = json.loads(ws.recv(timeout=TIMEOUT))
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None
    return message["message"], closed.value.rcvd.code


@pytest.mark.parametrize("strict", [{"max_sockets_per_address": 3}], indirect=True)
def test_websockets_are_capped_per_address(strict):
    table = create_table(strict.url, seats=["human"] * 5)
    held = [spectator(strict, table["id"]) for _ in range(3)]
    try:
        for ws in held:
            assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "sync"
        text, code = refusal(spectator(strict, table["id"]))
        assert "too many connections from your address" in text and code == CLOSE_TRY_LATER
        held.pop().close()  # one leaves: room for another
        # The address is counted until the departed socket's handler has wound up, a moment
        # after the table lets it go: wait for that, not for the table.
        counted = strict.app.state.websocket_addresses.held
        wait_until(lambda: sum(counted.values()) == 2, "the departed socket's address let go")
        again = spectator(strict, table["id"])
        held.append(again)
        assert json.loads(again.recv(timeout=TIMEOUT))["type"] == "sync"
    finally:
        for ws in held:
            ws.close()


@pytest.mark.parametrize(
    "strict", [{"max_spectators_per_table": 2, "max_sockets_per_seat": 1}], indirect=True
)
def test_spectators_per_table_and_connections_per_seat_are_capped(strict):
    table = create_table(strict.url, seats=["human"] * 5)
    token = table["links"][0]["token"]
    watchers = [spectator(strict, table["id"]) for _ in range(2)]
    seat = Player(strict.ws_url, table["id"], token)
    try:
        seat.sync()
        text, code = refusal(spectator(strict, table["id"]))
        assert "already has 2 spectators" in text and code == CLOSE_TRY_LATER
        text, code = refusal(spectator(strict, table["id"], token))
        assert "this seat is already open" in text and code == CLOSE_TRY_LATER
        # The seats are never crowded out by spectators.
        other = Player(strict.ws_url, table["id"], table["links"][1]["token"])
        assert other.sync()["view"]["seat"] == 1
        other.close()
    finally:
        seat.close()
        for ws in watchers:
            ws.close()


@pytest.mark.parametrize(
    "strict",
    [{"send_timeout": 0.5, "max_queued": 10_000, "rate_per_second": 1e6, "rate_burst": 10**6}],
    indirect=True,
)
def test_a_socket_that_stops_taking_messages_is_dropped(strict):
    """Long before its queue is full: a send that stalls past ``send_timeout`` is enough."""
    table = create_table(strict.url, seats=["human"] * 5)
    live = strict.hub.tables[table["id"]]
    deaf = DeafClient(strict.port, table["id"], table["links"][0]["token"])
    wait_until(lambda: len(live.clients) == 1, "the connection")
    (client,) = live.clients
    sent = 0
    while not client.dropped:
        assert sent < 20_000, "the stalled reader was never dropped"
        deaf.send(JUNK)  # answered by a 4 KB error, which fills the buffers on the way
        sent += 1
        # Its sync, then an error for each junk move, or its drop.
        answered = functools.partial(answered_or_dropped, client, sent + 1)
        wait_until(answered, "the server's answer")
        if client.sending_since is not None:
            time.sleep(0.1)  # stalled: the next message finds it stalled for longer
    assert client.queue.qsize() < 10_000  # dropped for stalling, not for a full queue
    wait_until(lambda: client not in live.clients, "the server to let it go")
    deaf.close()
    # It comes back and is caught up with a full sync.
    back = Player(strict.ws_url, table["id"])
    assert back.sync()["view"]["step"] == live.state.view(None)["step"]
    back.close()


@pytest.mark.parametrize("strict", [DEADLINES], indirect=True)
def test_a_websocket_outlives_the_http_deadlines(strict):
    """The deadlines are the HTTP request's: once upgraded, a WebSocket is never cut by them."""
    table = create_table(strict.url, seats=["human"] * 5)
    seat = Player(strict.ws_url, table["id"], table["links"][0]["token"])
    try:
        seat.sync()
        time.sleep(4 * DEADLINES["body_timeout"])  # well past both deadlines
        seat.send({"type": "say", "text": "still here"})
        assert seat.recv()["lines"][0]["text"] == "still here"
    finally:
        seat.close()
