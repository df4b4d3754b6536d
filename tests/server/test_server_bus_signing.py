"""The Redis bus trusts no publisher (issue 18, item 7): notes are signed with the processes'
shared secret (HMAC-SHA256); an unsigned or wrongly signed note is dropped. And it carries only
what another process needs: a move note only for a table another process watches or plays.

The attack: anyone who could publish on the Redis channel made every player read a "server
message", and a forged vote was counted."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from server_driver import (
    Player,
    ThreadServer,
    create_table,
    play_together,
    seat_player,
    wait_until,
)

from intrigue.server.config import Settings
from intrigue.server.scaleout.bus import make_bus, sign

SECRET = secrets.token_hex(16)


@pytest.fixture
def bused(tmp_path: Path, redis_url: str) -> Iterator[ThreadServer]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        bot_delay=0,
        redis_url=redis_url,
        redis_prefix=f"intrigue-test-{secrets.token_hex(4)}",
        bus_secret=SECRET,
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


def test_forged_notes_are_dropped_and_signed_ones_heard(bused, redis_url):
    table = create_table(bused.url, seats=["human"] * 5)
    player = Player(bused.ws_url, table["id"], table["links"][0]["token"])
    player.sync()
    bus = bused.hub.bus
    publisher = redis.Redis.from_url(redis_url)
    try:
        told = {"o": "intruder", "k": "told", "t": table["id"], "text": "FORGED: you lost"}
        vote = {"o": "intruder", "k": "vote", "t": table["id"], "target": 1, "voter": 2}
        for note in (told, vote):
            publisher.publish(bus.channel, json.dumps(note))  # unsigned
            publisher.publish(bus.channel, sign(b"not the secret", note))  # wrong key
        genuine = {**told, "text": "a genuine note"}
        publisher.publish(bus.channel, sign(SECRET.encode(), genuine))
        while (message := player.recv())["type"] != "table":
            pass
    finally:
        publisher.close()
        player.close()
    # Notes are handled in order: the forged ones came first and were dropped.
    assert message["notes"] == [{"text": "a genuine note"}]
    assert not any("FORGED" in json.dumps(m) for m in player.received)
    assert bused.hub.tables[table["id"]].clock.votes == {}


def test_scale_out_needs_the_shared_secret():
    with pytest.raises(ValueError, match="INTRIGUE_BUS_SECRET"):
        make_bus(None, "redis://127.0.0.1:6379/0", "x", None)  # type: ignore[arg-type]


# -- which moves are announced -------------------------------------------------------------------
def notes_heard(subscriber: redis.client.PubSub, seconds: float) -> list[dict]:
    """The notes published on the bus during the next ``seconds`` (signature stripped)."""
    heard, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        message = subscriber.get_message(timeout=left)
        if message is not None and message["type"] == "message":
            heard.append(json.loads(message["data"].split(b".", 1)[1]))
    return heard


def moves_of(notes: list[dict], table_id: str) -> list[dict]:
    return [n for n in notes if n.get("k") == "move" and n.get("t") == table_id]


def test_a_move_is_announced_only_where_another_process_watches_or_plays(bused, redis_url):
    """With every connection of a table in this process, its moves cost the others nothing;
    a spectator elsewhere (as another process's presence note tells it) or a bot another
    process may play makes each move a note again."""
    client = redis.Redis.from_url(redis_url)
    subscriber = client.pubsub(ignore_subscribe_messages=True)
    subscriber.subscribe(bused.hub.bus.channel)
    quiet = create_table(bused.url, seats=["human"] * 5)
    players = [seat_player(bused, quiet, seat) for seat in range(5)]
    try:
        notes_heard(subscriber, 0.2)  # the table's creation and presence notes
        play_together(players, until_step=2)
        assert moves_of(notes_heard(subscriber, 1.0), quiet["id"]) == []

        peer = {"o": "another-process", "k": "here", "t": quiet["id"], "s": [None]}
        client.publish(bused.hub.bus.channel, sign(SECRET.encode(), peer))
        peers = bused.hub.bus.peers
        wait_until(lambda: quiet["id"] in getattr(peers.get("another-process"), "tables", {}), "")
        play_together(players, until_step=3)
        assert [n["n"] for n in moves_of(notes_heard(subscriber, 1.0), quiet["id"])] == [2]

        with_bot = create_table(bused.url, seats=["human", "human", "human", "human", "easy"])
        humans = [seat_player(bused, with_bot, seat) for seat in range(4)]
        play_together(humans, until_step=1)
        assert moves_of(notes_heard(subscriber, 1.0), with_bot["id"])  # no lease on SQLite
        for player in humans:
            player.close()
    finally:
        for player in players:
            player.close()
        subscriber.close()
        client.close()
