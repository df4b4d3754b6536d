"""Rematch over real WebSockets: one table per finished game, each human gets only its own new
seat's link (now, or when it next opens its old link), seats reshuffled, a new secret seed."""

from __future__ import annotations

import json
import random
import threading
import time
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from server_driver import TIMEOUT, Player, ThreadServer, create_table, first_action, is_over
from sqlalchemy import select
from sqlalchemy.orm import Session

from intrigue.server.config import Settings
from intrigue.server.storage.db import (
    HUMAN,
    OVER,
    SeatRecord,
    SeatRow,
    Store,
    TableRecord,
    TableRow,
)
from intrigue.server.tables import rematch
from intrigue.server.tables.rematch import Plan, commit_rematch, read_rematch
from intrigue.server.timesource import FakeTime

FIVE = ["human", "human", "easy", "medium", "hard"]
GAME_DEADLINE = 90.0  # a guard against a hang, not a measured quantity


def drain(player: Player) -> None:
    """Read whatever the server has already sent (a short wait means nothing is pending)."""
    while True:
        try:
            raw = player.ws.recv(timeout=0.05)
        except TimeoutError:
            return
        message = json.loads(raw)
        player.received.append(message)
        if message["type"] in ("sync", "update"):
            player.latest = message


def finish(players: list[Player]) -> None:
    """Play the first legal move for whichever human may move, until every one saw the end."""
    deadline = time.monotonic() + GAME_DEADLINE
    while not all(is_over(p.latest) for p in players):
        assert time.monotonic() < deadline, "the game did not finish"
        for player in players:
            drain(player)
            if player.latest["legal_actions"] and not is_over(player.latest):
                answer = player.act(first_action(player.latest))
                assert answer["type"] != "error", answer


def rematch_messages(player: Player) -> list[dict[str, Any]]:
    return [m for m in player.received if m["type"] == "rematch"]


def wait_for_rematch(player: Player, count: int = 1) -> dict[str, Any]:
    """The ``count``-th rematch message the player received (waiting for it if need be)."""
    while len(rematch_messages(player)) < count:
        player.recv()
    return rematch_messages(player)[count - 1]


def wait_for_error(player: Player) -> dict[str, Any]:
    while (message := player.recv())["type"] != "error":
        pass
    return message


def finished_table(server, connect, seats: list[str] = FIVE) -> tuple[dict, list[Player]]:
    """A one-night Masquerade Murder game with its humans connected, played to the end."""
    table = create_table(server.url, seats=seats, options={"max_turns": 1})
    players = [connect(table["id"], link["token"]) for link in table["links"]]
    for player in players:
        player.sync()
    finish(players)
    return table, players


def rematches_of(server, table_id: str) -> list[TableRow]:
    with Session(server.hub.store.engine) as session:
        rows = session.scalars(select(TableRow)).all()
    return [row for row in rows if (row.settings or {}).get("rematch_of") == table_id]


def seat_kinds(server, table_id: str) -> list[str]:
    info = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=TIMEOUT).json()
    return [s["kind"] if s["kind"] == HUMAN else s["bot"] for s in info["seats"]]


def test_one_click_makes_one_new_game_and_each_human_gets_only_its_own_link(server, connect):
    table, (p0, p1) = finished_table(server, connect)
    watcher = connect(table["id"])
    watcher.sync()

    p0.send({"type": "rematch"})
    r0, r1, seen = wait_for_rematch(p0), wait_for_rematch(p1), wait_for_rematch(watcher)

    new_id = r0["table"]
    assert new_id != table["id"] and r1["table"] == new_id and seen["table"] == new_id
    assert r0["jump"] and r1["jump"]
    assert r0["token"] != r1["token"] and r0["seat"] != r1["seat"]
    assert r0["url"] == f"/table/{new_id}#token={r0['token']}"
    # Each link reached its own seat only; the spectator got the table to watch, no link.
    assert r1["token"] not in json.dumps(p0.received)
    assert r0["token"] not in json.dumps(p1.received)
    assert "token" not in seen and "seat" not in seen and seen["url"] == f"/table/{new_id}"
    # Each link opens the seat it names, in the new table.
    for message in (r0, r1):
        assert connect(new_id, message["token"]).sync()["seat"] == message["seat"]
    # The same game, players, options and seat kinds; a new secret seed; nothing played yet.
    (row,) = rematches_of(server, table["id"])
    with Session(server.hub.store.engine) as session:
        old = session.get(TableRow, table["id"])
    assert old.rematch == new_id
    assert (row.game, row.players, row.options) == (old.game, old.players, old.options)
    assert row.seed != old.seed and row.status == "playing"
    assert sorted(seat_kinds(server, new_id)) == sorted(FIVE)

    # A second click (another seat) gets the same table and its own link again; no new table.
    p1.send({"type": "rematch"})
    again = wait_for_rematch(p1, 2)
    assert (again["table"], again["token"], again["seat"]) == (new_id, r1["token"], r1["seat"])
    assert len(rematches_of(server, table["id"])) == 1


def test_two_clicks_at_once_make_one_table(server, connect):
    table, (p0, p1) = finished_table(server, connect)
    p0.send({"type": "rematch"})
    p1.send({"type": "rematch"})
    first = {wait_for_rematch(p)["table"] for p in (p0, p1)}
    assert len(first) == 1
    assert [row.id for row in rematches_of(server, table["id"])] == list(first)


