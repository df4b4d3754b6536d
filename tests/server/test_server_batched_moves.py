"""Moves sent while the table stores another are played together (issue 22): each on the
position the one before it left, in one transaction, each mover answered with the step its
move was played at; so a burst of simultaneous moves (Masquerade Murder's target phase) waits
once for the database, not once per move."""

from __future__ import annotations

import contextlib
import random
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


class Racer(threading.Thread):
    """A player that sends a random legal move as soon as it may (on the last position it was
    told of) and keeps every answer: ``(step, action)`` for each move accepted."""

    def __init__(self, player: Player, seed: int) -> None:
        super().__init__(daemon=True)
        self.player, self.rng = player, random.Random(seed)
        self.accepted: list[tuple[int, str]] = []
        self.refused: list[str] = []
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:  # the test reports it
            self.failure = exc

    def _play(self) -> None:
        waiting = False
        while True:
            latest = self.player.latest
            assert latest is not None
            if latest["view"]["is_over"]:
                return
            if not waiting and latest["legal_actions"]:
                move = self.rng.choice(latest["legal_actions"])["action"]
                self.player.send({"type": "act", "action": move, "step": latest["view"]["step"]})
                waiting = True
            message = self.player.recv()
            if message.get("accepted") is not None:
                self.accepted.append((message["accepted_step"], message["accepted"]))
                waiting = False
            elif message["type"] == "error":
                self.refused.append(message["message"])
                waiting = False


def test_racing_players_behind_a_slow_database_play_a_whole_game_correctly(server):
    """Five players sending moves as fast as they may while each commit takes a while: moves
    are played in batches, and every accepted move is where its answer says, stored once, in
    order; the refused ones were chosen on positions the table had left."""
    store = server.hub.store
    original, groups = store.append_actions, []

    def slow(writes: Any) -> None:
        time.sleep(0.005)
        groups.append(len(writes))
        original(writes)

    store.append_actions = slow
    table = create_table(server.url, MURDER, ["human"] * 5, {"max_turns": 4})
    players = [Player(server.ws_url, table["id"], link["token"]) for link in table["links"]]
    for player in players:
        player.sync()
    racers = [Racer(player, seed) for seed, player in enumerate(players)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(60)
        assert not racer.is_alive() and racer.failure is None, racer.failure
    live = server.hub.tables[table["id"]]
    history = [(seat, str(action)) for seat, action in live.state.history]
    assert store.load(table["id"]).actions == history
    answers = [(step, (seat, move)) for seat, r in enumerate(racers) for step, move in r.accepted]
    assert sorted(answers) == list(enumerate(history))  # each move answered once, where it is
    assert max(groups) > 1  # moves were played together
    for racer in racers:
        assert all("moved on" in why or "turn" in why for why in racer.refused), racer.refused
    for player in players:
        player.close()
