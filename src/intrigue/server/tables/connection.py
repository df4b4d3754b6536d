"""One connection to a table, and the token bucket that paces what a client may send.

A `Client` is what a live table knows of a WebSocket: a seat (or None for a spectator) and a
queue of messages to send. The transport layer drains the queue onto the socket (`pump`), so a
slow reader never holds up a table; the table only ever puts messages in. The queue is
bounded: a client with ``max_queued`` messages waiting, or whose socket has not taken a message
for ``send_timeout`` seconds, does not read what it is sent; it is dropped (and catches up with
a full sync when it reconnects), so it costs the server no more memory or time.

When the transport can write a frame at once (`direct`, given by the transport layer) and
nothing is waiting in the queue, a message skips the queue and the pump: it is written there
and then, which keeps the order (the queue is empty) and saves a task switch and the layers of
the ASGI send per message (docs/performance.md, issue 22).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from ..config import Settings
from .messages import Base, error_message

log = logging.getLogger("intrigue.server")


class RateLimiter:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def allow(self) -> bool:
        if not self.rate:
            return True  # 0: no limit (a benchmark's clients, a trusted deployment)
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Outbox:
    """A connection's messages waiting to be sent, for its one reader (`Client.pump`): what
    `asyncio.Queue` does here, at less cost per message (a table puts one in every connection's
    outbox after every move)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[dict[str, Any] | None] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def qsize(self) -> int:
        return len(self._items)

    def put_nowait(self, item: dict[str, Any] | None) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> dict[str, Any] | None:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()


class Client:
    """One WebSocket connection to a table, as a seat or (seat None) a spectator.

    Messages go through a queue drained by `pump`, so a slow client never holds up a table.
    """

    def __init__(
        self,
        send: Callable[[dict[str, Any]], Awaitable[None]],
        seat: int | None,
        settings: Settings,
        patches: bool = False,
        direct: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        self._send = send
        # Writes a message straight to the socket if it can at once (True), or declines.
        self._direct = direct
        self.seat = seat
        self.seen = 0  # log position this client has been sent up to
        # A client that takes patches (it said so in its hello): what it holds (messages.py).
        self.base = Base() if patches else None
        self.limiter = RateLimiter(settings.rate_per_second, settings.rate_burst)
        self.queue = Outbox()
        self.max_queued = settings.max_queued
        self.send_timeout = settings.send_timeout
        self.sending_since: float | None = None  # when the send in progress began
        self.queued = 0  # messages accepted for sending so far (queued or written)
        self.closed = False
        self.dropped = False  # closed because it did not read its messages
        self.revoked = False  # closed because its seat was given up (leave.py)
        # The hash of the secret it opened its seat with: once the seat's changes (a claim or a
        # sign-out, here or on another process), the connection is closed (devices.py).
        self.token_hash: str | None = None
        # What the seat's owner sees of this connection in its devices list (devices.py).
        self.device_id, self.device_label, self.since = "", "", ""
        self.lists_devices = False  # sent the devices list of its seat (it asked in its hello)
        # An update the table owes it (delayed: it was not to move), sent before anything else.
        self.owed: Callable[[], None] | None = None

    @property
    def writes_directly(self) -> bool:
        """Whether messages may skip the queue and go straight to the socket (`direct`)."""
        return self._direct is not None

    def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        if self.owed is not None:  # the update it is owed comes first
            self.owed()
            if self.closed:
                return  # dropped while sending it (it did not read): nothing more goes out
        if self.queue.qsize() >= self.max_queued or self._stalled():
            log.warning("dropping a client that does not read its messages")
            self.dropped = True
            self.close()
            return
        self.queued += 1
        if (
            self._direct is not None
            and self.sending_since is None
            and not self.queue.qsize()
            and self._direct(message)
        ):
            return
        self.queue.put_nowait(message)

    def _stalled(self) -> bool:
        """Whether the socket has not taken the message being sent for ``send_timeout``."""
        since = self.sending_since
        return (
            bool(self.send_timeout)
            and since is not None
            and (time.monotonic() - since > self.send_timeout)
        )

    def error(self, text: str) -> None:
        self.send(error_message(text))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages in order until `close`."""
        while (message := await self.queue.get()) is not None:
            self.sending_since = time.monotonic()
            await self._send(message)
            self.sending_since = None
