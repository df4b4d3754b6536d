"""Claim-once seat links and the devices on a seat (issue 18, item 4), over real sockets.

The attack: the table's creator gets every seat's link, and a link was a bearer secret for
ever: the creator (or anyone the link reached) could open a friend's seat on a second device,
unseen by its owner, and play for them. Now a browser opening an invite claims the seat: it is
given a credential of its own, the invite opens nothing any more, and the seat's owner sees
every device on the seat and can sign the others out.
"""

from __future__ import annotations

import httpx
from server_driver import TIMEOUT, Player, ThreadServer, closed_with, create_table

from intrigue.server.storage.db import Store
from intrigue.server.tables.devices import SIGNED_OUT
from intrigue.server.tables.seats import hash_token
from intrigue.server.transport.websocket import CLOSE_BAD_TOKEN

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]


def table_with_links(server: ThreadServer) -> dict:
    return create_table(server.url, seats=["human"] * 5, options={"roles": ROLES})


def claimed(server: ThreadServer, table: dict, seat: int) -> tuple[Player, str]:
    """A browser opening seat ``seat``'s invite: its connection and its new credential."""
    player = Player(
        server.ws_url, table["id"], table["links"][seat]["token"], claim=True, lists=True
    )
    first = player.recv()
    assert first["type"] == "credential", first
    assert player.sync()["view"]["seat"] == seat
    return player, first["token"]


def refused(server: ThreadServer, table: dict, token: str, claim: bool = False) -> str:
    player = Player(server.ws_url, table["id"], token, claim=claim)
    (error,), code = closed_with(player)
    assert error["type"] == "error" and code == CLOSE_BAD_TOKEN
    return str(error["message"])


def stored_hash(server: ThreadServer, table_id: str, seat: int) -> str | None:
    store = Store(server.hub.store.url)
    try:
        record = store.load(table_id)
    finally:
        store.close()
    assert record is not None
    return next(s.token_hash for s in record.seats if s.seat == seat)


def test_an_invite_opens_its_seat_once(server):
    table = table_with_links(server)
    invite = table["links"][1]["token"]
    host = Player(server.ws_url, table["id"], invite)  # the creator peeks at a friend's seat
    assert host.sync()["view"]["seat"] == 1
    friend, credential = claimed(server, table, 1)
    # The creator's connection is closed with the reason; the invite opens nothing any more.
    seen, code = closed_with(host)
    assert SIGNED_OUT in [m.get("message") for m in seen] and code == CLOSE_BAD_TOKEN
    assert "not valid" in refused(server, table, invite)
    assert "opened already" in refused(server, table, invite, claim=True)
    assert stored_hash(server, table["id"], 1) == hash_token(credential) != hash_token(invite)
    # The credential opens the seat (a reload, another tab of the same browser).
    again = Player(server.ws_url, table["id"], credential)
    assert again.sync()["view"]["seat"] == 1
    again.close()
    friend.close()
    # "Your tables" knows the credential, and no more the invite.
    mine = httpx.post(
        f"{server.url}/api/my-tables", json={"tokens": [invite, credential]}, timeout=TIMEOUT
    ).json()
    assert mine["unknown"] == [0] and [t["seat"] for t in mine["tables"]] == [1]


def test_the_owner_sees_every_device_and_signs_the_others_out(server):
    table = table_with_links(server)
    owner, credential = claimed(server, table, 2)
    # The same secret on another device; both ask for the devices list, as the page does.
    other = Player(server.ws_url, table["id"], credential, lists=True)
    other.sync()
    devices = other.recv()["devices"]
    assert len(devices) == 2 and sum(d["you"] for d in devices) == 1
    listed = owner.recv()
    assert listed["type"] == "devices" and len(listed["devices"]) == 2
    assert all(d["label"] and d["since"] for d in listed["devices"])
    owner.send({"type": "sign_out_others"})
    fresh = owner.recv()
    assert fresh["type"] == "credential" and fresh["token"] != credential
    seen, code = closed_with(other)
    assert SIGNED_OUT in [m.get("message") for m in seen] and code == CLOSE_BAD_TOKEN
    assert [d["you"] for d in owner.recv()["devices"]] == [True]
    assert "not valid" in refused(server, table, credential)
    back = Player(server.ws_url, table["id"], fresh["token"])
    assert back.sync()["view"]["seat"] == 2
    back.close()
    owner.close()


def test_spectators_have_no_seat_to_sign_out_of(server):
    table = table_with_links(server)
    watcher = Player(server.ws_url, table["id"])
    watcher.sync()
    watcher.send({"type": "sign_out_others"})
    assert "spectators" in watcher.recv()["message"]
    watcher.close()


def test_a_connection_whose_secret_changed_elsewhere_is_closed_at_its_next_message(server):
    """The fallback when another process's note about a claim never came: once this process
    has reread the seat, the connection that opened it with the old secret is closed."""
    table = table_with_links(server)
    player = Player(server.ws_url, table["id"], table["links"][3]["token"])
    assert player.sync()["view"]["seat"] == 3
    live = server.hub.tables[table["id"]]
    live.seats[3].token_hash = hash_token("a credential drawn by another process")
    player.send({"type": "say", "text": "still here?"})
    seen, code = closed_with(player)
    assert SIGNED_OUT in [m.get("message") for m in seen] and code == CLOSE_BAD_TOKEN
