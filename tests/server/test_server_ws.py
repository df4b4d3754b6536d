"""The WebSocket protocol against the real server: sync, moves, refusals, bots, spectators."""

from __future__ import annotations

import json

import pytest
from server_driver import (
    Player,
    ThreadServer,
    create_table,
    first_action,
    is_over,
    play_until,
)
from websockets.exceptions import ConnectionClosed

import intrigue
from intrigue.engine import Record
from intrigue.server.config import Settings
from intrigue.server.storage.db import Store

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
MESSAGE_KEYS = {"type", "seat", "view", "events", "event_texts", "legal_actions"}


def live_state(server: ThreadServer, table_id: str) -> intrigue.State:
    return server.hub.tables[table_id].state


def all_human_table(server: ThreadServer, connect, **options) -> tuple[str, list[Player]]:
    """A Masquerade Murder table of five humans with fixed roles, every seat connected."""
    table = create_table(server.url, seats=["human"] * 5, options={"roles": ROLES, **options})
    players = [connect(table["id"], link["token"]) for link in table["links"]]
    for player in players:
        player.sync()
    return table["id"], players


def test_sync_sends_exactly_the_seats_view_events_and_moves(server, connect):
    # Humans only: nothing moves while the test compares.
    table = create_table(server.url, seats=["human"] * 5, options={"roles": ROLES})
    player = connect(table["id"], table["links"][1]["token"])
    sync = player.sync()
    state = live_state(server, table["id"])
    assert (
        set(sync) == MESSAGE_KEYS | {"chat", "table", "notes", "custom_deal"} and sync["seat"] == 1
    )
    assert sync["custom_deal"] == ["the roles"]
    assert sync["view"] == state.view(1)
    assert sync["events"] == state.events(1)
    assert len(sync["event_texts"]) == len(sync["events"])
    game = state.game
    expected = [
        {"action": str(a), "text": game.describe_action(a, state.view(1))}
        for a in state.legal_actions(1)
    ]
    assert sync["legal_actions"] == expected
    assert sync["view"]["you"]["role"] == "thug"
    # Nothing about another seat's role anywhere in the message.
    roles = [e["role"] for e in sync["events"] if e["kind"] == "role"]
    assert roles == ["thug"]
    assert sync["view"]["roles"] is None
    assert str(state.seed) not in json.dumps(sync)


def test_a_spectator_gets_the_public_view(server, connect):
    table = create_table(server.url, seats=["human"] * 5)
    spectator = connect(table["id"])
    sync = spectator.sync()
    state = live_state(server, table["id"])
    assert sync["seat"] is None and sync["legal_actions"] == []
    assert sync["view"] == state.view(None) and sync["view"]["you"] is None
    assert sync["events"] == state.events(None)
    assert not any(e.get("private") for e in sync["events"])
    answer = spectator.act("target 1")
    assert answer["type"] == "error" and "spectator" in answer["message"]


def test_unknown_table_and_bad_token_are_refused_and_closed(server):
    with pytest.raises(ConnectionClosed) as closed:
        lost = Player(server.ws_url, "no-such-table")
        assert "no table" in lost.recv()["message"]
        lost.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    table = create_table(server.url, seats=["human"] * 5)
    with pytest.raises(ConnectionClosed) as closed:
        forged = Player(server.ws_url, table["id"], "not-a-real-token")
        assert "not valid" in forged.recv()["message"]
        forged.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_a_move_is_pushed_to_every_connection_as_its_own_view(server, connect):
    table_id, players = all_human_table(server, connect)
    spectator = connect(table_id)
    spectator.sync()
    answer = players[0].act("target 3")
    assert answer["type"] == "update" and answer["accepted"] == "target 3"
    state = live_state(server, table_id)
    assert answer["view"] == state.view(0)
    assert [e["kind"] for e in answer["events"]] == ["decided", "targeted"]
    for seat in range(1, 5):
        update = players[seat].recv()
        assert update["type"] == "update" and "accepted" not in update
        assert update["view"] == state.view(seat)
        assert [e["kind"] for e in update["events"]] == ["decided"]  # not seat 0's target
    seen = spectator.recv()
    assert seen["view"] == state.view(None) and seen["events"] == [{"kind": "decided", "seat": 0}]


