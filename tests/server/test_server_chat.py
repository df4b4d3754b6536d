"""Table talk over real WebSockets: the public chat, whispers, persistence, refusals, reveal."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from server_driver import TIMEOUT, Player, ThreadServer, create_table, is_over

from intrigue.server.config import Settings
from intrigue.server.storage.db import MessageRecord, Store
from intrigue.server.tables.chat import CHAT_BURST, MAX_CHARS
from intrigue.server.timesource import FakeTime

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
INJECTION = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'

Message = dict[str, Any]


def stored_messages(server: ThreadServer, table_id: str) -> list[MessageRecord]:
    """The table's chat as the database holds it (read through a store of our own)."""
    store = Store(server.hub.store.url)
    try:
        return store.messages(table_id)
    finally:
        store.close()


def read_until(player: Player, done: Callable[[Message], bool]) -> list[Message]:
    """Every message up to and including the first one ``done`` accepts."""
    messages = []
    while True:
        message = player.recv()
        messages.append(message)
        if done(message):
            return messages


def chat_lines(messages: list[Message]) -> list[Message]:
    return [line for m in messages if m["type"] == "chat" for line in m["lines"]]


def says(text: str) -> Callable[[Message], bool]:
    """A message that carries the chat line ``text``."""
    return lambda m: m["type"] == "chat" and any(line["text"] == text for line in m["lines"])


def refused(player: Player, message: Message) -> str:
    """Send a chat message that must be refused; the error's text."""
    player.send(message)
    answer = player.recv()
    assert answer["type"] == "error" and answer["about"] == "chat", answer
    return str(answer["message"])


def seated_table(server: ThreadServer, connect) -> tuple[dict, list[Player], Player]:
    """Five human seats with fixed roles (nothing moves on its own), all connected, and a
    spectator."""
    table = create_table(server.url, seats=["human"] * 5, options={"roles": ROLES})
    players = [connect(table["id"], link["token"]) for link in table["links"]]
    spectator = connect(table["id"])
    for client in [*players, spectator]:
        assert client.sync()["chat"]["lines"] == []
    return table, players, spectator


def test_a_public_line_reaches_every_seat_and_the_spectator(server, connect):
    table, players, spectator = seated_table(server, connect)
    players[2].send({"type": "say", "text": "  I am the duke, trust me  "})
    for client in [*players, spectator]:
        (message,) = read_until(client, lambda m: m["type"] == "chat")
        (line,) = message["lines"]
        assert line["seat"] == 2 and line["to"] is None
        assert line["text"] == "I am the duke, trust me"  # trimmed, nothing else changed
        assert line["step"] == 0
    stored = stored_messages(server, table["id"])
    assert [(m.seat, m.to_seat, m.text) for m in stored] == [(2, None, "I am the duke, trust me")]


def test_a_whisper_reaches_its_two_seats_only_live_and_after_reconnecting(server, connect):
    table, players, spectator = seated_table(server, connect)
    players[0].send({"type": "whisper", "to": 1, "text": "I will pay you 3 to spare me"})
    for seat in (0, 1):
        (message,) = read_until(players[seat], lambda m: m["type"] == "chat")
        assert [(ln["seat"], ln["to"]) for ln in message["lines"]] == [(0, 1)]
    # A public line after it is a barrier: each connection gets its messages in order, so a
    # whisper sent to seat 2 or the spectator would arrive before this line.
    players[3].send({"type": "say", "text": "barrier"})
    for client in (players[2], players[4], spectator):
        seen = chat_lines(read_until(client, says("barrier")))
        assert [line["text"] for line in seen] == ["barrier"]

    # A second connection of a seat, and (re)connections, get what that seat may read.
    texts = {
        seat: [
            ln["text"]
            for ln in connect(table["id"], table["links"][seat]["token"]).sync()["chat"]["lines"]
        ]
        for seat in range(5)
    }
    assert texts[0] == texts[1] == ["I will pay you 3 to spare me", "barrier"]
    assert texts[2] == texts[3] == texts[4] == ["barrier"]
    assert [ln["text"] for ln in connect(table["id"]).sync()["chat"]["lines"]] == ["barrier"]
    # The game never saw it: talk binds no rule.
    assert server.hub.tables[table["id"]].state.history == []


