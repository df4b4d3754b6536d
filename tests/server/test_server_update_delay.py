"""Delayed updates (issue 22): a connection whose seat is not to move hears of moves within
``Settings.update_delay``, one update for all the moves made by then, while the mover and
the seats whose turn began or ended with the move hear at once. (The leak check runs with
updates delayed too: test_server_leaks.py.)"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from server_driver import Player, ThreadServer, create_table, poll

from intrigue.server.config import SERVE_LIMITS, Settings, limits_from_environment

MURDER = "masquerade-murder"
# Long enough that the test's moves (milliseconds apart) all land before the flush.
DELAY = 3.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("delay") / "delay.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}",
        bot_delay=0,
        rate_per_second=1e6,
        rate_burst=10**6,
        update_delay=DELAY,
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


def test_a_seat_not_to_move_gets_one_update_for_the_moves_made_meanwhile(server):
    table = create_table(server.url, MURDER, ["human"] * 5)
    players = [Player(server.ws_url, table["id"], link["token"], True) for link in table["links"]]
    live = server.hub.tables[table["id"]]
    told = {}  # the log position and step each seat was last told of
    for seat, player in enumerate(players):
        player.sync()
        told[seat] = (live.state.log_length, len(live.state.history))
    while max(len(live.state.history) - step for _, step in told.values()) < 2:
        before = set(live.state.to_move)
        mover = min(before)
        answer = players[mover].act(players[mover].latest["legal_actions"][0]["action"])
        assert answer.get("accepted"), answer
        for seat in before ^ set(live.state.to_move):  # whose turn began or ended
            if seat != mover:  # told at once (the mover's answer was its update)
                assert players[seat].recv()["type"] == "update"
            told[seat] = (live.state.log_length, len(live.state.history))
    idle = min(told, key=lambda seat: told[seat][1])
    update = players[idle].recv()  # after the delay: the table's flush
    assert update["type"] == "update" and "accepted" not in update
    # The view now, and every event of the moves it was owed, in one message.
    assert update["view"] == json.loads(json.dumps(live.state.view(idle)))
    assert update["view"]["step"] - told[idle][1] >= 2
    since = told[idle][0]
    assert update["events"] == json.loads(json.dumps(live.state.events(idle, since=since)))
    for player in players:
        player.close()


def test_a_seat_still_to_move_after_another_moves_is_told_with_the_flush(server):
    """In a phase where several seats choose at once, one seat's choice changes nothing the
    others may do: a seat still to move after it is owed the update (its turn neither began
    nor ended), the mover hears at once."""
    table = create_table(server.url, MURDER, ["human"] * 5)
    players = [Player(server.ws_url, table["id"], link["token"], True) for link in table["links"]]
    live = server.hub.tables[table["id"]]
    for player in players:
        player.sync()
    while True:  # play on, everyone told at once, until two or more seats are to move
        before = set(live.state.to_move)
        if len(before) >= 2:
            break
        mover = min(before)
        assert players[mover].act(players[mover].latest["legal_actions"][0]["action"])["accepted"]
        for seat in (before ^ set(live.state.to_move)) - {mover}:
            assert players[seat].recv()["type"] == "update"
    mover, *others = sorted(before)
    legal = [entry["action"] for entry in players[others[0]].latest["legal_actions"]]
    assert players[mover].act(players[mover].latest["legal_actions"][0]["action"])["accepted"]
    staying = [seat for seat in others if seat in live.state.to_move]
    assert staying, "a simultaneous choice: the other seats are still to move"
    assert [str(a) for a in live.state.legal_actions(staying[0])] == legal
    assert not poll(players[staying[0]], 0.5)  # not at once: within the delay
    for player in players:
        player.close()


def test_an_owed_update_comes_before_any_other_message(server):
    """The update a connection is owed goes out before anything else it is sent, so what it
    hears comes in the order things happened: here a spectator, never to move, hears of a
    move before the chat line said after it, long before the table's flush."""
    table = create_table(server.url, MURDER, ["human"] * 5)
    players = [Player(server.ws_url, table["id"], link["token"], True) for link in table["links"]]
    spectator = Player(server.ws_url, table["id"], None, True)
    for player in [*players, spectator]:
        player.sync()
    mover = players[min(server.hub.tables[table["id"]].state.to_move)]
    assert mover.act(mover.latest["legal_actions"][0]["action"]).get("accepted")
    mover.send({"type": "say", "text": "my move is made"})
    update, chat = spectator.recv(), spectator.recv()
    assert update["type"] == "update" and update["view"]["step"] == 1
    assert chat["type"] == "chat" and "my move is made" in json.dumps(chat)
    for player in [*players, spectator]:
        player.close()


def test_intrigue_serve_delays_updates_and_the_environment_may_change_it():
    assert Settings().update_delay == 0  # an application built in a test: every move at once
    assert limits_from_environment({})["update_delay"] == SERVE_LIMITS["update_delay"] > 0
    assert limits_from_environment({"INTRIGUE_UPDATE_DELAY": "0"})["update_delay"] == 0
    assert limits_from_environment({"INTRIGUE_UPDATE_DELAY": "0.2"})["update_delay"] == 0.2
