"""A client that stops reading its messages is dropped, and the table does not wait for it.

The lazy client is a spectator whose socket has a tiny receive buffer and whose WebSocket
library stops reading after one frame (flow control), so once the kernel buffers are full the
server cannot send it anything more. It then sends junk moves, each answered by a short error,
until those buffers are full: the server writes each answer straight to the socket while the
socket takes it (transport/frames.py), then queues them. The server must drop it (its queue
holds at most ``max_queued`` messages) while the seats go on playing to the end.

The server's side of the lazy connection gets a small send buffer, as a busy host gives its
sockets: otherwise Linux lets it grow to 4 MB on loopback, and filling that with ~100-byte
answers would take tens of thousands of junk moves.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import uvicorn
from server_driver import (
    TIMEOUT,
    Player,
    ThreadServer,
    create_table,
    first_action,
    hello,
    is_over,
    wait_until,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from intrigue.server.config import Settings
from intrigue.server.tables.table import LiveTable
from intrigue.server.transport.websocket import CLOSE_TOO_SLOW

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
JUNK = json.dumps({"type": "act", "action": "x"})  # answered by a ~100-byte error
MAX_JUNK = 20_000  # far more than kernel buffers hold (a guard against a hang)


@pytest.fixture(scope="module")
def small_queue_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server that drops a client after 8 unsent messages; no rate limit gets in the way."""
    db = tmp_path_factory.mktemp("slow") / "slow.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}",
        bot_delay=0,
        max_queued=8,
        rate_per_second=1e6,
        rate_burst=1_000_000,
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


@contextmanager
def lazy_spectator(server: ThreadServer, table_id: str) -> Iterator[ClientConnection]:
    """A spectator that reads (almost) nothing: a tiny receive buffer and a one-frame queue."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    with connect(
        f"{server.ws_url}/ws/{table_id}",
        sock=sock,
        max_queue=1,
        open_timeout=TIMEOUT,
        legacy=False,
    ) as ws:
        ws.send(json.dumps(hello(None)))
        small_send_buffer(server.server, sock.getsockname())
        yield ws


def small_send_buffer(server: uvicorn.Server, peer: tuple[str, int]) -> None:
    """Give the server's socket of the connection from ``peer`` a small send buffer."""
    wait_until(lambda: any(c.client == peer for c in server.server_state.connections), "accept")
    (protocol,) = [c for c in server.server_state.connections if c.client == peer]
    protocol.transport.get_extra_info("socket").setsockopt(
        socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
    )


def play_to_the_end(players: list[Player]) -> int:
    """Whoever may move plays its first legal move, until the end; returns the moves made."""
    moves = 0
    while not is_over(players[0].latest):
        mover = next(p for p in players if p.latest["legal_actions"])
        assert mover.act(first_action(mover.latest))["type"] == "update"
        for other in players:
            if other is not mover:  # every move reaches every seat
                assert other.recv()["type"] == "update"
        moves += 1
    return moves


def test_a_client_that_does_not_read_is_dropped_while_the_table_plays_on(small_queue_server):
    server = small_queue_server
    table = create_table(server.url, seats=["human"] * 5, options={"roles": ROLES, "max_turns": 1})
    live = server.hub.tables[table["id"]]
    players = [Player(server.ws_url, table["id"], link["token"]) for link in table["links"]]
    try:
        with lazy_spectator(server, table["id"]) as lazy:
            play_with_a_lazy_spectator(live, players, lazy)
    finally:
        for player in players:
            player.close()


def play_with_a_lazy_spectator(
    live: LiveTable, players: list[Player], lazy: ClientConnection
) -> None:
    for player in players:
        player.sync()
    wait_until(lambda: len(live.clients) == 6, "six connections")
    (lazy_client,) = [c for c in live.clients if c.seat is None]

    sent = 0
    while not lazy_client.dropped:
        assert sent < MAX_JUNK, "the lazy client was never dropped"
        try:
            lazy.send(JUNK)
        except ConnectionClosed:
            # On a busy machine the server can fall behind and drop the client while little
            # is in flight: its close then reaches the client's library with what it read.
            break
        sent += 1
    wait_until(lambda: lazy_client.dropped, "the server to drop the lazy client")

    # The seats play the whole game; nothing waits for the lazy client.
    assert play_to_the_end(players) > 0
    assert live.state.is_over and all(is_over(p.latest) for p in players)
    assert players[2].latest["view"] == live.state.view(2)

    # Reading at last, the lazy client finds what was queued, then the close for slowness.
    received = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            received.append(json.loads(lazy.recv(timeout=TIMEOUT)))
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_TOO_SLOW
    assert received[0]["type"] == "sync"
    assert {m["type"] for m in received[1:]} == {"error"}  # none of the game's moves
    assert len(received) - 1 < sent  # the sync, then not every junk move's answer
    wait_until(lambda: lazy_client not in live.clients, "the server to forget the client")