def test_chat_persists_across_a_server_restart(tmp_path):
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'chat.sqlite3'}", bot_delay=0)
    first = ThreadServer(settings).start()
    try:
        table = create_table(first.url, seats=["human"] * 5, options={"roles": ROLES})
        tokens = [link["token"] for link in table["links"]]
        talker = Player(first.ws_url, table["id"], tokens[4])
        talker.sync()
        talker.send({"type": "say", "text": "hello, table"})
        talker.send({"type": "whisper", "to": 3, "text": "psst, seat 3"})
        read_until(talker, says("psst, seat 3"))
        talker.close()
    finally:
        first.stop()
    second = ThreadServer(settings).start()
    try:
        lines = {}
        for seat in (3, 0):
            back = Player(second.ws_url, table["id"], tokens[seat])
            lines[seat] = back.sync()["chat"]["lines"]
            back.close()
        assert [(ln["seat"], ln["to"], ln["text"]) for ln in lines[3]] == [
            (4, None, "hello, table"),
            (4, 3, "psst, seat 3"),
        ]
        assert [ln["text"] for ln in lines[0]] == ["hello, table"]
        assert lines[3][0]["id"] != lines[3][1]["id"]  # (opaque: the order is the list's)
    finally:
        second.stop()


def test_bad_chat_messages_are_refused_clearly(server, connect):
    table, players, spectator = seated_table(server, connect)
    me = players[1]
    assert "empty" in refused(me, {"type": "say", "text": " \n\t "})
    assert "'text'" in refused(me, {"type": "say"})
    assert "'text'" in refused(me, {"type": "say", "text": 42})
    too_long = refused(me, {"type": "say", "text": "x" * (MAX_CHARS + 1)})
    assert f"at most {MAX_CHARS}" in too_long
    assert "yourself" in refused(me, {"type": "whisper", "to": 1, "text": "hi me"})
    assert "no seat 7" in refused(me, {"type": "whisper", "to": 7, "text": "hi"})
    assert "no seat -1" in refused(me, {"type": "whisper", "to": -1, "text": "hi"})
    for to in ("2", True, None, 1.5):
        assert "'to'" in refused(me, {"type": "whisper", "to": to, "text": "hi"})
    for message in ({"type": "say", "text": "hi"}, {"type": "whisper", "to": 0, "text": "hi"}):
        assert "spectators cannot chat" in refused(spectator, message)
    # The longest line is accepted, control characters become spaces; HTML is kept as typed
    # (it is data; the page shows it as text).
    me.send({"type": "say", "text": "y" * MAX_CHARS})
    me.send({"type": "say", "text": "a\x00b\nc"})
    me.send({"type": "say", "text": INJECTION})
    seen = chat_lines(read_until(players[0], says(INJECTION)))
    assert [ln["text"] for ln in seen] == ["y" * MAX_CHARS, "a b c", INJECTION]
    # Nothing refused was stored.
    stored = stored_messages(server, table["id"])
    assert [m.text for m in stored] == [ln["text"] for ln in seen]


def test_chat_is_rate_limited_per_seat(server, connect):
    table, players, _spectator = seated_table(server, connect)
    second_tab = connect(table["id"], table["links"][0]["token"])
    second_tab.sync()
    tabs = (players[0], second_tab)
    total = 2 * CHAT_BURST
    for i in range(total):
        tabs[i % 2].send({"type": "say", "text": f"spam {i}"})
    # A connection's messages are answered in order: a refused move closes its answers.
    for tab in tabs:
        tab.send({"type": "act", "action": "no such move"})
    errors = [
        m
        for tab in tabs
        for m in read_until(tab, lambda m: m["type"] == "error" and "about" not in m)
        if m.get("about") == "chat"
    ]
    assert errors and all(e["message"] == "too many chat messages; wait a moment" for e in errors)
    accepted = total - len(errors)
    # Two connections of one seat share its allowance (a burst, then a slow refill).
    assert CHAT_BURST <= accepted < total
    delivered: list[Message] = []
    while len(delivered) < accepted:
        delivered += chat_lines([players[2].recv()])
    assert len(delivered) == accepted
    assert {ln["text"] for ln in delivered} <= {f"spam {i}" for i in range(total)}
    assert len(stored_messages(server, table["id"])) == accepted


def test_a_failed_store_delivers_nothing(server, connect):
    table, players, _spectator = seated_table(server, connect)
    chat = server.hub.tables[table["id"]].chat

    class BrokenStore:
        def add_message(self, *args: Any) -> None:
            raise OSError("disk full")

    real, chat.store = chat.store, BrokenStore()
    try:
        assert "could not save" in refused(players[0], {"type": "say", "text": "lost"})
    finally:
        chat.store = real
    players[0].send({"type": "say", "text": "kept"})
    seen = chat_lines(read_until(players[1], says("kept")))
    assert [ln["text"] for ln in seen] == ["kept"]


