"""Client frames read without the websockets parser (transport/reader.py): the frames clients
normally send are read the shorter way, split or joined however TCP delivers them, and every
other frame is read by the library exactly as before (its answers and close codes)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from server_driver import (
    TIMEOUT,
    Player,
    ThreadServer,
    closed_with,
    create_table,
    first_action,
    poll,
    wait_until,
)
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from intrigue.server.config import Settings
from intrigue.server.transport.reader import BACKLOG, DirectReadProtocol, at_frame_boundary

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("reader") / "reader.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=0, rate_per_second=1e6, rate_burst=10**6
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


@pytest.fixture
def table(server: ThreadServer) -> Iterator[tuple[dict, list[Player]]]:
    """A Masquerade Murder table of five people, every seat connected and synced."""
    made = create_table(server.url, seats=["human"] * 5, options={"roles": ROLES})
    players = [Player(server.ws_url, made["id"], link["token"]) for link in made["links"]]
    for player in players:
        player.sync()
    yield made, players
    for player in players:
        player.close()


def protocol_of(server: ThreadServer, player: Player) -> DirectReadProtocol:
    """The server's side of ``player``'s connection."""
    port = player.ws.socket.getsockname()[1]
    found = [
        conn
        for conn in server.server.server_state.connections
        if isinstance(conn, DirectReadProtocol) and conn.client and conn.client[1] == port
    ]
    assert len(found) == 1, found
    return found[0]


def masked(opcode: Opcode, payload: bytes, fin: bool = True) -> bytes:
    """A client's frame as the websockets library sends it (masked)."""
    return Frame(opcode, payload, fin=fin).serialize(mask=True, extensions=[])


def raw(first: int, payload: bytes, mask: bool = True) -> bytes:
    """A frame of any first byte (FIN, reserved bits, opcode), which the library would refuse
    to send, masked or not."""
    size, bit = len(payload), 0x80 if mask else 0
    if size < 126:
        head = bytes((first, bit | size))
    else:
        head = bytes((first, bit | 126)) + size.to_bytes(2, "big")
    if not mask:
        return head + payload
    key = b"\x5a\x0f\xc3\x81"
    return head + key + bytes(byte ^ key[i % 4] for i, byte in enumerate(payload))


def act_message(player: Player) -> bytes:
    """The player's first legal move, as the message the table page sends."""
    assert player.latest is not None
    step = player.latest["view"]["step"]
    data = {"type": "act", "action": first_action(player.latest), "step": step}
    return json.dumps(data).encode()


def act_frame(player: Player) -> bytes:
    return masked(Opcode.TEXT, act_message(player))


def mover(players: list[Player], but: Player | None = None) -> Player:
    """A player (not ``but``) who may move now, having read every update sent to it."""
    players = [player for player in players if player is not but]
    for player in players:
        while poll(player):
            pass
    return next(p for p in players if p.latest and p.latest["legal_actions"])


def answer(player: Player) -> dict:
    """The server's answer to the player's last move (other updates are skipped)."""
    while True:
        message = player.recv()
        if message["type"] == "error" or message.get("accepted") is not None:
            return message


def test_the_frames_of_a_game_are_read_the_shorter_way(server, table):
    _, players = table
    for _ in range(6):
        player = mover(players)
        assert player.act(first_action(player.latest)).get("accepted") is not None
    assert all(protocol_of(server, player).direct for player in players)


def test_a_frame_split_byte_by_byte_and_frames_joined_are_each_read_whole(server, table):
    _, players = table
    player = mover(players)
    raw = act_frame(player)
    for byte in raw:  # one segment a byte (the client does not wait to fill a packet)
        player.ws.socket.sendall(bytes([byte]))
        time.sleep(0.002)
    assert answer(player).get("accepted") is not None
    player = mover(players)
    probe = masked(Opcode.TEXT, b'{"type": "probe"}')
    player.ws.socket.sendall(probe + act_frame(player) + probe)
    kinds = []
    while kinds.count("error") < 2:
        message = player.recv()
        kinds.append("accepted" if message.get("accepted") is not None else message["type"])
    assert [kind for kind in kinds if kind != "update"] == ["error", "accepted", "error"]
    assert protocol_of(server, player).direct


