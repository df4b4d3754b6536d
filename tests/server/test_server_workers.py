"""``intrigue serve --workers``: the dispatcher hands a table's connections to one worker.

The routing rules are checked on request lines; then a real ``--workers 2`` server (two worker
processes behind the dispatcher, SQLite, the test Redis as their bus) plays whole tables, and
the test finds, through ``/proc``, which process holds the server's end of every connection:
all of a table's connections must be held by the one worker chosen for that table. Skipped
without Redis (``--workers`` needs the bus) or without ``/proc`` (Linux).
"""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import httpx
import pytest
from server_driver import (
    TIMEOUT,
    Player,
    ProcessServer,
    create_table,
    play_together,
    poll,
    seat_player,
    wait_until,
)

from intrigue.server.transport.dispatch import PEEK_SECONDS, table_ids_for, table_of, worker_for

SHORT = {"max_turns": 2}  # a whole Masquerade Murder game in a few dozen moves
MOVES = 8  # played at each table


def step(player: Player) -> int:
    return -1 if player.latest is None else int(player.latest["view"]["step"])


def caught_up(player: Player, moves: int) -> bool:
    """Whether ``player`` has seen ``moves`` moves, reading what arrives meanwhile."""
    poll(player, 0.05)
    return step(player) == moves


@pytest.mark.parametrize(
    ("head", "table"),
    [
        (b"GET /ws/abc123 HTTP/1.1\r\nHost: x\r\n", "abc123"),
        (b"GET /ws/abc123?seat=2 HTTP/1.1\r\n", "abc123"),
        (b"GET /api/tables/abc123/replay/4 HTTP/1.1\r\n", "abc123"),
        (b"GET /table/abc123/screen HTTP/1.1\r\n", "abc123"),
        (b"POST /api/tables HTTP/1.1\r\n", None),  # a new table: no id yet
        (b"GET / HTTP/1.1\r\n", None),
        (b"GET /ws/ HTTP/1.1\r\n", None),
        (b"GET /ws/abc123 HTTP/1.1", None),  # the line is not complete yet
        (b"GET /ws/abc 123 HTTP/1.1\r\n", None),  # not a request line
        (b"\x16\x03\x01\x02\x00", None),  # not HTTP at all (a TLS hello)
    ],
)
def test_the_table_a_request_is_about_comes_from_its_request_line(head, table):
    assert table_of(head) == table


def test_a_table_has_one_worker_and_tables_spread_over_them():
    tables = [f"table{i}" for i in range(200)]
    chosen = [worker_for(t, "127.0.0.1", 2) for t in tables]
    # The same table from any address goes to the same worker...
    assert chosen == [worker_for(t, "10.1.2.3", 2) for t in tables]
    # ...and tables spread over both (crc32 is not skewed: about half each).
    assert 60 < chosen.count(0) < 140
    # A request about no table goes by address: one address, one worker.
    assert len({worker_for(None, "10.1.2.3", 3) for _ in range(5)}) == 1


def proc_available() -> bool:
    return Path("/proc/net/tcp").exists()