def test_concurrent_commits_in_the_database_make_one_table(tmp_path):
    """The database, not the server's lock, keeps a table to one rematch."""
    store = Store(f"sqlite:///{tmp_path / 'race.sqlite3'}")
    store.migrate()
    seats = [SeatRecord(0, HUMAN, None, "a" * 64), SeatRecord(1, HUMAN, None, "b" * 64)]
    store.create_table(
        TableRecord("old", "masquerade-ball", 2, 1, {}, OVER, datetime.now(UTC), seats)
    )
    plans = [
        Plan(
            f"new{i}",
            "masquerade-ball",
            2,
            i,
            {},
            [(HUMAN, None)] * 2,
            datetime.now(UTC),
            {0: 1, 1: 0},
        )
        for i in range(6)
    ]
    barrier = threading.Barrier(len(plans))
    results: list[str] = []

    def commit(plan: Plan) -> None:
        barrier.wait()
        results.append(commit_rematch(store, "old", plan).table)

    threads = [threading.Thread(target=commit, args=(plan,)) for plan in plans]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    with Session(store.engine) as session:
        ids = set(session.scalars(select(TableRow.id)))
        seat_rows = session.scalars(select(SeatRow).where(SeatRow.table_id != "old")).all()
    store.close()
    assert len(results) == len(plans) and len(set(results)) == 1
    assert ids == {"old", results[0]}
    assert len(seat_rows) == 2 and all(s.token_hash is None for s in seat_rows)


def test_a_player_who_was_away_gets_its_link_when_it_opens_its_old_link(server, connect):
    table, (p0, p1) = finished_table(server, connect)
    p1.close()
    p0.send({"type": "rematch"})
    mine = wait_for_rematch(p0)

    back = connect(table["id"], table["links"][1]["token"])
    back.sync()
    theirs = wait_for_rematch(back)
    assert theirs["table"] == mine["table"] and not theirs["jump"]
    assert theirs["token"] != mine["token"] and theirs["seat"] != mine["seat"]
    assert mine["token"] not in json.dumps(back.received)
    assert connect(theirs["table"], theirs["token"]).sync()["seat"] == theirs["seat"]
    # Opening the old link again gives the same new link.
    again = connect(table["id"], table["links"][1]["token"])
    again.sync()
    assert wait_for_rematch(again)["token"] == theirs["token"]
    # A spectator of the old table hears of the rematch, without any seat's link.
    watcher = connect(table["id"])
    watcher.sync()
    seen = wait_for_rematch(watcher)
    assert "token" not in seen and seen["table"] == mine["table"]


@pytest.mark.parametrize("seed", [1, 13])
def test_seats_are_reshuffled_with_server_randomness(server, connect, monkeypatch, seed):
    order = list(range(5))
    random.Random(seed).shuffle(order)  # order[new seat] = old seat
    assert order[0] != 0 and order[1] != 1, "pick a seed that moves both humans"
    monkeypatch.setattr(rematch, "RNG", random.Random(seed))
    table, (p0, p1) = finished_table(server, connect)

    p0.send({"type": "rematch"})
    r0, r1 = wait_for_rematch(p0), wait_for_rematch(p1)
    assert (r0["seat"], r1["seat"]) == (order.index(0), order.index(1))
    # Bots moved with their seats: new seat n has the kind old seat order[n] had.
    assert seat_kinds(server, r0["table"]) == [FIVE[old] for old in order]
    assert read_rematch(server.hub.store, table["id"]).seats == {
        old: new for new, old in enumerate(order)
    }


def test_a_rematch_waits_for_the_end_and_for_a_seat(server, connect):
    table = create_table(server.url, seats=FIVE, options={"max_turns": 1})
    player = connect(table["id"], table["links"][0]["token"])
    player.sync()
    player.send({"type": "rematch"})
    refused = wait_for_error(player)
    assert refused["type"] == "error" and "not over" in refused["message"]

    done, _players = finished_table(server, connect)
    watcher = connect(done["id"])
    watcher.sync()
    watcher.send({"type": "rematch"})
    refused = wait_for_error(watcher)
    assert refused["type"] == "error" and "spectators" in refused["message"]
    assert rematches_of(server, done["id"]) == []


def test_the_rematch_is_dated_by_the_servers_time_source(tmp_path):
    """Like every table, a rematch is created at the server's time (here a fake clock), so the
    lobby's order and the clocks agree with the rest of the server."""
    fake = FakeTime(datetime(2031, 5, 4, 12, 0, tzinfo=UTC))  # years away from the wall clock
    server = ThreadServer(
        Settings(database_url=f"sqlite:///{tmp_path / 'dated.sqlite3'}", bot_delay=0, time=fake)
    ).start()
    players: list[Player] = []
    try:
        table = create_table(server.url, seats=["human"] + ["easy"] * 4, options={"max_turns": 1})
        players = [Player(server.ws_url, table["id"], table["links"][0]["token"])]
        players[0].sync()
        finish(players)
        players[0].send({"type": "rematch"})
        new_id = wait_for_rematch(players[0])["table"]
        (row,) = rematches_of(server, table["id"])
        assert row.id == new_id
        created = row.created if row.created.tzinfo else row.created.replace(tzinfo=UTC)
        assert created == fake.now()
    finally:
        for player in players:
            player.close()
        server.stop()
