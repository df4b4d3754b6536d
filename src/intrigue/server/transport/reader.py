"""Client-to-server frames read without the ``websockets`` parser: the other half of `frames`.

A move arrives as one small masked text frame. uvicorn's ``websockets-sansio`` protocol feeds
it to the ``websockets`` library's parser (a stack of generators, some 8 µs a frame), queues
the message for the application and stops reading the socket until the application takes it
(two changes to the event loop's polling a frame). `DirectReadProtocol` is that protocol with
a shorter way for the frames a client normally sends: a whole, final, masked text or binary
frame with no extension bits and within the size limit is unmasked (the library's own C
function) and decoded here, queued as the library's way would queue it, and the socket is
paused only once the application has fallen `BACKLOG` messages behind.

Everything else takes the library's way, whose behaviour (and errors) stay the reference: a
control frame (ping, pong, close) is handed to the library whole, and at anything unusual (a
fragment, extension bits, an unmasked frame, a frame over the size limit, text that is not
UTF-8, a connection no longer open) the connection goes back to the library for good, from
that frame on. The shorter way starts only where the library's parser is known to stand
between two frames with nothing buffered: when the handshake is accepted with no extension
(compression keeps a state across frames that only the library has), and not at debug level,
where the library logs every frame it reads. docs/performance.md,
*Issue 22, eleventh round*.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

try:  # the library's C unmasking; its pure-Python one where the extension is missing
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - wheels ship the extension
    from websockets.utils import apply_mask

# Messages queued for the application before the socket stops being read (uvicorn: 1).
BACKLOG = 8
_FIN_TEXT, _FIN_BINARY = 0x81, 0x82  # a final frame, no extension bits, text or binary
_MASKED = 0x80
_CONTROL = 0x08  # opcodes 8 and above: close, ping, pong
_LONGEST_CONTROL = 125  # a control frame's payload at most (RFC 6455 5.5)


def at_frame_boundary(conn: Any) -> bool:
    """Whether the ``websockets`` connection's parser waits for the first byte of a frame with
    nothing buffered (it then holds no state about the bytes to come)."""
    if conn.reader.buffer:
        return False
    generator = conn.parser
    while generator is not None:
        inner = getattr(generator, "gi_yieldfrom", None)
        code = getattr(inner, "gi_code", None)
        if code is None:
            return False
        if code.co_name == "at_eof":  # `parse` checks for the end of the stream between frames
            return True
        generator = inner
    return False


class DirectReadProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` WebSocket protocol reading ordinary client frames itself
    (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.direct = False  # reading frames here rather than through the library
        self._unread = bytearray()
        self._max_size = self.config.ws_max_size

    async def send(self, message: Any) -> None:
        accepting = not self.handshake_complete and message["type"] == "websocket.accept"
        await super().send(message)
        if accepting and self.handshake_complete:
            conn = self.conn
            # At debug level the library logs every frame (masked by `logs`): it reads them all.
            self.direct = (
                conn.state is State.OPEN
                and not conn.extensions
                and not conn.debug
                and at_frame_boundary(conn)
            )

    def data_received(self, data: bytes) -> None:
        if not self.direct:
            super().data_received(data)
            return
        self._unread += data
        self._read_frames()

    def _read_frames(self) -> None:
        """Take every whole frame from the unread bytes, the shorter way or the library's."""
        unread = self._unread
        while len(unread) >= 2 and self.direct:
            if self.conn.state is not State.OPEN:
                self._hand_back()
                return
            first, second = unread[0], unread[1]
            size, start = second & 0x7F, 2
            if size == 126:
                if len(unread) < 4:
                    return
                size, start = int.from_bytes(unread[2:4], "big"), 4
            elif size == 127:
                if len(unread) < 10:
                    return
                size, start = int.from_bytes(unread[2:10], "big"), 10
            if first & _CONTROL:
                if start != 2 or size > _LONGEST_CONTROL:
                    self._hand_back()  # not a valid control frame: the library says why
                    return
                end = start + (4 if second & _MASKED else 0) + size
                if len(unread) < end:
                    return
                frame = bytes(unread[:end])
                del unread[:end]
                super().data_received(frame)  # its parser stands between frames: it takes it
                continue
            if (first != _FIN_TEXT and first != _FIN_BINARY) or not second & _MASKED:
                self._hand_back()
                return
            if size > self._max_size:
                self._hand_back()  # the library closes the connection (1009)
                return
            end = start + 4 + size
            if len(unread) < end:
                return
            payload = apply_mask(bytes(unread[start + 4 : end]), bytes(unread[start : start + 4]))
            if first == _FIN_TEXT:
                try:
                    text = payload.decode()
                except UnicodeDecodeError:
                    self._hand_back()  # the library closes the connection (1007)
                    return
                message: dict[str, Any] = {"type": "websocket.receive", "text": text}
            else:
                message = {"type": "websocket.receive", "bytes": payload}
            del unread[:end]
            self._queue_message(message)

    def _queue_message(self, message: dict[str, Any]) -> None:
        """Hand a client's message to the application, as the library's way does."""
        if self.close_sent:  # the application is past closing: reading goes on until the reply
            return
        queue = self.queue
        queue.put_nowait(message)  # type: ignore[arg-type]
        if not self.read_paused and queue.qsize() >= BACKLOG:
            self.read_paused = True
            self.transport.pause_reading()

    def _hand_back(self) -> None:
        """Read the rest of this connection through the library, from the first unread byte."""
        self.direct = False
        rest = bytes(self._unread)
        self._unread.clear()
        if rest:
            super().data_received(rest)
