"""The guard and the small attacks of issue 18 (items 8 and 13), over real sockets: nested
JSON, oversized bodies, foreign hosts and WebSocket origins, security headers, and chat text
that reorders itself with bidirectional controls."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from server_driver import TIMEOUT, Player, ThreadServer, create_table, hello
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from intrigue.server.config import LOOPBACK_NAMES, Settings, origins_from_environment

HUMANS = ["human"] * 5


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("guard") / "guard.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}",
        bot_delay=0,
        allowed_hosts=LOOPBACK_NAMES,
        allowed_origins=("https://friends.example",),
        max_body_bytes=2048,
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


def test_a_deeply_nested_frame_gets_a_clear_error_and_the_connection_stays(guarded):
    table = create_table(guarded.url, seats=HUMANS)
    player = Player(guarded.ws_url, table["id"], table["links"][0]["token"])
    try:
        player.sync()
        player.send("[" * 2000 + "]" * 2000)  # 4 KB: once a RecursionError and a dropped socket
        answer = player.recv()
        assert answer["type"] == "error" and "nested too deeply" in answer["message"]
        player.send({"type": "say", "text": "still here", "x": [[[1]]]})
        assert player.recv()["type"] == "chat"
    finally:
        player.close()


def test_a_deeply_nested_body_is_a_400_without_python_internals(guarded):
    body = '{"game": "masquerade-murder", "options": {"x": ' + "[" * 900 + "]" * 900 + "}}"
    answer = httpx.post(
        f"{guarded.url}/api/tables",
        content=body,
        headers={"content-type": "application/json"},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 400
    text = answer.text
    assert "Traceback" not in text and "RecursionError" not in text and "File " not in text


def test_an_oversized_body_is_refused(guarded):
    body = json.dumps({"game": "masquerade-murder", "options": {"pad": "x" * 4000}})
    answer = httpx.post(
        f"{guarded.url}/api/tables",
        content=body,
        headers={"content-type": "application/json"},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 413 and "at most 2048 bytes" in answer.json()["detail"]


def test_every_answer_carries_the_security_headers(guarded):
    for path in ("/", "/static/lobby.js", "/api/games", "/api/tables/nothing"):
        headers = httpx.get(f"{guarded.url}{path}", timeout=TIMEOUT).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_a_foreign_host_name_is_refused(guarded):
    """DNS rebinding: a page of evil.example, its name now pointing here, reads nothing."""
    answer = httpx.get(
        f"{guarded.url}/api/tables", headers={"host": "evil.example"}, timeout=TIMEOUT
    )
    assert answer.status_code == 400 and "host name" in answer.json()["detail"]
    assert httpx.get(f"{guarded.url}/api/tables", timeout=TIMEOUT).status_code == 200


def open_with_origin(server: ThreadServer, table_id: str, origin: str | None):
    return connect(
        f"{server.ws_url}/ws/{table_id}", origin=origin, open_timeout=TIMEOUT, legacy=False
    )


def test_a_websocket_from_another_sites_page_is_refused(guarded):
    table = create_table(guarded.url, seats=HUMANS)
    with (
        pytest.raises(InvalidStatus) as refused,
        open_with_origin(guarded, table["id"], "https://evil.example"),
    ):
        pass
    assert refused.value.response.status_code == 403
    # The server's own pages, a listed origin, and clients that are not browsers get in.
    own = f"http://127.0.0.1:{guarded.port}"
    for origin in (own, "https://friends.example", None):
        with open_with_origin(guarded, table["id"], origin) as ws:
            ws.send(json.dumps(hello(None)))
            assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "sync"


def test_bidirectional_controls_are_stripped_from_chat(guarded):
    table = create_table(guarded.url, seats=HUMANS)
    player = Player(guarded.ws_url, table["id"], table["links"][0]["token"])
    try:
        player.sync()
        player.send(
            {"type": "say", "text": "seat 1: \u202egood\u202c I am \u2066the\u2069 Duke\u200f"}
        )
        line = player.recv()["lines"][0]
        assert line["text"] == "seat 1: good I am the Duke"
    finally:
        player.close()


def test_intrigue_serve_trusts_loopback_names_on_loopback_and_what_it_is_told():
    assert origins_from_environment("127.0.0.1", {})["allowed_hosts"] == LOOPBACK_NAMES
    assert origins_from_environment("0.0.0.0", {})["allowed_hosts"] == ()
    told = origins_from_environment(
        "0.0.0.0", {"INTRIGUE_ALLOWED_HOSTS": "play.example, www.play.example"}
    )
    assert told["allowed_hosts"] == ("play.example", "www.play.example")


def test_protocol_nesting_counts_brackets_outside_strings():
    from intrigue.server.transport.protocol import nesting, too_deep

    assert nesting('{"a": [1, {"b": "[[[\\"["}]}') == 3
    assert too_deep("[" * 9 + "]" * 9) and not too_deep('{"t": "[[[[[[[[[[[["}')
