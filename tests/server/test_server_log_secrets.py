"""No secret reaches the server's log or a URL: seat tokens travel in the first WebSocket
message, never in the URL, and the log masks anything token-like even at debug level.

The attack (issue 18, item 1): uvicorn logged every handshake with its URL, and the URL held
the seat token (``"WebSocket /ws/<id>?token=<TOKEN>" [accepted]``), at INFO, whatever
``access_log`` said. Here a real ``intrigue serve`` runs at ``--log-level debug`` (the most it
can say: the WebSocket library then logs the frames themselves) while two players create, play,
talk, list their tables and rematch; then the whole log is searched for every secret.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from server_driver import TIMEOUT, Player, ProcessServer, ThreadServer, create_table, hello
from test_server_rematch import finish, wait_for_rematch
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from intrigue.server.config import Settings
from intrigue.server.transport.logs import redact

SEATS = ["human", "human", "easy", "easy", "easy"]


def test_a_whole_game_leaves_no_secret_in_the_debug_log(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = ProcessServer(f"sqlite:///{tmp_path / 'db.sqlite3'}", log, ["--log-level", "debug"])
    server.start()
    try:
        secrets = play_a_game_with_everything(server)
    finally:
        server.stop()
    text = log.read_text(encoding="utf-8", errors="replace")
    # The capture is real: handshakes and (at debug level) the frames themselves are there.
    assert "WebSocket /ws/" in text and '"hello"' in text, text[-2000:]
    leaked = [secret for secret in secrets if secret in text]
    assert not leaked, f"{len(leaked)} secret(s) in the log"


def play_a_game_with_everything(server: ProcessServer) -> list[str]:
    """Create, play to the end, whisper, list tables, rematch and open the rematch seat; the
    secrets seen on the way (seat tokens, the rematch tokens)."""
    table = create_table(server.url, seats=SEATS, options={"max_turns": 1})
    tokens = [link["token"] for link in table["links"]]
    players = [Player(server.ws_url, table["id"], token) for token in tokens]
    try:
        for player in players:
            player.sync()
        players[0].send({"type": "whisper", "to": 1, "text": "trust me"})
        mine = httpx.post(f"{server.url}/api/my-tables", json={"tokens": tokens}, timeout=TIMEOUT)
        assert mine.status_code == 200 and len(mine.json()["tables"]) == 2
        finish(players)
        players[0].send({"type": "rematch"})
        offers = [wait_for_rematch(player) for player in players]
    finally:
        for player in players:
            player.close()
    again = Player(server.ws_url, offers[0]["table"], offers[0]["token"])
    assert again.sync()["seat"] == offers[0]["seat"]
    again.close()
    return [*tokens, *(offer["token"] for offer in offers)]


@pytest.fixture(scope="module")
def quick_hello(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("hello") / "hello.sqlite3"
    settings = Settings(database_url=f"sqlite:///{db}", bot_delay=0, hello_timeout=0.5)
    running = ThreadServer(settings).start()
    yield running
    running.stop()


def refusal(ws) -> tuple[dict, int]:
    """The error a refused connection gets, and its close code."""
    message = json.loads(ws.recv(timeout=TIMEOUT))
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None
    return message, closed.value.rcvd.code


def test_a_token_in_the_url_is_refused_with_the_way_to_send_it(quick_hello) -> None:
    table = create_table(quick_hello.url, seats=["human"] * 5)
    token = table["links"][0]["token"]
    with connect(f"{quick_hello.ws_url}/ws/{table['id']}?token={token}") as ws:
        message, code = refusal(ws)
    assert code == 4403 and message["type"] == "error"
    assert "first message" in message["message"] and token not in message["message"]


def test_a_connection_that_never_says_hello_is_closed(quick_hello) -> None:
    table = create_table(quick_hello.url)
    with connect(f"{quick_hello.ws_url}/ws/{table['id']}") as ws:
        message, code = refusal(ws)  # nothing sent: no sync either
    assert code == 1008 and "hello" in message["message"]


def test_the_first_message_must_be_a_hello(quick_hello) -> None:
    table = create_table(quick_hello.url)
    with connect(f"{quick_hello.ws_url}/ws/{table['id']}") as ws:
        ws.send(json.dumps({"type": "act", "action": "pass"}))
        message, code = refusal(ws)
    assert code == 1008 and "hello" in message["message"]


def test_a_hello_with_a_token_opens_the_seat_and_without_one_a_spectator(quick_hello) -> None:
    table = create_table(quick_hello.url, seats=["human"] * 5)
    with connect(f"{quick_hello.ws_url}/ws/{table['id']}") as ws:
        ws.send(json.dumps(hello(table["links"][3]["token"])))
        assert json.loads(ws.recv(timeout=TIMEOUT))["seat"] == 3
    with connect(f"{quick_hello.ws_url}/ws/{table['id']}") as ws:
        ws.send(json.dumps(hello(None)))
        assert json.loads(ws.recv(timeout=TIMEOUT))["seat"] is None


@pytest.mark.parametrize(
    "line",
    [
        '< TEXT \'{"type":"hello","token":"Zq3-x_Y9abcdefgh12345678"}\' [60 bytes]',
        "GET /ws/abc?token=Zq3-x_Y9abcdefgh12345678 HTTP/1.1",
        "{'credential': 'Zq3-x_Y9abcdefgh12345678'}",
        '"url":"/table/abc#token=Zq3-x_Y9abcdefgh12345678"',
    ],
)
def test_the_log_filter_masks_token_like_values(line: str) -> None:
    cleaned = redact(line)
    assert "Zq3-x_Y9abcdefgh12345678" not in cleaned and "***" in cleaned
