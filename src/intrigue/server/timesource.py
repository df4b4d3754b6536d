"""Where the server gets the time from: the wall clock, or (in tests) a clock that only moves
when told to.

Clocks of tables are stored as wall-clock times (``actions.created``), so they survive a
restart; a `FakeTime` lets tests run a time control without sleeping.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

Wake = Callable[[], None]


class TimeSource(Protocol):
    """The current time, and a way to hear that it jumped (for clocks that do not run)."""

    # Whether time passes by itself; if not, deadlines are only checked when it is advanced.
    passes: bool

    def now(self) -> datetime: ...

    def subscribe(self, wake: Wake) -> None: ...

    def unsubscribe(self, wake: Wake) -> None: ...


class SystemTime:
    """The wall clock (UTC)."""

    passes = True

    def now(self) -> datetime:
        return datetime.now(UTC)

    def subscribe(self, wake: Wake) -> None:
        """Nothing to hear of: the wall clock never jumps on request."""

    def unsubscribe(self, wake: Wake) -> None:
        """Nothing to forget."""


class FakeTime:
    """A clock that stands still until `advance`; each advance wakes every subscriber.

    Safe to advance from a test thread while a server runs in another thread.
    """

    passes = False

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(UTC)
        self._lock = threading.Lock()
        self._subscribers: list[Wake] = []

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> datetime:
        """Move time forward and wake the subscribers (the server's deadline watchers)."""
        with self._lock:
            self._now += timedelta(seconds=seconds)
            now, subscribers = self._now, list(self._subscribers)
        for wake in subscribers:
            wake()
        return now

    def subscribe(self, wake: Wake) -> None:
        with self._lock:
            self._subscribers.append(wake)

    def unsubscribe(self, wake: Wake) -> None:
        with self._lock:
            if wake in self._subscribers:
                self._subscribers.remove(wake)
