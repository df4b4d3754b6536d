"""Scale-out: two ``intrigue serve --redis`` processes on one PostgreSQL and one Redis.

Players of one table connected to different processes play together; two processes racing for
the same move let exactly one in (the database's (table, ordinal) key decides); a process killed
mid-game leaves its players free to reconnect to the other and finish, its bots taken over.

Skipped, with the reason, when PostgreSQL (``INTRIGUE_TEST_POSTGRES`` or
postgresql+psycopg://127.0.0.1:5432/test) or Redis (``INTRIGUE_TEST_REDIS`` or
redis://127.0.0.1:6379/0) is unreachable. Each run uses a schema and a Redis channel prefix of
its own.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Iterator

import pytest
from server_driver import (
    TIMEOUT,
    Player,
    ProcessServer,
    ThreadServer,
    closed_with,
    create_table,
    is_over,
    link_index,
    play_together,
    poll,
    seat_player,
)
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

import intrigue
from intrigue.engine import Record
from intrigue.server.config import Settings, normalise_database_url
from intrigue.server.storage.db import Store
from intrigue.server.tables.devices import SIGNED_OUT
from intrigue.server.transport.websocket import CLOSE_BAD_TOKEN

DEFAULT_PG = "postgresql+psycopg://127.0.0.1:5432/test"
FIVE_HUMANS = ["human"] * 5
SHORT = {"max_turns": 2}  # a whole Masquerade Murder game in a few dozen moves


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A URL whose connections use a fresh schema, dropped at the end."""
    url = normalise_database_url(os.environ.get("INTRIGUE_TEST_POSTGRES") or DEFAULT_PG)
    admin = create_engine(url, connect_args={"connect_timeout": 3})
    try:
        with admin.connect():
            pass
    except Exception as exc:
        admin.dispose()
        shown = make_url(url).render_as_string(hide_password=True)
        pytest.skip(f"no PostgreSQL reachable at {shown} ({type(exc).__name__})")
    schema = f"intrigue_scaleout_{secrets.token_hex(4)}"
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    scoped = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield scoped.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="module")
def pair(
    pg_url: str, bus_options: tuple[list[str], dict[str, str]], tmp_path_factory
) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    """Two server processes sharing the database and the bus."""
    logs = tmp_path_factory.mktemp("scaleout")
    args, env = bus_options
    first = ProcessServer(pg_url, logs / "a.log", args, env).start()
    second = ProcessServer(pg_url, logs / "b.log", args, env)
    try:
        second.start()
        yield first, second
    finally:
        first.stop()
        second.stop()


# -- helpers --------------------------------------------------------------------------------------
def stored_game(pg_url: str, table_id: str) -> intrigue.engine.State:
    """The table as stored, replayed by the engine (raises if the history is not a game)."""
    store = Store(pg_url)
    try:
        record = store.load(table_id)
    finally:
        store.close()
    assert record is not None
    return intrigue.replay(
        Record(record.game, record.players, record.seed, record.options, record.actions)
    )


# -- tests ----------------------------------------------------------------------------------------
def test_seats_on_two_processes_play_a_whole_game_together(pair, pg_url):
    a, b = pair
    table = create_table(a.url, seats=["human", "human", "easy", "human", "human"], options=SHORT)
    # Seats 0 and 1 play through process A; seats 3 and 4 through process B; the bot on A.
    players = [seat_player(a, table, 0), seat_player(a, table, 1)]
    players += [seat_player(b, table, 3), seat_player(b, table, 4)]
    spectator = Player(b.ws_url, table["id"])
    spectator.sync()

    # Table talk crosses processes too: a line said on A reaches a seat on B, and a whisper
    # from B reaches its recipient on A.
    players[0].send({"type": "say", "text": "hello from A"})
    players[2].send({"type": "whisper", "to": 1, "text": "psst from B"})

    def heard(player: Player, text: str) -> bool:
        return any(
            m["type"] == "chat" and any(line["text"] == text for line in m["lines"])
            for m in player.received
        )

    play_together(players)
    for player, said in ((players[2], "hello from A"), (players[1], "psst from B")):
        deadline = time.monotonic() + TIMEOUT
        while not heard(player, said):
            assert time.monotonic() < deadline, f"{said!r} never arrived"
            poll(player, 0.1)

    final = stored_game(pg_url, table["id"])
    assert final.is_over
    for player in players:
        assert player.latest is not None and is_over(player.latest)
        assert player.latest["view"]["step"] == len(final.history)
    # Each process's seats saw the moves made on the other one, as they were made.
    while not (spectator.latest and is_over(spectator.latest)):
        spectator.recv()
    assert spectator.latest["view"] == final.view(None)
    assert sum(m["type"] == "update" for m in spectator.received) >= 2
    for player in players:
        player.close()
    spectator.close()