def test_a_long_frame_and_a_binary_one_are_read_the_shorter_way(server, table):
    _, players = table
    player = mover(players)
    data = json.dumps({"type": "probe", "padding": "x" * 10_000}).encode()  # a 16-bit length
    player.ws.socket.sendall(masked(Opcode.TEXT, data))  # (64-bit ones are over the limit)
    assert player.recv()["type"] == "error"
    player.ws.socket.sendall(masked(Opcode.BINARY, json.dumps({"type": "probe"}).encode()))
    assert player.recv()["type"] == "error"
    assert protocol_of(server, player).direct
    assert player.act(first_action(player.latest)).get("accepted") is not None


def test_a_ping_and_a_pong_between_moves_go_to_the_library_and_reading_stays_short(server, table):
    _, players = table
    player = mover(players)
    assert player.ws.ping(b"are you there").wait(TIMEOUT)
    player.ws.pong(b"unasked")  # as a browser answers the server's keepalive pings
    assert protocol_of(server, player).direct
    assert player.act(first_action(player.latest)).get("accepted") is not None


def test_a_fragmented_message_goes_back_to_the_library_which_reads_it(server, table):
    _, players = table
    player = mover(players)
    body = act_message(player)
    half = len(body) // 2
    player.ws.socket.sendall(
        masked(Opcode.TEXT, body[:half], fin=False) + masked(Opcode.CONT, body[half:])
    )
    assert answer(player).get("accepted") is not None
    assert not protocol_of(server, player).direct
    player = mover(players)
    assert player.act(first_action(player.latest)).get("accepted") is not None


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (raw(0x81, b'{"type": "\xff"}'), 1007),  # text that is not UTF-8
        (raw(0x81, b'{"type": "probe"}', mask=False), 1002),  # a client must mask
        (raw(0xC1, b'{"type": "probe"}'), 1002),  # a reserved bit, no extension agreed
        (raw(0x89, b"x" * 126), 1002),  # a ping over 125 bytes
        (raw(0x80, b"{}"), 1002),  # a continuation of nothing
    ],
    ids=["not-utf8", "unmasked", "rsv1", "long-ping", "stray-continuation"],
)
def test_a_faulty_frame_closes_that_connection_as_the_library_does(server, table, frame, code):
    made, players = table
    attacker = players[0]
    before = server.hub.tables[made["id"]].state
    attacker.ws.socket.sendall(frame)
    assert closed_with(attacker)[1] == code
    assert server.hub.tables[made["id"]].state is before
    player = mover(players, but=attacker)  # the table plays on
    assert player.act(first_action(player.latest)).get("accepted") is not None


def test_a_client_that_sends_faster_than_it_is_answered_is_read_then_paused(server, table):
    _, players = table
    player = mover(players)
    probe = masked(Opcode.TEXT, b'{"type": "probe"}')
    player.ws.socket.sendall(probe * (BACKLOG * 4))
    assert all(player.recv()["type"] == "error" for _ in range(BACKLOG * 4))
    protocol = protocol_of(server, player)
    wait_until(lambda: not protocol.read_paused, "reading resumed")
    assert protocol.direct


def opened_by_the_library(then: bytes) -> ServerProtocol:
    """The websockets library's server side of a connection whose request came in, followed
    by ``then`` (bytes a client sent before the server accepted), after the accept."""
    client = ClientProtocol(parse_uri("ws://127.0.0.1/ws/t"))
    client.send_request(client.connect())
    conn = ServerProtocol()
    conn.receive_data(b"".join(client.data_to_send()) + then)
    conn.send_response(conn.accept(conn.events_received()[0]))
    return conn


@pytest.mark.parametrize(
    ("cut", "between"), [(None, True), (0, True), (1, False), (2, False), (5, False)]
)
def test_the_shorter_way_starts_only_where_the_library_stands_between_frames(cut, between):
    """uvicorn drops what follows the upgrade request in its read, but bytes arriving between
    the upgrade and the accept reach the library's parser: a whole frame leaves it between
    frames, a cut one (after two bytes it has taken the header and waits inside the frame)
    does not, and the connection then stays with the library."""
    hello = masked(Opcode.TEXT, b'{"type": "hello"}')
    conn = opened_by_the_library(hello if cut is None else hello[:cut])
    assert conn.state is State.OPEN
    assert at_frame_boundary(conn) is between
