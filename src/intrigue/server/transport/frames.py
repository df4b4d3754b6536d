"""Server-to-client text frames written straight to the socket, skipping the ASGI layers.

A move sends every connection of its table a message. Through ASGI each such frame takes a task
switch to the connection's pump, Starlette's ``send_text`` and its exception wrapper, uvicorn's
``send`` and the ``websockets`` frame serializer: tens of microseconds of Python a frame, most
of the server's CPU per move (docs/performance.md, issue 22). When the server is uvicorn with
its ``websockets-sansio`` protocol (as `intrigue serve` runs it) and no extension was
negotiated (no compression: `Settings.ws_compression` is off by default), an unfragmented,
unmasked text frame is just a 2-10 byte header and the payload, so `FrameWriter` writes it to
the transport itself, in the same order and with the same bytes the ASGI way would.

It writes only while the connection is open and its transport takes data (not paused by a
full buffer); otherwise it declines and the message takes the ASGI way through the
connection's queue, so a client that does not read is still dropped as before
(`tables.connection`). Under any other server (or Starlette's test client) there is no
writer, and every message takes the ASGI way.
"""

from __future__ import annotations

import struct
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

# Where `KeepRawSend` leaves the server's own ``send`` in a WebSocket's scope.
RAW_SEND = "intrigue.raw_send"
_TEXT_FIN = 0x81  # FIN bit and the text opcode


class KeepRawSend:
    """ASGI middleware keeping the server's ``send`` of a WebSocket in its scope, for
    `FrameWriter` (the application's layers wrap ``send`` on the way in)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)


def frame_header(size: int) -> bytes:
    """The header of a final, unmasked text frame of ``size`` payload bytes (RFC 6455 5.2)."""
    if size < 126:
        return bytes((_TEXT_FIN, size))
    if size < 1 << 16:
        return struct.pack("!BBH", _TEXT_FIN, 126, size)
    return struct.pack("!BBQ", _TEXT_FIN, 127, size)


class FrameWriter:
    """Writes text frames to one uvicorn WebSocket connection's transport while it may."""

    __slots__ = ("_conn", "_open", "_protocol", "_transport", "_writable")

    def __init__(self, protocol: Any, open_state: Any) -> None:
        self._protocol = protocol
        self._conn = protocol.conn  # the websockets state machine: OPEN until a close
        self._transport = protocol.transport
        self._writable = protocol.writable  # cleared while the transport's buffer is full
        self._open = open_state

    def ready(self) -> bool:
        """Whether a frame written now goes out as the ASGI way would send it at once."""
        protocol = self._protocol
        return (
            self._conn.state is self._open
            and self._writable.is_set()
            and not protocol.close_sent
            and not protocol.disconnected
            and not self._transport.is_closing()
        )

    def write(self, payload: bytes) -> None:
        """One text frame of ``payload`` (UTF-8 JSON); call only when `ready`."""
        self._transport.write(frame_header(len(payload)) + payload)


def frame_writer(scope: Scope) -> FrameWriter | None:
    """A writer for the WebSocket of ``scope``, or None when frames must take the ASGI way
    (another server or protocol implementation, or an extension such as compression)."""
    protocol = getattr(scope.get(RAW_SEND), "__self__", None)
    if protocol is None:
        return None
    try:  # uvicorn is the server's, not the engine's, dependency: looked up only here
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
        from websockets.protocol import State
    except ImportError:  # pragma: no cover - both come with the server extras
        return None
    # uvicorn's protocol or ours (`reader.DirectReadProtocol`), which writes as it does.
    if not isinstance(protocol, WebSocketsSansIOProtocol) or protocol.conn.extensions:
        return None
    return FrameWriter(protocol, State.OPEN)