def test_a_claim_or_a_sign_out_on_one_process_closes_the_seat_on_the_other(pair):
    """Issue 18, item 4, with several processes: the creator peeks at a friend's seat through
    process B; the friend opens the invite through process A, which claims the seat: B closes
    the creator's connection. Then the friend's credential is open on B too, and the friend
    signs the others out on A: B closes that one as well."""
    a, b = pair
    table = create_table(a.url, seats=["human"] * 5, options=SHORT)
    invite = table["links"][link_index(table, 1)]["token"]
    host = Player(b.ws_url, table["id"], invite)
    assert host.sync()["view"]["seat"] == 1
    friend = Player(a.ws_url, table["id"], invite, claim=True)
    credential = friend.recv()
    assert credential["type"] == "credential" and friend.sync()["view"]["seat"] == 1
    seen, code = closed_with(host)
    assert SIGNED_OUT in [m.get("message") for m in seen] and code == CLOSE_BAD_TOKEN

    other = Player(b.ws_url, table["id"], credential["token"])
    assert other.sync()["view"]["seat"] == 1
    friend.send({"type": "sign_out_others"})
    while (fresh := friend.recv())["type"] != "credential":
        pass
    seen, code = closed_with(other)
    assert SIGNED_OUT in [m.get("message") for m in seen] and code == CLOSE_BAD_TOKEN
    # The new credential opens the seat on either process; the old one on neither.
    for server in (a, b):
        back = Player(server.ws_url, table["id"], fresh["token"])
        assert back.sync()["view"]["seat"] == 1
        back.close()
        _, code = closed_with(Player(server.ws_url, table["id"], credential["token"]))
        assert code == CLOSE_BAD_TOKEN
    friend.close()


def test_two_processes_racing_for_one_move_let_exactly_one_in(pair, pg_url):
    a, b = pair
    for round_ in range(12):
        table = create_table(a.url, seats=FIVE_HUMANS)
        # Two connections of seat 0, one per process, send different moves at once.
        here, there = seat_player(a, table, 0), seat_player(b, table, 0)
        first, second = (here, there) if round_ % 2 else (there, here)
        first.send({"type": "act", "action": "target 1", "step": 0})
        second.send({"type": "act", "action": "target 2", "step": 0})
        answers = []
        for player in (first, second):
            while True:
                message = player.recv()
                if message["type"] == "error" or message.get("accepted"):
                    answers.append(message)
                    break
        won = [m["accepted"] for m in answers if m["type"] != "error"]
        refused = [m["message"] for m in answers if m["type"] == "error"]
        assert len(won) == 1, answers
        # The loser named step 0, where its seat has now played the winner's move.
        assert len(refused) == 1 and "already played for your seat" in refused[0], refused
        stored = stored_game(pg_url, table["id"])
        assert [str(action) for _seat, action in stored.history] == won
        here.close()
        there.close()


def test_a_process_behind_the_database_catches_up_and_retries(pair, pg_url):
    """A third process that hears no bus: its view is stale, so its inserts lose the race for
    the ordinal, and it must catch up from the database before it answers."""
    a, _b = pair
    deaf = ThreadServer(Settings(database_url=pg_url, bot_delay=0)).start()
    try:
        table = create_table(a.url, seats=FIVE_HUMANS)
        seat1_deaf = seat_player(deaf, table, 1)
        seat0_deaf = seat_player(deaf, table, 0)
        seat1 = seat_player(a, table, 1)
        assert seat1.act("target 0")["accepted"] == "target 0"  # stored as move 0 via A
        # The deaf process still thinks nobody moved; seat 1 plays again there: refused,
        # after its insert of move 0 lost to A's.
        refused = seat1_deaf.act("target 3")
        assert refused["type"] == "error", refused
        assert "moved on" in refused["message"]
        assert "already played for your seat" in refused["message"]
        # It caught up on the way: seat 0's move there is checked on the new state and
        # stored as move 1.
        assert seat0_deaf.act("target 4")["accepted"] == "target 4"
        assert seat0_deaf.latest is not None and seat0_deaf.latest["view"]["step"] == 2
        stored = stored_game(pg_url, table["id"])
        assert [(s, str(x)) for s, x in stored.history] == [(1, "target 0"), (0, "target 4")]
        for player in (seat1_deaf, seat0_deaf, seat1):
            player.close()
    finally:
        deaf.stop()


def test_players_of_a_killed_process_finish_on_the_other(pair, pg_url, bus_options, tmp_path):
    _a, b = pair
    args, env = bus_options
    doomed = ProcessServer(pg_url, tmp_path / "doomed.log", args, env).start()
    try:
        # Created on the doomed process, which therefore plays the bot (seat 2).
        table = create_table(
            doomed.url, seats=["human", "human", "easy", "human", "human"], options=SHORT
        )
        on_doomed = [seat_player(doomed, table, 0), seat_player(doomed, table, 1)]
        on_b = [seat_player(b, table, 3), seat_player(b, table, 4)]
        play_together(on_doomed + on_b, until_step=7)
        doomed.kill()
        for player in on_doomed:
            player.close()
        # Back through process B with the same seat links; B takes the bot over too.
        back = [seat_player(b, table, 0), seat_player(b, table, 1)]
        step = back[0].latest["view"]["step"]  # type: ignore[index]
        assert step >= 7
        play_together(back + on_b)
        final = stored_game(pg_url, table["id"])
        assert final.is_over
        for player in back + on_b:
            assert player.latest is not None and is_over(player.latest)
            assert player.latest["view"]["step"] == len(final.history)
            player.close()
    finally:
        doomed.stop()
