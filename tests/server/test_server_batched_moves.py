"""Moves sent while the table stores another are played together (issue 22): each on the
position the one before it left, in one transaction, each mover answered with the step its
move was played at; so a burst of simultaneous moves (Masquerade Murder's target phase) waits
once for the database, not once per move."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_driver import Player, ThreadServer, create_table
from sqlalchemy.exc import OperationalError
from websockets.exceptions import ConnectionClosed

from intrigue.server.config import Settings
from intrigue.server.tables.table import FAILED, SAVE_FAILED

MURDER = "masquerade-murder"
TIMEOUT = 10.0


@pytest.fixture()
def server(tmp_path) -> Iterator[ThreadServer]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'batched.sqlite3'}",
        bot_delay=0,
        rate_per_second=1e6,
        rate_burst=10**6,
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


class Gate:
    """Holds the writer thread inside its first transaction until `open` (the database is
    slow), keeping the ordinals of each transaction; after ``fail_after`` transactions the
    database is unavailable."""

    def __init__(self, store: Any, fail_after: int | None = None) -> None:
        self.store, self.original = store, store.append_actions
        self.fail_after = fail_after
        self.opened, self.entered = threading.Event(), threading.Event()
        self.groups: list[list[int]] = []  # the ordinals of each transaction
        store.append_actions = self.append_actions

    def append_actions(self, writes: Any) -> None:
        self.entered.set()
        assert self.opened.wait(TIMEOUT)
        if self.fail_after is not None and len(self.groups) >= self.fail_after:
            raise OperationalError("INSERT", {}, Exception("the database is unavailable"))
        self.groups.append([w.ordinal for w in writes])
        self.original(writes)

    def open(self) -> None:
        self.opened.set()


def answer(player: Player) -> dict[str, Any]:
    """The server's answer to the player's move: its error or the update accepting it."""
    while True:
        message = player.recv()
        if message["type"] == "error" or message.get("accepted") is not None:
            return message


def wait_until(condition: Any) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_moves_sent_while_one_is_stored_are_played_together(server):
    table = create_table(server.url, MURDER, ["human"] * 5)
    players = [Player(server.ws_url, table["id"], link["token"]) for link in table["links"]]
    for player in players:
        player.sync()
    live = server.hub.tables[table["id"]]
    assert sorted(live.state.to_move) == [0, 1, 2, 3, 4]  # the target phase: all at once
    gate = Gate(server.hub.store)
    players[0].send({"type": "act", "action": "target 1", "step": 0})
    assert gate.entered.wait(TIMEOUT)  # the first move is being stored
    for seat in (1, 2, 3):
        players[seat].send({"type": "act", "action": f"target {(seat + 1) % 5}", "step": 0})
    players[4].send({"type": "act", "action": "target 4", "step": 0})  # itself: refused
    wait_until(lambda: len(live._inbox) == 4)
    gate.open()

    answers = {seat: answer(players[seat]) for seat in range(5)}
    assert answers[0]["accepted"] == "target 1" and answers[0]["accepted_step"] == 0
    # The three others, played in the order they came, after the first: one transaction.
    steps = sorted(answers[seat]["accepted_step"] for seat in (1, 2, 3))
    assert steps == [1, 2, 3]
    assert gate.groups == [[0], [1, 2, 3]]
    for seat in (1, 2, 3):
        played = answers[seat]
        assert played["accepted"] == f"target {(seat + 1) % 5}"
        assert played["view"]["step"] == 4  # told once, of the whole batch
        assert live.state.history[played["accepted_step"]][0] == seat
    assert answers[4]["type"] == "error" and "not allowed" in answers[4]["message"]
    assert list(live.state.to_move) == [4]  # the refused seat still chooses; nothing else changed
    record = server.hub.store.load(table["id"])
    assert record.actions == [(seat, str(action)) for seat, action in live.state.history]
    for player in players:
        player.close()


def test_a_batch_the_database_refuses_is_not_played_at_all(server):
    """All or none: when the transaction of a batch fails, none of its moves is played, and
    every mover is told so (the moves before it stay)."""
    table = create_table(server.url, MURDER, ["human"] * 5)
    players = [Player(server.ws_url, table["id"], link["token"]) for link in table["links"]]
    for player in players:
        player.sync()
    live = server.hub.tables[table["id"]]
    gate = Gate(server.hub.store, fail_after=1)
    players[0].send({"type": "act", "action": "target 1", "step": 0})
    assert gate.entered.wait(TIMEOUT)
    for seat in (1, 2, 3):
        players[seat].send({"type": "act", "action": f"target {(seat + 1) % 5}", "step": 0})
    wait_until(lambda: len(live._inbox) == 3)
    gate.open()
    assert answer(players[0])["accepted_step"] == 0
    for seat in (1, 2, 3):
        assert answer(players[seat]) == {"type": "error", "message": SAVE_FAILED}
    assert len(live.state.history) == 1 and sorted(live.state.to_move) == [1, 2, 3, 4]
    assert server.hub.store.load(table["id"]).actions == [(0, "target 1")]
    for player in players:
        player.close()


def test_a_server_fault_in_a_batch_leaves_no_mover_waiting(server):
    """A bug met while playing a batch breaks the connection whose call plays it (as a fault
    always did); every other mover of the batch is told its move failed."""
    table = create_table(server.url, MURDER, ["human"] * 5)
    players = [Player(server.ws_url, table["id"], link["token"]) for link in table["links"]]
    for player in players:
        player.sync()
    live = server.hub.tables[table["id"]]
    gate = Gate(server.hub.store)
    players[0].send({"type": "act", "action": "target 1", "step": 0})
    assert gate.entered.wait(TIMEOUT)
    for seat in (1, 2, 3):
        players[seat].send({"type": "act", "action": f"target {(seat + 1) % 5}", "step": 0})
    wait_until(lambda: len(live._inbox) == 3)

    def broken(*args: Any) -> Any:
        raise RuntimeError("a bug")

    live._plan = broken
    gate.open()
    assert answer(players[0])["accepted_step"] == 0
    told = 0
    for seat in (1, 2, 3):
        with contextlib.suppress(ConnectionClosed):  # the connection whose call met the fault
            told += answer(players[seat]) == {"type": "error", "message": FAILED}
    assert told == 2
    assert len(live.state.history) == 1
    for player in players:
        player.close()
