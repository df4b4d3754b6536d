"""Clocks and leavers against a real server whose time only moves when the test says so.

Deadlines are checked by calling the server's watcher directly after advancing a `FakeTime`:
nothing here sleeps for a clock to run out.
"""

from __future__ import annotations

import asyncio
import re
import time as pytime
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_driver import TIMEOUT, Player, ThreadServer, create_table, first_action, wait_until
from sqlalchemy import select
from sqlalchemy.orm import Session

import intrigue
from intrigue.engine import Record
from intrigue.server.config import Settings
from intrigue.server.storage.db import ActionRow, SeatRow, Store
from intrigue.server.timesource import FakeTime, SystemTime

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
LEAVE = 120.0  # seconds a seat may stay away in these tests


def start_server(db: Path, time: FakeTime) -> ThreadServer:
    settings = Settings(database_url=f"sqlite:///{db}", bot_delay=0, time=time, leave_timeout=LEAVE)
    return ThreadServer(settings).start()


@pytest.fixture
def time() -> FakeTime:
    return FakeTime(T0)


@pytest.fixture
def clocked(tmp_path: Path, time: FakeTime) -> Iterator[ThreadServer]:
    """A server of its own per test, on the fake time."""
    running = start_server(tmp_path / "clock.sqlite3", time)
    yield running
    running.stop()


@pytest.fixture
def players() -> Iterator[list[Player]]:
    opened: list[Player] = []
    yield opened
    for player in opened:
        player.close()


def join(server: ThreadServer, opened: list[Player], table_id: str, token: str | None) -> Player:
    player = Player(server.ws_url, table_id, token)
    opened.append(player)
    player.sync()
    return player


def check(server: ThreadServer) -> None:
    """Run the server's deadline check now, in its event loop, and wait until it is done."""
    watcher = server.hub.watcher
    assert watcher.loop is not None
    asyncio.run_coroutine_threadsafe(watcher.check(), watcher.loop).result(TIMEOUT)


def advance(server: ThreadServer, time: FakeTime, seconds: float) -> None:
    time.advance(seconds)
    check(server)


def new_table(server: ThreadServer, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"game": "masquerade-murder", "seats": seats, **extra}
    response = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    return response.json()


