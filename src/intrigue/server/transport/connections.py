"""Slow and greedy connections (docs/server.md, *Limits*): HTTP deadlines and per-address caps.

uvicorn gives an incomplete request all the time in the world: a client that sends its headers
a byte at a time (or nothing at all) holds a connection, a file descriptor and some memory for
as long as it likes, and enough of them left no descriptor for anyone else. `GuardedH11Protocol`
is uvicorn's HTTP/1.1 protocol with

* a **header deadline**: a request's headers must be complete within ``header_timeout`` seconds
  of the connection opening (or of the previous answer on a kept-alive connection); a partial
  request is answered ``408`` and closed, a silent connection just closed;
* a **body deadline**: the body must be complete within ``body_timeout`` seconds of its
  headers, else the connection is closed (the handler sees the client leave);
* a **cap per client address** on connections still speaking HTTP (``max_http_per_address``):
  one more is answered ``429`` and closed at once. A connection upgraded to a WebSocket leaves
  this count; WebSockets have their own caps (`AddressCounter` in `transport.websocket`).

A trickle of bytes does not extend a deadline: only finishing the headers (or the body) does.
The limits come from the uvicorn `Config` the server was built with (`install`), or, in a
``--workers`` process, from the environment its parent set (`config.limits_from_environment`).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..config import Settings, limits_from_environment


class AddressCounter:
    """How many connections each client address holds, capped at ``limit`` (0: no cap)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.held: Counter[str] = Counter()

    def acquire(self, address: str) -> bool:
        """Count one more connection of ``address``; False (nothing counted) beyond the cap."""
        if self.limit and self.held[address] >= self.limit:
            return False
        self.held[address] += 1
        return True

    def release(self, address: str) -> None:
        self.held[address] -= 1
        if self.held[address] <= 0:
            del self.held[address]


@dataclass
class HttpLimits:
    """The deadlines and the per-address cap of one server's HTTP connections."""

    header_timeout: float = 10.0
    body_timeout: float = 30.0
    per_address: AddressCounter = field(default_factory=lambda: AddressCounter(0))

    @classmethod
    def of(cls, settings: Settings) -> HttpLimits:
        return cls(
            settings.header_timeout,
            settings.body_timeout,
            AddressCounter(settings.max_http_per_address),
        )


LIMITS_ATTRIBUTE = "intrigue_http_limits"
_from_environment: HttpLimits | None = None


def install(config: Any, settings: Settings) -> None:
    """Give the uvicorn ``config`` its limits and `GuardedH11Protocol` as its HTTP protocol."""
    setattr(config, LIMITS_ATTRIBUTE, HttpLimits.of(settings))
    config.http = GuardedH11Protocol


def limits_of(config: Any) -> HttpLimits:
    """The limits installed on ``config``; else (a ``--workers`` process) the environment's."""
    global _from_environment
    limits = getattr(config, LIMITS_ATTRIBUTE, None)
    if limits is not None:
        return limits  # type: ignore[no-any-return]
    if _from_environment is None:
        _from_environment = HttpLimits.of(Settings(**limits_from_environment()))
    return _from_environment


def _answer(status: int, reason: bytes, text: str) -> bytes:
    """A whole HTTP/1.1 answer with a JSON sentence, after which the connection closes."""
    body = json.dumps({"detail": text}).encode()
    head = (
        f"HTTP/1.1 {status} ".encode()
        + reason
        + b"\r\ncontent-type: application/json\r\nconnection: close\r\n"
        + f"content-length: {len(body)}\r\n\r\n".encode()
    )
    return head + body


TOO_MANY = _answer(
    429,
    b"Too Many Requests",
    "too many connections from your address at once; close some and try again",
)
TOO_SLOW = _answer(408, b"Request Timeout", "the request was not received in time")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the deadlines and the cap above."""

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.limits = limits_of(config)
        self.address: str | None = None  # set while counted against its address
        self.deadline: asyncio.TimerHandle | None = None
        self.phase = h11.IDLE  # what the deadline running is for: headers or body
        self.upgraded = False  # a WebSocket now: the deadlines are over for good

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else ""
        if not self.limits.per_address.acquire(address):
            transport.write(TOO_MANY)
            transport.close()
            return
        self.address = address
        self._arm(self.limits.header_timeout, h11.IDLE)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._uncount()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.upgraded:
            return
        state = self.conn.their_state
        if state is h11.SEND_BODY and self.phase is not h11.SEND_BODY:
            self._arm(self.limits.body_timeout, h11.SEND_BODY)  # the headers are in
        elif state is not h11.IDLE and state is not h11.SEND_BODY:
            self._disarm()  # the request is complete (or the connection is going)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm(self.limits.header_timeout, h11.IDLE)  # the next request's headers

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self.upgraded = True
        self._disarm()
        self._uncount()  # a WebSocket now: counted by the WebSocket caps instead
        super().handle_websocket_upgrade(event)

    def _arm(self, seconds: float, phase: Any) -> None:
        self._disarm()
        self.phase = phase
        if seconds > 0 and not self.upgraded:
            self.deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        self.phase = h11.IDLE

    def _uncount(self) -> None:
        if self.address is not None:
            self.limits.per_address.release(self.address)
            self.address = None

    def _too_slow(self) -> None:
        """The deadline passed: a partial request is answered 408; the connection closes."""
        self.deadline = None
        if self.upgraded or self.transport.is_closing():
            return
        started = bool(self.conn.trailing_data[0])
        if self.phase is h11.IDLE and started and self.conn.our_state is h11.IDLE:
            self.transport.write(TOO_SLOW)
        self.transport.close()