def play_to_the_end(server: ThreadServer, table_id: str, players: list[Player]) -> None:
    """Play the first legal move for whichever human seat is to move, until the game ends."""
    state = server.hub.tables[table_id].state
    while not state.is_over:
        seat = state.to_move[0]
        move = str(state.legal_actions(seat)[0])
        answer = players[seat].act(move, len(state.history))
        assert answer["type"] == "update", answer
        state = server.hub.tables[table_id].state


def replay_steps(server: ThreadServer, table_id: str, seat: str) -> list[Message]:
    response = httpx.get(
        f"{server.url}/api/tables/{table_id}/replay", params={"seat": seat}, timeout=TIMEOUT
    )
    assert response.status_code == 200, response.text
    return list(response.json()["steps"])


def whispers_seen(messages: list[Message]) -> list[Message]:
    return [line for line in chat_lines(messages) if line["to"] is not None]


def ended_with_a_whisper(server, connect, reveal: bool) -> tuple[dict, list[Player], Player]:
    """A one-turn game in which seat 0 whispered to seat 1, played to its end."""
    body = {
        "game": "masquerade-murder",
        "seats": ["human"] * 5,
        "options": {"roles": ROLES, "max_turns": 1},
        "reveal_chat": reveal,
        "custom_deal": True,
    }
    response = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    table = response.json()
    players = [connect(table["id"], link["token"]) for link in table["links"]]
    spectator = connect(table["id"])
    for client in [*players, spectator]:
        assert client.sync()["chat"]["reveal"] is reveal
    players[0].send({"type": "whisper", "to": 1, "text": "secret deal"})
    read_until(players[0], says("secret deal"))
    play_to_the_end(server, table["id"], players)
    return table, players, spectator


def test_with_reveal_chat_every_whisper_is_shown_once_the_game_is_over(server, connect):
    table, players, spectator = ended_with_a_whisper(server, connect, reveal=True)
    (shown,) = [
        m for m in read_until(spectator, lambda m: m.get("revealed")) if m["type"] == "chat"
    ]
    assert [(ln["seat"], ln["to"], ln["text"]) for ln in shown["lines"]] == [(0, 1, "secret deal")]
    revealed = read_until(players[2], lambda m: m.get("revealed"))
    assert [ln["text"] for ln in whispers_seen(revealed)] == ["secret deal"]
    # Seat 0 had it already: its reveal adds nothing.
    assert read_until(players[0], lambda m: m.get("revealed"))[-1]["lines"] == []
    late = connect(table["id"]).sync()["chat"]["lines"]
    assert [ln["text"] for ln in late] == ["secret deal"]
    # The replay shows it where it was said: before the first move.
    for seat in ("2", "spectator"):
        steps = replay_steps(server, table["id"], seat)
        assert [ln["text"] for ln in steps[0]["chat"]] == ["secret deal"]
        assert all(step["chat"] == [] for step in steps[1:])


def test_without_reveal_chat_whispers_stay_private_after_the_game(server, connect):
    table, players, spectator = ended_with_a_whisper(server, connect, reveal=False)
    players[3].send({"type": "say", "text": "good game"})
    for client in (spectator, players[2]):
        seen = read_until(client, says("good game"))
        # The final update came before the line (for the seat that made the last move, as the
        # answer to that move, before the line was said).
        assert client.latest is not None and is_over(client.latest)
        assert whispers_seen(seen) == [] and not any(m.get("revealed") for m in seen)
    watcher = connect(table["id"]).sync()["chat"]["lines"]
    assert [ln["text"] for ln in watcher] == ["good game"]
    late = connect(table["id"], table["links"][4]["token"]).sync()["chat"]["lines"]
    assert [ln["text"] for ln in late] == ["good game"]
    # Anyone may open any seat's replay, so no replay shows a whisper; public lines sit at the
    # step they were said (after the last move).
    for seat in ("0", "1", "spectator", "all"):
        steps = replay_steps(server, table["id"], seat)
        assert [[ln["text"] for ln in step["chat"]] for step in steps] == [[]] * (
            len(steps) - 1
        ) + [["good game"]]


def test_reveal_chat_must_be_a_boolean(server):
    body = {"game": "masquerade-murder", "reveal_chat": "yes"}
    response = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
    assert response.status_code == 400 and "reveal_chat" in response.json()["detail"]