def stored_actions(server: ThreadServer, table_id: str) -> list[tuple[int, str, str | None]]:
    """(seat, action, auto) of every stored action, in order."""
    with Session(server.hub.store.engine) as session:
        rows = session.execute(
            select(ActionRow.seat, ActionRow.action, ActionRow.auto)
            .where(ActionRow.table_id == table_id)
            .order_by(ActionRow.ordinal)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


def stored_standin(server: ThreadServer, table_id: str, seat: int) -> str | None:
    with Session(server.hub.store.engine) as session:
        return session.get(SeatRow, (table_id, seat)).standin  # type: ignore[union-attr]


def live(server: ThreadServer, table_id: str) -> intrigue.State:
    return server.hub.tables[table_id].state


def deadlines(message: dict[str, Any]) -> dict[int, str]:
    return {d["seat"]: d["at"] for d in message["table"]["deadlines"]}


def receive_until(player: Player, wanted: Any) -> dict[str, Any]:
    """Read messages until one satisfies ``wanted``."""
    while not wanted(message := player.recv()):
        pass
    return message


def move_if_to_move(server: ThreadServer, table_id: str, seat: int, player: Player) -> None:
    """Play ``seat``'s first legal move if it is to move, once its player has heard of it."""
    if seat not in live(server, table_id).to_move:
        return
    while True:
        latest = player.latest
        assert latest is not None
        if latest["legal_actions"] and latest["view"]["step"] == len(
            live(server, table_id).history
        ):
            break
        player.recv()
    assert player.act(first_action(latest))["type"] == "update"


def play_humans(server: ThreadServer, table_id: str, humans: dict[int, Player], steps: int) -> None:
    """Let the humans play their first legal moves until ``steps`` moves or the end."""

    def humans_to_move() -> bool:
        state = live(server, table_id)
        return state.is_over or bool(set(state.to_move) & set(humans))

    while not live(server, table_id).is_over and len(live(server, table_id).history) < steps:
        wait_until(humans_to_move, "a human to move")
        for seat, player in humans.items():
            move_if_to_move(server, table_id, seat, player)


# -- clock expiry ---------------------------------------------------------------------------
def test_a_seat_out_of_time_gets_a_bot_move_and_everyone_is_told(clocked, time, players):
    table = new_table(
        clocked,
        ["human", "human", "easy", "easy", "easy"],
        clock={"mode": "move", "seconds": 60},
        clock_bot="easy",
    )
    assert table["clock"] == {"mode": "move", "seconds": 60, "bot": "easy"}
    table_id = table["id"]
    first = join(clocked, players, table_id, table["links"][0]["token"])
    join(clocked, players, table_id, table["links"][1]["token"])
    wait_until(lambda: live(clocked, table_id).to_move == (0, 1), "the bots to target")
    # Both humans must target; each has 60 s from the table's creation.
    due = (T0 + timedelta(seconds=60)).isoformat()
    info = httpx.get(f"{clocked.url}/api/tables/{table_id}").json()
    assert info["deadlines"] == [{"seat": 0, "at": due}, {"seat": 1, "at": due}]
    assert first.act("target 2")["type"] == "update"
    assert deadlines(first.latest) == {1: due}

    advance(clocked, time, 59)
    assert live(clocked, table_id).to_move == (1,)
    assert all(auto is None for _, _, auto in stored_actions(clocked, table_id))

    advance(clocked, time, 1)  # seat 1's minute is up
    moved = [(seat, auto) for seat, _, auto in stored_actions(clocked, table_id) if seat == 1]
    assert moved == [(1, "clock")]
    update = receive_until(first, lambda m: m["type"] == "update" and m["notes"])
    (note,) = update["notes"]
    assert note["text"] == "seat 1 ran out of time; a bot moved for them"
    assert (note["seat"], note["why"], note["at"]) == (1, "clock", 0)
    # The game went on: placement began, and a human to move has a fresh minute from now.
    state = live(clocked, table_id)
    assert state.view(None)["phase"] == "placement" and not state.is_over
    fresh = (T0 + timedelta(seconds=120)).isoformat()
    wait_until(lambda: set(live(clocked, table_id).to_move) <= {0, 1}, "the bots to place")
    spectator = join(clocked, players, table_id, None)
    human = live(clocked, table_id).to_move[0]
    assert deadlines(spectator.latest) == {human: fresh}
    # A later sync still says so, placed right after the events before that move.
    (note,) = spectator.latest["notes"]
    step = note["step"]
    stored = Store(clocked.hub.store.url).load(table_id)
    assert stored is not None
    before = intrigue.replay(
        Record(stored.game, stored.players, stored.seed, stored.options, stored.actions[:step])
    )
    assert note["at"] == len(before.events(None)) and note["seat"] == 1


def test_turn_based_tables_count_hours_and_do_not_replace_absent_players(clocked, time):
    table = new_table(
        clocked,
        ["human", "easy", "easy", "easy", "easy"],
        clock={"mode": "turn-based", "hours": 24},
    )
    table_id = table["id"]
    wait_until(lambda: live(clocked, table_id).to_move == (0,), "the bots to target")
    info = httpx.get(f"{clocked.url}/api/tables/{table_id}").json()
    assert info["deadlines"] == [{"seat": 0, "at": (T0 + timedelta(hours=24)).isoformat()}]
    advance(clocked, time, 23 * 3600)
    assert live(clocked, table_id).to_move == (0,) and stored_standin(clocked, table_id, 0) is None
    advance(clocked, time, 3600)
    assert [(s, auto) for s, _, auto in stored_actions(clocked, table_id) if s == 0] == [
        (0, "clock")
    ]
    # Away for a whole day, yet no stand-in: on turn-based tables being away is normal.
    assert httpx.get(f"{clocked.url}/api/tables/{table_id}").json()["standins"] == []


def test_a_deadline_survives_a_restart(tmp_path, players):
    db = tmp_path / "restart.sqlite3"
    time = FakeTime(T0)
    first = start_server(db, time)
    try:
        table = new_table(
            first, ["human", "human", "easy", "easy", "easy"], clock={"mode": "move", "seconds": 60}
        )
        table_id = table["id"]
        tokens = [link["token"] for link in table["links"]]
        seat0 = join(first, players, table_id, tokens[0])
        seat1 = join(first, players, table_id, tokens[1])
        time.advance(10)
        assert seat0.act("target 2")["type"] == "update"
        time.advance(10)
        assert seat1.act("target 3")["type"] == "update"  # at T0 + 20: placement begins
        wait_until(lambda: set(live(first, table_id).to_move) <= {0, 1}, "a human to place")
        (placer,) = live(first, table_id).to_move
        due = (T0 + timedelta(seconds=80)).isoformat()
        info = httpx.get(f"{first.url}/api/tables/{table_id}").json()
        assert info["deadlines"] == [{"seat": placer, "at": due}]
    finally:
        for player in players:
            player.close()
        first.stop()

    later = FakeTime(T0 + timedelta(seconds=50))
    second = start_server(db, later)
    try:
        back = join(second, players, table_id, tokens[placer])
        assert deadlines(back.latest) == {placer: due}
        advance(second, later, 29)
        assert live(second, table_id).to_move == (placer,)
        played = len(stored_actions(second, table_id))
        advance(second, later, 1)
        # The clock's move comes next; the bots may already have answered it.
        timed_out = stored_actions(second, table_id)[played]
        assert (timed_out[0], timed_out[2]) == (placer, "clock")
    finally:
        second.stop()


# -- leavers --------------------------------------------------------------------------------
def test_a_leaver_is_replaced_after_the_timeout_and_reclaims_the_seat(clocked, time, players):
    table = new_table(clocked, ["human", "human", "easy", "easy", "easy"], clock_bot="easy")
    table_id, tokens = table["id"], [link["token"] for link in table["links"]]
    stayer = join(clocked, players, table_id, tokens[0])
    leaver = join(clocked, players, table_id, tokens[1])
    leaver.close()
    wait_until(lambda: 1 in clocked.hub.tables[table_id].clock.away, "the server to notice")
    advance(clocked, time, LEAVE - 1)
    assert stored_standin(clocked, table_id, 1) is None
    advance(clocked, time, 1)
    assert stored_standin(clocked, table_id, 1) == "easy"
    told = receive_until(stayer, lambda m: m["type"] == "table")
    assert told["table"]["standins"] == [{"seat": 1, "bot": "easy"}]
    assert told["notes"][0]["text"] == (
        "seat 1 is away: a bot (easy) plays seat 1 until they take it back"
    )
    # The stand-in plays seat 1's pending move.
    wait_until(
        lambda: (1, "standin") in [(s, a) for s, _, a in stored_actions(clocked, table_id)],
        "the stand-in to move",
    )
    info = httpx.get(f"{clocked.url}/api/tables/{table_id}").json()
    assert info["standins"] == [{"seat": 1, "bot": "easy"}]

    # Back with the link: the seat is shown as the bot's until the player reclaims it.
    back = join(clocked, players, table_id, tokens[1])
    assert back.latest["legal_actions"] == []
    assert back.latest["table"]["standins"] == [{"seat": 1, "bot": "easy"}]
    assert stayer.act("target 3")["type"] == "update"
    back.send({"type": "reclaim"})
    told = receive_until(back, lambda m: m["type"] == "table")
    assert told["table"]["standins"] == [] and "seat 1 is back" in told["notes"][0]["text"]
    assert stored_standin(clocked, table_id, 1) is None
    again = back.recv()
    assert again["type"] == "update"
    # From now on the player moves seat 1 themselves: no more automatic moves for it.
    autos = [a for _, _, a in stored_actions(clocked, table_id) if a]
    reclaimed_at = len(stored_actions(clocked, table_id))
    play_humans(clocked, table_id, {0: stayer, 1: back}, reclaimed_at + 20)
    after = stored_actions(clocked, table_id)[reclaimed_at:]
    assert (1, None) in [(s, a) for s, _, a in after]
    assert [a for _, _, a in stored_actions(clocked, table_id) if a] == autos


def test_the_other_players_can_vote_an_absent_player_out(clocked, players):
    table = new_table(clocked, ["human", "human", "human", "easy", "easy"])
    table_id, tokens = table["id"], [link["token"] for link in table["links"]]
    voters = [join(clocked, players, table_id, token) for token in tokens[:2]]
    absent = join(clocked, players, table_id, tokens[2])
    spectator = join(clocked, players, table_id, None)
    absent.close()
    wait_until(lambda: 2 in clocked.hub.tables[table_id].clock.away, "the server to notice")

    refusals = [
        (spectator, 2, "spectators"),
        (voters[0], 1, "connected"),
        (voters[0], 0, "yourself"),
        (voters[0], 3, "human seat"),
        (voters[0], "2", "human seat"),
    ]
    for player, seat, complaint in refusals:
        player.send({"type": "vote_replace", "seat": seat})
        answer = receive_until(player, lambda m: m["type"] in ("error", "table"))
        assert answer["type"] == "error" and complaint in answer["message"], answer

    voters[0].send({"type": "vote_replace", "seat": 2})
    told = receive_until(voters[1], lambda m: m["type"] == "table")
    assert "1 of 2 votes needed" in told["notes"][0]["text"]
    assert told["table"]["votes"] == [{"seat": 2, "by": [0]}]
    assert stored_standin(clocked, table_id, 2) is None
    voters[1].send({"type": "vote_replace", "seat": 2})
    told = receive_until(voters[0], lambda m: m["type"] == "table" and m["table"]["standins"])
    assert told["table"]["standins"] == [{"seat": 2, "bot": "medium"}]
    assert "the table voted" in told["notes"][0]["text"]
    assert stored_standin(clocked, table_id, 2) == "medium"
    wait_until(
        lambda: (2, "standin") in [(s, a) for s, _, a in stored_actions(clocked, table_id)],
        "the stand-in to move",
    )
    voters[0].send({"type": "vote_replace", "seat": 2})
    answer = receive_until(voters[0], lambda m: m["type"] == "error")
    assert "already stands in" in answer["message"]
    # Without a stand-in, reclaiming is refused.
    voters[0].send({"type": "reclaim"})
    answer = receive_until(voters[0], lambda m: m["type"] == "error")
    assert "yours to play" in answer["message"]


def test_a_seat_played_by_a_stand_in_cannot_act_until_reclaimed(clocked, time, players):
    table = new_table(clocked, ["human"] * 5)  # nothing moves unless told
    table_id, tokens = table["id"], [link["token"] for link in table["links"]]
    for token in tokens[1:]:
        join(clocked, players, table_id, token)  # present: only seat 0 leaves
    join(clocked, players, table_id, tokens[0]).close()
    wait_until(lambda: 0 in clocked.hub.tables[table_id].clock.away, "the server to notice")
    advance(clocked, time, LEAVE)
    wait_until(lambda: len(live(clocked, table_id).history) == 1, "the stand-in to target")
    back = join(clocked, players, table_id, tokens[0])
    answer = back.act("target 2")
    assert answer["type"] == "error" and "reclaim" in answer["message"]
    ((seat, _, auto),) = stored_actions(clocked, table_id)
    assert (seat, auto) == (0, "standin")


# -- creation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("extra", "complaint"),
    [
        ({"clock": {"mode": "blitz"}}, "clock.mode must be one of"),
        ({"clock": {"mode": "move"}}, "needs seconds"),
        ({"clock": {"mode": "move", "seconds": 2}}, "clock.seconds must be from 5"),
        ({"clock": {"mode": "turn", "seconds": "60"}}, "needs seconds"),
        ({"clock": {"mode": "move", "hours": 1}}, "does not take hours"),
        ({"clock": {"mode": "turn-based", "hours": 0}}, "clock.hours must be from"),
        ({"clock": {"mode": "turn-based", "seconds": 60}}, "does not take seconds"),
        ({"clock": {"mode": "none", "seconds": 60}}, "does not take seconds"),
        ({"clock": "60"}, "clock"),
        ({"clock_bot": "grandmaster"}, "clock_bot must be one of"),
    ],
)
def test_bad_time_controls_are_refused(clocked, extra, complaint):
    body = {"game": "masquerade-murder", **extra}
    response = httpx.post(f"{clocked.url}/api/tables", json=body, timeout=TIMEOUT)
    assert response.status_code == 400 and complaint in response.json()["detail"], response.text


