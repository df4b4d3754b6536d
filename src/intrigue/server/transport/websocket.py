"""The game WebSocket: a client connects to ``/ws/{table_id}``, says hello, is synced, plays.

The first message is ``{"type": "hello", "token": "<seat token>"}`` (no token: a spectator);
the token never travels in the URL, where proxies and access logs would keep it. The endpoint
then finds the table and the seat the token opens, hands the table a `Client` whose
queue it drains onto the socket, and reads the client's frames: each is checked
(`transport.protocol`) and passed to the part of the table that handles its type (chat, clock
and votes, rematch, leaving, or a move).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from ..config import Settings
from ..storage.db import DB_DOWN, DB_UNAVAILABLE
from ..tables.chat import CHAT_TYPES
from ..tables.clock import CLOCK_TYPES
from ..tables.connection import Client
from ..tables.devices import (
    CLAIM,
    LIST,
    SIGN_OUT_OTHERS,
    credential_message,
    describe_device,
    new_credential,
    sign_out_others,
    still_signed_in,
    tell_devices,
)
from ..tables.hints import HINTS
from ..tables.hub import Hub
from ..tables.leave import LEAVE, leave_seat, still_seated
from ..tables.messages import ClientError
from ..tables.rematch import REMATCH
from ..tables.seats import hash_token
from ..tables.table import LiveTable
from .connections import AddressCounter
from .frames import frame_writer
from .protocol import encode, encode_bytes, read_act, read_hello, read_message, wants_patches

# WebSocket close codes (4000-4999 are for applications).
CLOSE_NO_TABLE, CLOSE_BAD_TOKEN = 4404, 4403
CLOSE_POLICY = 1008  # policy violation: no hello, or a client that does not read
CLOSE_TOO_SLOW = CLOSE_POLICY  # the client does not read what it is sent
CLOSE_TRY_LATER = 1013  # the database could not be read: come back in a moment
log = logging.getLogger("intrigue.server")
NOT_VALID = "this seat link is not valid for this table"
CLAIMED = (
    " (a link opens its seat on one device: it may have been opened already; the seat's "
    "player can send you a new one)"
)
TOO_MANY_SOCKETS = (
    "too many connections from your address at once; close some tables or tabs and try again"
)
TOKEN_IN_URL = (
    "a seat token never travels in the URL (proxies and logs keep URLs): connect to "
    '/ws/<table> and send {"type": "hello", "token": "..."} as the first message'
)


def add_websocket(app: FastAPI, hub: Hub, settings: Settings) -> None:
    # WebSockets open at once per client address, the hello included (0: no cap); kept on the
    # app's state too, where a test can see a departed socket's address let go.
    addresses = app.state.websocket_addresses = AddressCounter(settings.max_sockets_per_address)

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        address = websocket.client.host if websocket.client else ""
        if not addresses.acquire(address):
            await _refuse(websocket, TOO_MANY_SOCKETS, CLOSE_TRY_LATER)
            return
        try:
            # A task of its own: the connection's many waits (for a frame, for a commit)
            # resume through its few frames, not the two dozen of the ASGI layers above.
            await asyncio.create_task(_open(websocket, table_id, hub, settings))
        finally:
            addresses.release(address)


async def _open(websocket: WebSocket, table_id: str, hub: Hub, settings: Settings) -> None:
    """Read the hello, find the table and the seat, and serve the client (or refuse it)."""
    if "token" in websocket.query_params:  # a secret in a URL ends up in some log
        await _refuse(websocket, TOKEN_IN_URL, CLOSE_BAD_TOKEN)
        return
    try:
        token, patches, (claim, lists) = await _hello(websocket, settings)
    except ClientError as exc:
        await _refuse(websocket, str(exc), CLOSE_POLICY)
        return
    except WebSocketDisconnect:
        return
    try:
        table = await hub.get(table_id)
    except DB_UNAVAILABLE:
        await _refuse(websocket, DB_DOWN, CLOSE_TRY_LATER)
        return
    if table is None:
        await _refuse(websocket, f"there is no table {table_id[:40]!r}", CLOSE_NO_TABLE)
        return
    seat = None if token is None else table.seat_for_token(token)
    if token is not None and seat is None:
        await _refuse(websocket, NOT_VALID + (CLAIMED if claim else ""), CLOSE_BAD_TOKEN)
        return
    crowded = _crowded(table, seat, settings)
    if crowded is not None:
        await _refuse(websocket, crowded, CLOSE_TRY_LATER)
        return
    credential = None
    if claim and seat is not None:  # an invite opened in a browser: the seat becomes its own
        try:
            credential = token = await new_credential(table, seat, token)
        except ClientError as exc:
            await _refuse(websocket, str(exc), CLOSE_BAD_TOKEN)
            return
    await _serve_client(websocket, table, seat, token, settings, patches, (credential, lists))


def _crowded(table: LiveTable, seat: int | None, settings: Settings) -> str | None:
    """Why the table takes no more connections for ``seat`` (None: a spectator), or None."""
    same = sum(1 for client in table.clients if client.seat == seat)
    if seat is None:
        most = settings.max_spectators_per_table
        text = f"this table already has {same} spectators, its most; try again in a while"
    else:
        most = settings.max_sockets_per_seat
        text = (
            f"this seat is already open on {same} connections, its most; "
            "close it in another tab or device first"
        )
    if most and same >= most:
        return text
    return None


async def _hello(
    websocket: WebSocket, settings: Settings
) -> tuple[str | None, bool, tuple[bool, bool]]:
    """The seat token of the connection's first message (None: a spectator), whether the
    client takes patches, and whether it claims the seat and lists its devices (devices.py);
    `ClientError` if the first message is not a ``hello`` or does not come in time."""
    try:
        message = await asyncio.wait_for(websocket.receive(), settings.hello_timeout)
    except TimeoutError:
        raise ClientError(f"no hello within {settings.hello_timeout:g} seconds") from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    raw = message.get("text")
    data = read_message(
        raw if raw is not None else message.get("bytes"), settings.max_message_bytes
    )
    return read_hello(data), wants_patches(data), (data.get(CLAIM) is True, data.get(LIST) is True)


async def _refuse(websocket: WebSocket, text: str, code: int) -> None:
    await websocket.send_text(json.dumps({"type": "error", "message": text}))
    await websocket.close(code=code, reason=text[:100])


async def _serve_client(
    websocket: WebSocket,
    table: LiveTable,
    seat: int | None,
    token: str | None,
    settings: Settings,
    patches: bool = False,
    claimed: tuple[str | None, bool] = (None, False),
) -> None:
    """Sync the client (first giving it its new ``credential`` if it claimed the seat), then
    read its messages until it leaves."""
    client = Client(_sender(websocket), seat, settings, patches, _direct(websocket))
    if seat is not None and token is not None:
        client.token_hash = hash_token(token)
    pump = asyncio.create_task(_deliver(client, websocket))
    credential, lists = claimed
    describe_device(client, websocket.headers.get("user-agent", ""), lists)
    if credential is not None:
        client.send(credential_message(credential))
    table.join(client)
    if credential is not None:
        sign_out_others(table, client)  # whoever held the invite before
    tell_devices(table, seat)
    try:
        # The token is kept (in memory, while connected) to derive its rematch link.
        await websocket.app.state.rematches.joined(table, client, token)
        await _read_loop(websocket, table, client, settings)
    except WebSocketDisconnect:
        pass
    finally:
        table.leave(client)
        tell_devices(table, seat, fewer=True)
        with contextlib.suppress(Exception):
            await pump


# The client's sender and pump are made outside `_serve_client`: a function nested in it would
# hold all of its variables (compiled, its closure is one record), the client among them, and
# the client holds its sender: a cycle that keeps the table alive until a full collection.
def _sender(websocket: WebSocket) -> Callable[[dict[str, Any]], Awaitable[None]]:
    """What sends a message through ``websocket`` (the client's outbox, when not direct)."""

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_text(encode(message))

    return send


async def _deliver(client: Client, websocket: WebSocket) -> None:
    """Pump ``client``'s outbox; close the socket of a client dropped or whose seat went."""
    await client.pump()
    if client.dropped:
        await websocket.close(code=CLOSE_TOO_SLOW, reason="messages were not read")
    elif client.revoked:  # its seat was given up: the link opens nothing any more
        await websocket.close(code=CLOSE_BAD_TOKEN, reason="this seat link was given up")


def _direct(websocket: WebSocket) -> Callable[[dict[str, Any]], bool] | None:
    """What writes a message straight to the socket when it can at once (`frames`), or None."""
    writer = frame_writer(websocket.scope)
    if writer is None:
        return None

    def direct(message: dict[str, Any]) -> bool:
        if not writer.ready():
            return False
        writer.write(encode_bytes(message))
        return True

    return direct


async def _sign_out_others(websocket: WebSocket, table: LiveTable, client: Client) -> None:
    """A new credential for this connection; every other device of its seat is signed out."""
    if client.seat is None:
        raise ClientError("spectators have no seat to sign out of; open a seat link")
    token = await new_credential(table, client.seat)
    client.token_hash = hash_token(token)
    client.send(credential_message(token))
    websocket.app.state.rematches.tokens[client] = token  # its rematch link derives from it
    sign_out_others(table, client)
    tell_devices(table, client.seat, fewer=True)


async def _read_loop(
    websocket: WebSocket, table: LiveTable, client: Client, settings: Settings
) -> None:
    while not client.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect" or client.closed:
            return  # (closed: the server let the connection go while it was waiting)
        if not still_seated(table, client):
            return  # its seat was given up (on another process): the link is closed
        if not still_signed_in(table, client):
            return  # its seat was claimed or signed out on another process
        if not client.limiter.allow():
            client.error("too many messages; slow down")
            continue
        try:
            raw = message.get("text")
            data = read_message(
                raw if raw is not None else message.get("bytes"), settings.max_message_bytes
            )
            if data.get("type") in CHAT_TYPES:
                await table.chat.post(table, client, data)
                continue
            if data.get("type") in CLOCK_TYPES:
                await table.clock.receive(client, data)
                continue
            if data.get("type") == REMATCH:
                await websocket.app.state.rematches.request(table, client)
                continue
            if data.get("type") == LEAVE:
                await leave_seat(table, client)
                continue
            if data.get("type") == HINTS:
                await table.hints.receive(client, data)
                continue
            if data.get("type") == SIGN_OUT_OTHERS:
                await _sign_out_others(websocket, table, client)
                continue
            action, step = read_act(data, client.seat)
        except ClientError as exc:
            client.error(str(exc))
            continue
        except DB_UNAVAILABLE:  # a vote, reclaim, rematch... that could not be stored
            log.warning("table %s: a request failed: the database is unavailable", table.id)
            client.error(DB_DOWN)
            continue
        await table.act(client, action, step)