@pytest.mark.parametrize(
    ("raw", "complaint"),
    [
        ("this is not json", "not JSON"),
        ('{"type": "act", "action": "target 2", "step": NaN}', "not JSON"),  # not JSON either
        ("[1, 2]", "JSON object"),
        ('{"type": "dance"}', "unknown message type"),
        ('{"type": "act"}', "'action'"),
        ('{"type": "act", "action": 5}', "'action'"),
        ('{"type": "act", "action": "target 2"}', "'step'"),
        ('{"type": "act", "action": "target 2", "step": "0"}', "'step'"),
        ('{"type": "act", "action": "target 2", "step": 7}', "no step 7 yet"),
        ('{"type": "act", "action": "fly away", "step": 0}', "not a move"),
        ('{"type": "act", "action": "target 0", "step": 0}', "yourself"),
        ('{"type": "act", "action": "place a1", "step": 0}', "not allowed"),
        ('{"type": "act", "action": "target 2", "seat": 1, "step": 0}', "another seat"),
        (json.dumps({"type": "act", "action": "target 2", "pad": "x" * 5000}), "too large"),
    ],
)
def test_refused_messages_change_nothing_and_keep_the_connection(server, connect, raw, complaint):
    table_id, players = all_human_table(server, connect)
    before = live_state(server, table_id)
    players[0].send(raw)
    answer = players[0].recv()
    assert answer["type"] == "error" and complaint in answer["message"]
    assert live_state(server, table_id) is before
    assert len(before.history) == 0
    # The same connection still plays.
    assert players[0].act("target 2")["accepted"] == "target 2"


def test_acting_out_of_turn_is_refused(server, connect):
    table_id, players = all_human_table(server, connect)
    for seat, player in enumerate(players):
        assert player.act(f"target {(seat + 1) % 5}")["type"] == "update"
    state = live_state(server, table_id)
    assert state.view(None)["phase"] == "placement"
    (placer,) = state.to_move
    other = (placer + 1) % 5
    answer = players[other].act("place a1")
    assert answer["type"] == "error" and "not your turn" in answer["message"]
    assert answer["message"] == f"it is not your turn (waiting for seat {placer})"
    assert live_state(server, table_id) is state
    # (The placer has not read the other seats' updates: it names the step it is to move at.)
    assert players[placer].act("place a1", len(state.history))["accepted"] == "place a1"


def test_a_frame_far_too_large_closes_the_connection(server, connect):
    table_id, players = all_human_table(server, connect)
    players[0].send(b"x" * 100_000)
    with pytest.raises(ConnectionClosed) as closed:
        players[0].recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert len(live_state(server, table_id).history) == 0


def test_a_human_plays_a_whole_game_against_bots(server, connect):
    table = create_table(
        server.url, seats=["human", "easy", "medium", "easy", "medium"], options={"max_turns": 3}
    )
    spectator = connect(table["id"])
    spectator.sync()
    player = connect(table["id"], table["links"][0]["token"])
    player.sync()
    play_until(player, is_over, first_action)
    state = live_state(server, table["id"])
    assert state.is_over and player.latest["view"] == state.view(0)
    assert player.latest["view"]["outcome"] == state.outcome.to_json()
    # The spectator saw the whole game, and nothing private.
    play_until(spectator, is_over, first_action)
    spectated = [e for m in spectator.received for e in m.get("events", [])]
    assert spectated == state.events(None)
    assert not any(e.get("private") for e in spectated)
    assert all(m["view"]["you"] is None for m in spectator.received)
    # The seat's messages add up to exactly its log.
    assert [e for m in player.received for e in m.get("events", [])] == state.events(0)
    # Every move is in the database, in order; replaying them gives the same game.
    stored = Store(server.hub.store.url).load(table["id"])
    assert stored is not None and stored.status == "over"
    assert stored.actions == [(seat, str(action)) for seat, action in state.history]
    record = Record(stored.game, stored.players, stored.seed, stored.options, stored.actions)
    assert intrigue.replay(record).view(None) == state.view(None)


def test_a_reconnecting_player_gets_the_current_view(server, connect):
    table = create_table(server.url, seats=["human"] * 5)  # nothing moves meanwhile
    first = connect(table["id"], table["links"][0]["token"])
    first.sync()
    first.act("target 1")
    first.close()
    again = connect(table["id"], table["links"][0]["token"])
    sync = again.sync()
    state = live_state(server, table["id"])
    assert sync["view"] == state.view(0) and sync["view"]["you"]["target"] == 1
    assert sync["events"] == state.events(0)


@pytest.fixture(scope="module")
def strict_server(tmp_path_factory):
    """A server allowing a burst of 3 messages per connection and (practically) no refill."""
    db = tmp_path_factory.mktemp("strict") / "strict.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=0, rate_per_second=1e-6, rate_burst=3
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


def test_too_many_messages_are_refused(strict_server):
    table = create_table(strict_server.url, seats=["human"] * 5)
    player = Player(strict_server.ws_url, table["id"], table["links"][0]["token"])
    try:
        player.sync()
        answers = []
        for _ in range(5):
            player.send('{"type": "dance"}')
            answers.append(player.recv()["message"])
        assert [("slow down" in text) for text in answers] == [False] * 3 + [True] * 2
        assert len(strict_server.hub.tables[table["id"]].state.history) == 0
    finally:
        player.close()
