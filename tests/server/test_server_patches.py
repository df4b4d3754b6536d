"""Patches and padding on the wire (issue 22; issue 18 item 9).

A client that says ``"patches": true`` in its hello gets a whole ``sync``, then updates that
carry only what changed in its view (``patch``, ``unset``) and its legal moves only when they
changed; made whole, each is exactly the update a client that takes whole messages gets. A
seat's game messages are padded with blanks to length buckets, so that the length of what a
seat receives does not tell a passive observer its role or its hand.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from server_driver import TIMEOUT, Patched, Player, ThreadServer, create_table

import intrigue
from intrigue.server.config import Settings
from intrigue.server.tables.messages import Base, game_message
from intrigue.server.transport.protocol import PAD_SYNC, PAD_UPDATE, encode, padded

MURDER = "masquerade-murder"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("patches") / "patches.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=0, rate_per_second=1e6, rate_burst=10**6
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


class Wire:
    """A connection read frame by frame: the text as sent and its parsed message."""

    def __init__(self, server: ThreadServer, table_id: str, token: str | None, patches: bool):
        self.player = Player(server.ws_url, table_id, token, patches)
        self.frames: list[str] = []

    def next_game(self) -> dict[str, Any]:
        """The next sync or update, as sent (its text kept in ``frames``)."""
        while True:
            text = self.player.ws.recv(timeout=TIMEOUT)
            message = json.loads(text)
            if message["type"] in ("sync", "update"):
                self.frames.append(text)
                return message


def size(text: str) -> int:
    return len(text.encode("utf-8"))


def a_bucket(length: int, step: int) -> bool:
    """Whether ``length`` is where `padded` leaves a message (a multiple of its bucket)."""
    return padded(b"x" * length, step) == b"x" * length


def test_patches_made_whole_are_the_whole_updates(server):
    """Two connections on each seat, one taking patches: every update of the one is, made
    whole, the other's; patches are smaller, and legal moves travel only when they change."""
    table = create_table(server.url, MURDER, ["human"] * 5, {"max_turns": 3})
    tokens = [link["token"] for link in table["links"]]
    whole = [Wire(server, table["id"], t, False) for t in tokens]
    patched = [Wire(server, table["id"], t, True) for t in tokens]
    held = [Patched() for _ in tokens]
    for w, p, h in zip(whole, patched, held, strict=True):
        first, own = w.next_game(), p.next_game()
        assert "view" in own and "legal_actions" in own  # a sync is always whole
        # (The table's status says who is connected, and when: it changes between the two.)
        assert h.whole(own) | {"raw": None, "table": None} == first | {"raw": None, "table": None}
    chooser, live = random.Random(5), server.hub.tables[table["id"]]
    omitted = 0
    while not live.state.is_over:
        mover = chooser.choice(live.state.to_move)
        legal = [str(a) for a in live.state.legal_actions(mover)]
        whole[mover].player.send(
            {"type": "act", "action": chooser.choice(legal), "step": len(live.state.history)}
        )
        for w, p, h in zip(whole, patched, held, strict=True):
            expected, frame = w.next_game(), p.next_game()
            assert "view" not in frame and "patch" in frame
            omitted += "legal_actions" not in frame
            made = h.whole(frame)
            made.pop("raw")
            expected.pop("accepted", None)  # the move was sent on the whole connection
            expected.pop("accepted_step", None)
            assert made == expected
            assert size(p.frames[-1]) <= size(w.frames[-1])
    assert omitted > 0  # the seats' unchanged moves were not sent again
    for wire in [*whole, *patched]:
        wire.player.close()


def test_a_reconnecting_client_that_takes_patches_gets_a_whole_sync(server):
    table = create_table(server.url, MURDER, ["human"] + ["easy"] * 4)
    token = table["links"][0]["token"]
    first = Wire(server, table["id"], token, True)
    first.next_game()
    first.player.close()
    again = Wire(server, table["id"], token, True)
    sync = again.next_game()
    assert sync["type"] == "sync" and "view" in sync and "legal_actions" in sync
    again.player.close()


def test_a_seats_frames_are_padded_and_first_syncs_are_the_same_length(server):
    """The five first syncs of a Masquerade Murder table (each with its own role) have one
    length; every later frame to a seat ends on a bucket; the spectator's are not padded."""
    table = create_table(server.url, MURDER, ["human"] * 5, {"max_turns": 2})
    wires = [Wire(server, table["id"], link["token"], True) for link in table["links"]]
    spectator = Wire(server, table["id"], None, True)
    for wire in [*wires, spectator]:
        wire.next_game()
    lengths = {size(wire.frames[0]) for wire in wires}
    assert len(lengths) == 1 and a_bucket(lengths.pop(), PAD_SYNC)
    chooser, live = random.Random(9), server.hub.tables[table["id"]]
    while not live.state.is_over:
        mover = chooser.choice(live.state.to_move)
        legal = [str(a) for a in live.state.legal_actions(mover)]
        wires[mover].player.send(
            {"type": "act", "action": chooser.choice(legal), "step": len(live.state.history)}
        )
        for wire in [*wires, spectator]:
            wire.next_game()
    for wire in wires:
        assert all(a_bucket(size(text), PAD_UPDATE) for text in wire.frames[1:])
    assert all(text == text.rstrip() for text in spectator.frames)
    for wire in [*wires, spectator]:
        wire.player.close()


@pytest.mark.parametrize("seed", range(40))
def test_first_syncs_of_every_role_have_one_length(seed):
    """Without padding the five first syncs differ by up to 18 bytes, by role."""
    state = intrigue.load(MURDER).new(5, 10**15 + seed)
    syncs = [encode(game_message("sync", state, seat, 0)) for seat in range(5)]
    assert len({size(text) for text in syncs}) == 1
    assert len({size(text.rstrip()) for text in syncs}) > 1  # what the padding hides


def test_patches_carrying_private_data_are_padded_alike():
    """Through a whole game, the updates that differ between seats only by private data
    (not by whose move it acknowledges or who is to move) land in one bucket."""
    state = intrigue.load(MURDER).new(5, 424242)
    bases = [Base() for _ in range(5)]
    for seat in range(5):
        game_message("sync", state, seat, 0, bases[seat])
    chooser, seen, compared = random.Random(3), state.log_length, 0
    while not state.is_over:
        mover = chooser.choice(state.to_move)
        state = state.clone()
        state.apply(mover, chooser.choice(state.legal_actions(mover)))
        texts = [encode(game_message("update", state, s, seen, bases[s])) for s in range(5)]
        seen = state.log_length
        # The seats that neither moved nor are to move: what differs is what only they know.
        idle = [s for s in range(5) if s != mover and s not in state.to_move]
        if len(idle) > 1 and not state.is_over:  # (at the end every role is told)
            compared += 1
            assert len({size(texts[s]) for s in idle}) == 1, [size(texts[s]) for s in idle]
    assert compared > 0
