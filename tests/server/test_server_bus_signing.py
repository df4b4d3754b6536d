"""The Redis bus trusts no publisher (issue 18, item 7): notes are signed with the processes'
shared secret (HMAC-SHA256); an unsigned or wrongly signed note is dropped.

The attack: anyone who could publish on the Redis channel made every player read a "server
message", and a forged vote was counted."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from server_driver import Player, ThreadServer, create_table

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