def send_line(page, text: str, to: str = "") -> None:
    """Type a line in the page's chat panel and send it ("" = everyone, else a seat)."""
    page.select_option("#chat-to", to)
    page.fill("#chat-input", text)
    page.click("#chat-send")


def wait_for_line(page, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-lines .chat-text')]"
        ".some((n) => n.textContent === t)",
        arg=text,
        timeout=TIMEOUT * 1000,
    )


def test_injection_shows_as_text_and_whispers_stay_private_in_the_browser(browser, web_server):
    table = create_table(web_server.url, seats=["human"] * 5, options={"roles": ROLES})
    context = browser.new_context()
    try:
        me, friend, watcher = context.new_page(), context.new_page(), context.new_page()
        me.goto(table["links"][0]["url"])
        friend.goto(table["links"][1]["url"])
        watcher.goto(table["spectate"])
        for page in (me, friend, watcher):
            page.wait_for_selector("#chat-note:not(:empty)")
        assert watcher.locator("#chat-form").is_hidden()  # spectators only read

        send_line(me, INJECTION)
        send_line(me, "meet me at the duke's table", to="1")
        send_line(me, "barrier")
        for page in (friend, watcher):
            wait_for_line(page, "barrier")
            texts = page.locator("#chat-lines .chat-text").all_text_contents()
            assert texts[0] == INJECTION
            assert page.locator("#chat img, #chat script").count() == 0
            assert page.evaluate("typeof window.__pwned") == "undefined"
        assert me.evaluate("typeof window.__pwned") == "undefined"
        whisper = friend.locator("#chat-lines li.whisper")
        assert whisper.count() == 1
        assert whisper.inner_text() == "seat 0 → you (whisper): meet me at the duke's table"
        # The spectator's page never got it.
        assert watcher.locator("#chat-lines li").count() == 2
        assert "duke's table" not in watcher.inner_text("body")
    finally:
        context.close()


def test_chat_lines_are_dated_by_the_servers_time_source(tmp_path: Path) -> None:
    """Like moves and tables, a chat line carries the server's time (a fake clock here)."""
    fake = FakeTime(datetime(2031, 5, 4, 12, 0, tzinfo=UTC))
    server = ThreadServer(
        Settings(database_url=f"sqlite:///{tmp_path / 'dated.sqlite3'}", time=fake)
    ).start()
    try:
        table = create_table(server.url, seats=["human"] * 5)
        player = Player(server.ws_url, table["id"], table["links"][0]["token"])
        try:
            player.sync()
            player.send({"type": "say", "text": "what time is it?"})
            (line,) = chat_lines(read_until(player, says("what time is it?")))
            assert datetime.fromisoformat(line["created"]) == fake.now()
        finally:
            player.close()
        (stored,) = server.hub.store.messages(table["id"])
        assert stored.created.replace(tzinfo=UTC) == fake.now()
    finally:
        server.stop()


def test_line_ids_do_not_count_other_seats_whispers(server, connect):
    """Issue 18, item 10: ids were the database's numbers, so the gap between two public lines
    told every reader how many whispers (of any seat, any table) came between them."""
    table, players, spectator = seated_table(server, connect)
    players[0].send({"type": "say", "text": "before"})
    live = chat_lines(read_until(spectator, says("before")))
    for text in ("one", "two", "three"):
        players[1].send({"type": "whisper", "to": 2, "text": text})
    read_until(players[2], says("three"))
    players[0].send({"type": "say", "text": "after"})
    live += chat_lines(read_until(spectator, says("after")))
    stored = {m.text: m.id for m in stored_messages(server, table["id"])}
    assert stored["after"] - stored["before"] == 4  # what the old ids gave away
    ids = [line["id"] for line in live]
    assert [ln["text"] for ln in live] == ["before", "after"]
    for opaque, line in zip(ids, live, strict=True):
        assert isinstance(opaque, str) and not opaque.isdigit() and len(opaque) >= 16
        assert str(stored[line["text"]]) != opaque
    assert len(set(ids)) == 2
    # The same line keeps its id for every reader, live and in a sync (clients merge by it).
    whisper = chat_lines(read_until(players[1], says("after")))
    assert next(ln["id"] for ln in whisper if ln["text"] == "after") == ids[1]
    again = connect(table["id"]).sync()["chat"]["lines"]
    assert [(ln["id"], ln["text"]) for ln in again] == list(
        zip(ids, ["before", "after"], strict=True)
    )