def server_side_socket_inode(local_port: int, server_port: int) -> int:
    """The inode of the server's end of the loopback TCP connection from ``local_port``."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        here, there = (int(end.split(":")[1], 16) for end in fields[1:3])
        if (here, there) == (server_port, local_port):
            return int(fields[9])
    raise AssertionError(f"no server socket for the connection from port {local_port}")


def holder(pids: list[int], inode: int) -> int:
    """Which of ``pids`` holds the socket ``inode``."""
    target = f"socket:[{inode}]"
    owners = []
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                if os.readlink(fd) == target:
                    owners.append(pid)
                    break
            except OSError:
                continue  # closed meanwhile
    assert len(owners) == 1, f"socket {inode} held by {owners}"
    return owners[0]


def children(pid: int) -> list[int]:
    text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    return [int(child) for child in text.split()]


@pytest.fixture
def workers(bus_options, tmp_path) -> ProcessServer:
    if not proc_available():
        pytest.skip("no /proc/net/tcp here: cannot tell which process holds a socket")
    args, env = bus_options
    db_url = f"sqlite:///{tmp_path / 'workers.sqlite3'}"
    server = ProcessServer(db_url, tmp_path / "server.log", [*args, "--workers", "2"], env)
    server.start()
    assert server.proc is not None
    wait_until(lambda: len(children(server.proc.pid)) == 2, "two worker processes")
    yield server
    server.stop()


def test_every_connection_of_a_table_is_served_by_the_tables_worker(workers):
    assert workers.proc is not None
    pids = children(workers.proc.pid)
    tables = [create_table(workers.url, seats=["human"] * 5, options=SHORT) for _ in range(3)]
    worker_pid: dict[int, set[int]] = {}  # the worker index of a table -> the pids seen
    for table in tables:
        players = [seat_player(workers, table, seat) for seat in range(5)]
        spectator = Player(workers.ws_url, table["id"])
        spectator.sync()
        held = {
            holder(pids, server_side_socket_inode(p.ws.socket.getsockname()[1], workers.port))
            for p in [*players, spectator]
        }
        assert len(held) == 1, f"table {table['id']} is spread over processes {held}"
        worker_pid.setdefault(worker_for(table["id"], "127.0.0.1", 2), set()).update(held)
        # Moves are played through that one worker, and every seat sees every one of them.
        accepted = play_together(players, until_step=MOVES)
        assert len(accepted) == MOVES
        for player in players:
            wait_until(lambda p=player: caught_up(p, MOVES), "every move")
        for player in [*players, spectator]:
            player.close()
    # Tables of the same worker index share a process; different indices, different ones.
    assert all(len(seen) == 1 for seen in worker_pid.values())
    assert len(set().union(*worker_pid.values())) == len(worker_pid)


def test_a_table_is_routed_to_the_worker_that_created_it(workers):
    """A new table is created by the worker of the client's address; its id is made so that
    its connections are routed to that same worker, which holds its bots and clock (docs/deploy.md).
    Tables are created from two loopback addresses that go to different workers."""
    addresses = [f"127.0.0.{n}" for n in range(1, 40)]
    one = addresses[0]
    other = next(a for a in addresses if worker_for(None, a, 2) != worker_for(None, one, 2))
    body = {"game": "masquerade-murder", "seats": ["human"] + ["easy"] * 4, "options": SHORT}
    for address in (one, other):
        transport = httpx.HTTPTransport(local_address=address)
        with httpx.Client(transport=transport, timeout=TIMEOUT) as client:
            for _ in range(4):
                response = client.post(f"{workers.url}/api/tables", json=body)
                assert response.status_code == 201, response.text
                table = response.json()["id"]
                assert worker_for(table, "", 2) == worker_for(None, address, 2), table


def test_table_ids_for_a_worker_route_to_it():
    for index in range(3):
        new_id = table_ids_for(index, 3)
        ids = {new_id() for _ in range(50)}
        assert len(ids) == 50  # still random
        assert {worker_for(table, "10.0.0.1", 3) for table in ids} == {index}


def test_the_dispatcher_stops_its_workers_on_sigterm(workers):
    assert workers.proc is not None
    pids = children(workers.proc.pid)
    workers.proc.send_signal(signal.SIGTERM)
    assert workers.proc.wait(TIMEOUT) == 0
    wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pids), "workers to exit")


def test_a_worker_that_dies_is_replaced_and_its_tables_served_again(workers):
    assert workers.proc is not None
    table = create_table(workers.url, seats=["human"] * 5, options=SHORT)
    player = seat_player(workers, table, 0)
    pids = children(workers.proc.pid)
    port = player.ws.socket.getsockname()[1]
    victim = holder(pids, server_side_socket_inode(port, workers.port))
    os.kill(victim, signal.SIGKILL)
    wait_until(
        lambda: victim not in children(workers.proc.pid) and len(children(workers.proc.pid)) == 2,
        "a new worker in place of the killed one",
    )
    player.close()
    # The table reloads from the database in the new worker: all five seats play again there.
    again = [seat_player(workers, table, seat) for seat in range(5)]
    assert play_together(again, until_step=2)
    pids = children(workers.proc.pid)
    held = {
        holder(pids, server_side_socket_inode(p.ws.socket.getsockname()[1], workers.port))
        for p in again
    }
    assert len(held) == 1 and victim not in held
    for player in again:
        player.close()


def raw_request(port: int, *parts: bytes, pause: float = 0.0) -> bytes:
    """Send ``parts`` on a fresh connection (``pause`` seconds apart); the answer's first line."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as connection:
        for part in parts:
            connection.sendall(part)
            time.sleep(pause)
        answer = b""
        while b"\r\n" not in answer:
            chunk = connection.recv(4096)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0]


def test_a_request_line_that_arrives_in_pieces_or_late_is_still_served(workers):
    request = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    assert raw_request(workers.port, request) == b"HTTP/1.1 200 OK"
    # The dispatcher looks again until the line is complete...
    assert raw_request(workers.port, request[:9], request[9:], pause=0.3) == b"HTTP/1.1 200 OK"
    # ...and a connection silent past its patience is handed on by address: the worker serves
    # what comes later (its own header deadline is the limit), while others are served meanwhile.
    with socket.create_connection(("127.0.0.1", workers.port), timeout=TIMEOUT) as silent:
        assert raw_request(workers.port, request) == b"HTTP/1.1 200 OK"
        time.sleep(PEEK_SECONDS + 0.5)
        silent.sendall(request)
        assert silent.recv(4096).startswith(b"HTTP/1.1 200 OK")
