"""Where the server gets the time from: the wall clock, or (in tests) a clock that only moves
when told to.

Clocks of tables are stored as wall-clock times (``actions.created``), so they survive a
restart; a `FakeTime` lets tests run a time control without sleeping.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

Wake = Callable[[], None]


class TimeSource(Protocol):
    """The current time, and a way to hear that it jumped (for clocks that do not run)."""

    # Whether time passes by itself; if not, deadlines are only checked when it is advanced.
    passes: bool

    def now(self) -> datetime: ...

    def stamp(self) -> str:
        """`now` in ISO 8601, to the millisecond (what pages read of the server's clock)."""
        ...

    def subscribe(self, wake: Wake) -> None: ...

    def unsubscribe(self, wake: Wake) -> None: ...


class SystemTime:
    """The wall clock (UTC)."""

    passes = True

    def __init__(self) -> None:
        # (millisecond, its text) and (second, the text of its date and time up to the
        # milliseconds): each replaced at once, never torn.
        self._stamped = (-1, "")
        self._second = (-1, "")

    def now(self) -> datetime:
        return datetime.now(UTC)

    def stamp(self) -> str:
        """`now` in ISO 8601 to the millisecond, formatted once a millisecond, and its date and
        time once a second: a busy server states the time in every update it sends, several a
        millisecond, and formatting a date costs more than the rest of the table's status
        (docs/performance.md)."""
        moment = time.time_ns() // 1_000_000
        stamped = self._stamped
        if stamped[0] != moment:
            second, milli = divmod(moment, 1000)  # whole numbers: no float rounding
            whole = self._second
            if whole[0] != second:
                text = datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S.")
                self._second = whole = (second, text)
            self._stamped = stamped = (moment, f"{whole[1]}{milli:03d}+00:00")
        return stamped[1]

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

    def stamp(self) -> str:
        return self.now().isoformat(timespec="milliseconds")

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
