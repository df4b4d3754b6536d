"""Claim-once seat links and the devices on a seat (issue 18, item 4).

A seat link given out at creation (or a rematch) is an *invite*. A browser opening it says so
(``{"type": "hello", "token": ..., "claim": true}``): the server then draws the seat a new
secret, its *credential*, which replaces the invite's hash in the database in one conditional
update (so of two devices claiming at once, one wins), sends it to that connection only
(``{"type": "credential", "token": ...}``, never in a URL) and closes the seat's other
connections. The invite opens nothing from then on: whoever created the table (and held every
link) can no longer play the seat once its player opened it. Clients that do not claim (the
terminal, scripts, tests) go on using a link as it is until someone claims it.

Every connection of a seat open on several devices that asks for the list (its hello says
``"devices": true``, as the table page's does) is told which
(``{"type": "devices", "devices": [{"id", "label", "since", "you"}]}``) whenever one joins or
leaves (and the last one left, that it is alone again); ``{"type": "sign_out_others"}``
draws the seat a new credential for the asking connection and closes every other one: their
credential opens nothing any more.

With several server processes, the one that draws the credential tells the others through the
bus (`ScaleOut.credential_changed`); each rereads the seat and closes the connections it holds
that opened the seat with an older secret (`close_signed_out`). Should that note be lost, such
a connection is closed at its next message (`still_signed_in`), once the process has reread
the seat (every page load or table message does).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from sqlalchemy import update

from ..storage.db import SeatRow, Store
from .connection import Client
from .messages import ClientError
from .seats import hash_token
from .table import LiveTable

CLAIM, LIST = "claim", "devices"  # the hello's flags
SIGN_OUT_OTHERS = "sign_out_others"  # the client message
CREDENTIAL, DEVICES = "credential", "devices"  # what the server sends
SIGNED_OUT = (
    "this seat was opened or signed out on its owner's device, so this link or device opens "
    "it no more; ask the seat's player for a new link"
)
# Browser families named in a device's label (the first found in its User-Agent wins).
FAMILIES = ("Edg", "Firefox", "Chrome", "Safari")
SYSTEMS = ("Android", "iPhone", "iPad", "Windows", "Mac OS", "Linux")


def device_label(user_agent: str) -> str:
    """A device as its owner may recognise it ("Firefox on Linux"), from its User-Agent."""
    family = next((f for f in FAMILIES if f in user_agent), "a program")
    system = next((s for s in SYSTEMS if s in user_agent), "")
    name = "Edge" if family == "Edg" else family
    return f"{name} on {system}" if system else name


def replace_hash(store: Store, table_id: str, seat: int, old: str, new: str) -> bool:
    """Store ``new`` as the seat's hash if it still holds ``old`` (False: someone was first)."""
    with store.writing() as session:
        changed = session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.token_hash == old)
            .values(token_hash=new)
        )
        return bool(changed.rowcount)  # type: ignore[attr-defined]


async def new_credential(table: LiveTable, seat: int, old_token: str | None = None) -> str:
    """Draw ``seat`` a new secret in place of its current one (``old_token``'s, if given);
    `ClientError` if the seat's hash changed meanwhile (another device claimed it first)."""
    record = table.seats[seat]
    old = hash_token(old_token) if old_token is not None else record.token_hash
    if old is None or record.token_hash != old:
        raise ClientError(SIGNED_OUT)
    token = secrets.token_urlsafe(24)
    async with table.lock:
        stored = await asyncio.to_thread(
            replace_hash, table.store, table.id, seat, old, hash_token(token)
        )
        if not stored:
            raise ClientError(SIGNED_OUT)
        record.token_hash = hash_token(token)
    if table.bus is not None:  # the other processes close their connections of the seat
        table.bus.credential_changed(table, seat)
    return token


def sign_out_others(table: LiveTable, keep: Client) -> None:
    """Tell and close every connection of ``keep``'s seat but ``keep``."""
    for other in list(table.clients):
        if other.seat == keep.seat and other is not keep:
            other.send({"type": "error", "message": SIGNED_OUT})
            other.revoked = True
            other.close()


def still_signed_in(table: LiveTable, client: Client) -> bool:
    """False (and the connection is told and closed) if its seat's secret changed since it
    connected: a claim or a sign-out made elsewhere (on another process, or before this
    process reread the seat)."""
    seat = client.seat
    if seat is None or client.token_hash is None:
        return True
    if table.seats[seat].token_hash == client.token_hash:
        return True
    client.send({"type": "error", "message": SIGNED_OUT})
    client.revoked = True
    table.leave(client)
    return False


def close_signed_out(table: LiveTable, seat: int) -> None:
    """Close every connection of ``seat`` that opened it with a secret it no longer has."""
    for client in list(table.clients):
        if client.seat == seat:
            still_signed_in(table, client)


def tell_devices(table: LiveTable, seat: int | None, fewer: bool = False) -> None:
    """Send every connection of ``seat`` the devices the seat is open on, when it is open on
    several (or, ``fewer``: a device just went, so a single one learns it is alone again)."""
    if seat is None:
        return
    mine = [c for c in table.clients if c.seat == seat and not c.closed]
    if len(mine) < (1 if fewer else 2):
        return
    devices = [{"id": c.device_id, "label": c.device_label, "since": c.since} for c in mine]
    for client in mine:
        if client.lists_devices:
            listed = [{**d, "you": d["id"] == client.device_id} for d in devices]
            client.send({"type": DEVICES, "devices": listed})


def describe_device(client: Client, user_agent: str, lists: bool) -> None:
    """Give a new connection its id and label for the devices list, and whether it is sent
    the list (``lists``: its hello asked for it)."""
    client.lists_devices = lists
    client.device_id = secrets.token_hex(4)
    client.device_label = device_label(user_agent)
    client.since = time.strftime("%H:%M UTC", time.gmtime())


def credential_message(token: str) -> dict[str, Any]:
    return {"type": CREDENTIAL, "token": token}
