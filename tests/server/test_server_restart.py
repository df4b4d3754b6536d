"""Durability: kill the server process mid-game; started again, it goes on where it stopped."""

from __future__ import annotations

from server_driver import Player, ProcessServer, create_table, first_action, is_over, play_until

import intrigue
from intrigue.engine import Record
from intrigue.server.storage.db import Store, TableRecord


def load(db_url: str, table_id: str) -> TableRecord | None:
    store = Store(db_url)
    try:
        return store.load(table_id)
    finally:
        store.close()


def night(message: dict) -> int:
    return int(message["view"]["night"])


def test_a_killed_server_loses_no_acknowledged_move(tmp_path):
    db_url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    log = tmp_path / "server.log"
    first = ProcessServer(db_url, log).start()
    # `intrigue serve` says where it listens.
    assert f"serving on http://127.0.0.1:{first.port}/" in log.read_text()
    try:
        table = create_table(
            first.url, seats=["human", "easy", "medium", "easy", "medium"], options={"max_turns": 4}
        )
        token = table["links"][0]["token"]
        player = Player(first.ws_url, table["id"], token)
        player.sync()
        acknowledged: list[tuple[int, str]] = []
        # Play into night 2 (no game ends that early), remembering each acknowledged move and
        # its place in the game.
        while len(acknowledged) < 3:
            if player.latest["legal_actions"]:
                answer = player.act(first_action(player.latest))
                assert answer["type"] == "update", answer
                acknowledged.append((answer["view"]["step"] - 1, answer["accepted"]))
            else:
                player.recv()
        player.close()
        first.kill()
    finally:
        first.stop()
    assert night(player.latest) == 2

    stored = load(db_url, table["id"])
    assert stored is not None and stored.status == "playing"
    for ordinal, action in acknowledged:
        assert stored.actions[ordinal] == (0, action)

    second = ProcessServer(db_url, log).start()
    try:
        back = Player(second.ws_url, table["id"], token)
        sync = back.sync()
        record = Record(stored.game, stored.players, stored.seed, stored.options, stored.actions)
        replayed = intrigue.replay(record)
        # The rebuilt game is the stored one (bots may already have moved on from it).
        assert sync["view"]["step"] >= len(stored.actions)
        seen_before = replayed.events(0)
        assert sync["events"][: len(seen_before)] == seen_before
        play_until(back, is_over, first_action)
        back.close()
    finally:
        second.stop()
    final = load(db_url, table["id"])
    assert final is not None and final.status == "over"
    assert final.actions[: len(stored.actions)] == stored.actions
    finished = intrigue.replay(
        Record(final.game, final.players, final.seed, final.options, final.actions)
    )
    assert finished.is_over and finished.view(0) == back.latest["view"]