def test_the_time_control_is_stored_and_shown(clocked):
    table = new_table(
        clocked, ["human", "easy", "easy", "easy", "easy"], clock={"mode": "turn", "seconds": 90}
    )
    stored = Store(clocked.hub.store.url).load(table["id"])
    assert stored is not None
    assert stored.settings["clock"] == {"mode": "turn", "seconds": 90}
    assert stored.settings["clock_bot"] == "medium"
    plain = create_table(clocked.url, seats=["human"] * 5)
    assert plain["clock"] == {"mode": "none", "bot": "medium"} and plain["deadlines"] == []


def test_every_message_states_the_servers_time_to_the_millisecond(clocked, time, players):
    table = new_table(clocked, ["human", "easy", "easy", "easy", "easy"])
    player = join(clocked, players, table["id"], table["links"][0]["token"])
    assert player.latest is not None
    assert player.latest["table"]["now"] == "2030-01-01T12:00:00.000+00:00"
    time.advance(1.2345678)
    again = join(clocked, players, table["id"], table["links"][0]["token"])  # a new sync
    assert again.latest is not None
    assert again.latest["table"]["now"] == "2030-01-01T12:00:01.234+00:00"


def test_the_wall_clocks_stamp_is_the_current_millisecond():
    wall = SystemTime()
    wall.stamp()  # a stamp kept from an earlier millisecond must not be given again
    pytime.sleep(0.003)
    before = datetime.now(UTC)
    text = wall.stamp()
    after = datetime.now(UTC)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", text), text
    stamped = datetime.fromisoformat(text)
    assert before.replace(microsecond=before.microsecond // 1000 * 1000) <= stamped <= after
    assert wall.stamp() >= text  # the same millisecond's text, or a later one


@pytest.mark.parametrize(
    "milliseconds",
    [
        # across a second, a minute, a day and a year: the kept date and time must move on
        [1_893_455_999_998, 1_893_455_999_999, 1_893_456_000_000, 1_893_456_000_001],
        [1_764_536_459_999, 1_764_536_460_000, 1_764_536_460_999, 1_764_536_461_000],
        [5, 999, 1_000, 86_399_999, 86_400_000],
    ],
)
def test_the_wall_clocks_stamp_is_its_instant_in_iso_8601(monkeypatch, milliseconds):
    wall = SystemTime()
    for ms in milliseconds:
        monkeypatch.setattr(pytime, "time_ns", lambda ms=ms: ms * 1_000_000 + 654_321)
        expected = datetime.fromtimestamp(ms // 1000, UTC).replace(microsecond=ms % 1000 * 1000)
        assert wall.stamp() == expected.isoformat(timespec="milliseconds")


# -- the table page -----------------------------------------------------------------------------
def test_the_table_page_shows_countdowns_notes_votes_and_reclaim(browser, clocked, time):
    table = new_table(
        clocked, ["human", "human", "easy", "easy", "easy"], clock={"mode": "move", "seconds": 60}
    )
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(table["links"][0]["url"])
        mine = page.locator('#clock li.deadline[data-seat="0"]')
        mine.wait_for(timeout=TIMEOUT * 1000)
        assert "60 s per move" in page.locator("#clock").inner_text()
        # A minute from the server's (fake) now, counting down in the browser's time.
        assert re.fullmatch(r"seat 0 \(you\): [01]:\d\d left", mine.text_content() or "")

        advance(clocked, time, 60)  # both humans run out of time
        note = page.locator('#log li[data-kind="server-note"]', has_text="seat 0 ran out")
        note.wait_for(timeout=TIMEOUT * 1000)
        assert note.inner_text() == "seat 0 ran out of time; a bot moved for them"

        # Seat 1 came and went: seat 0 is the majority of the other seats that joined.
        visit = context.new_page()
        visit.goto(table["links"][1]["url"])
        # (Whichever human is to move now: the deal decides, so any countdown shows it came.)
        visit.locator("#clock li.deadline").first.wait_for(timeout=TIMEOUT * 1000)
        visit.close()
        wait_until(lambda: 1 in clocked.hub.tables[table["id"]].clock.away, "seat 1 to leave")
        page.locator('#clock button[data-vote="1"]').click()
        standin = page.locator('#clock li.standin[data-seat="1"]')
        standin.wait_for(timeout=TIMEOUT * 1000)
        assert (standin.text_content() or "").startswith("seat 1 is played by a bot (medium)")

        other = context.new_page()
        other.goto(table["links"][1]["url"])
        other.locator("#reclaim").click()
        back = other.locator('#log li[data-kind="server-note"]', has_text="is back")
        back.wait_for(timeout=TIMEOUT * 1000)
        standin.wait_for(state="detached", timeout=TIMEOUT * 1000)
        assert stored_standin(clocked, table["id"], 1) is None
    finally:
        context.close()


# -- vote griefing and early stand-ins (issue 18 item 11, issue 17 item 10) -------------------
# A vote needs a majority of the human seats that have joined, never replaces a seat whose
# player has not come yet, and on a table with no clock a seat nobody has opened waits for its
# player. The attack: the first human to arrive voted every not-yet-arrived seat out to a bot.
THREE = ["human", "human", "human", "easy", "easy"]


def test_a_seat_whose_player_never_came_cannot_be_voted_out(clocked, players):
    table = new_table(clocked, THREE)
    first = join(clocked, players, table["id"], table["links"][0]["token"])
    for seat in (1, 2):
        first.send({"type": "vote_replace", "seat": seat})
        answer = receive_until(first, lambda m: m["type"] in ("error", "table"))
        assert answer["type"] == "error" and "has not opened their link" in answer["message"]
        assert stored_standin(clocked, table["id"], seat) is None


def test_a_vote_needs_a_majority_of_the_seats_that_joined(clocked, players):
    table = new_table(clocked, THREE)
    table_id, tokens = table["id"], [link["token"] for link in table["links"]]
    voter = join(clocked, players, table_id, tokens[0])
    join(clocked, players, table_id, tokens[1]).close()  # came and went
    join(clocked, players, table_id, tokens[2]).close()  # came and went
    wait_until(lambda: {1, 2} <= set(clocked.hub.tables[table_id].clock.away), "the leavers")
    # Seat 0 alone is connected; it once made a majority of the connected seats by itself.
    voter.send({"type": "vote_replace", "seat": 2})
    told = receive_until(voter, lambda m: m["type"] == "table")
    assert "1 of 2 votes needed" in told["notes"][0]["text"]
    assert stored_standin(clocked, table_id, 2) is None
    # Seat 1 comes back and agrees: now a majority of the seats that joined.
    agreeing = join(clocked, players, table_id, tokens[1])
    agreeing.send({"type": "vote_replace", "seat": 2})
    receive_until(voter, lambda m: m["type"] == "table" and m["table"]["standins"])
    assert stored_standin(clocked, table_id, 2) == "medium"


def test_without_a_clock_a_seat_never_opened_waits_for_its_player(clocked, time, players):
    table = new_table(clocked, THREE)  # no clock
    table_id, tokens = table["id"], [link["token"] for link in table["links"]]
    join(clocked, players, table_id, tokens[0])
    join(clocked, players, table_id, tokens[1]).close()  # seat 1 came and left; seat 2 never
    wait_until(lambda: 1 in clocked.hub.tables[table_id].clock.away, "the leaver")
    advance(clocked, time, LEAVE + 1)
    assert stored_standin(clocked, table_id, 1) == "medium"  # left: a stand-in plays
    assert stored_standin(clocked, table_id, 2) is None  # never came: the seat waits


def test_under_a_clock_a_seat_never_opened_gets_a_stand_in(clocked, time, players):
    table = new_table(clocked, THREE, clock={"mode": "move", "seconds": 600})
    join(clocked, players, table["id"], table["links"][0]["token"])
    advance(clocked, time, LEAVE + 1)
    assert stored_standin(clocked, table["id"], 2) == "medium"
