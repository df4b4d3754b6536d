"""Frames written straight to the socket (transport/frames.py) are the frames the ASGI way
sends: the same bytes, the same order, and the ASGI way whenever a writer cannot be used."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_driver import Player, ThreadServer, create_table, first_action
from websockets.frames import Frame, Opcode

from intrigue.server.config import Settings
from intrigue.server.transport.frames import frame_header

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 100_000])
def test_a_frame_is_what_the_websockets_library_would_send(size):
    payload = b"x" * size
    expected = Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])
    assert frame_header(size) + payload == expected


@pytest.fixture(params=[False, True], ids=["plain", "compressed"], scope="module")
def server(
    request, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[ThreadServer, bool]]:
    """`intrigue serve`'s WebSocket set-up, without and with per-message compression."""
    db = tmp_path_factory.mktemp("frames") / "frames.sqlite3"
    settings = Settings(database_url=f"sqlite:///{db}", bot_delay=0, ws_compression=request.param)
    running = ThreadServer(settings).start()
    yield running, request.param
    running.stop()


def test_every_connection_gets_its_own_messages_in_order(server):
    server, compressed = server
    table = create_table(server.url, seats=["human"] * 5, options={"roles": ROLES, "max_turns": 2})
    live = server.hub.tables[table["id"]]
    players = [
        Player(server.ws_url, table["id"], link["token"], patches=True) for link in table["links"]
    ]
    spectator = Player(server.ws_url, table["id"])
    try:
        for player in [*players, spectator]:
            player.sync()
        # Compression keeps a state across frames, which only the library can: no writer then.
        assert all(client.writes_directly is not compressed for client in live.clients)
        for _ in range(12):
            mover = next(p for p in players if p.latest["legal_actions"])
            answer = mover.act(first_action(mover.latest))
            assert answer["type"] == "update", answer
            for seat, player in enumerate(players):
                if player is not mover:
                    assert player.recv()["type"] == "update"
                assert player.latest["view"] == live.state.view(seat)
            assert spectator.recv()["view"] == live.state.view(None)
            if live.state.is_over:
                break
    finally:
        for player in [*players, spectator]:
            player.close()
