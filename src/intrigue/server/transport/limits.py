"""Limits on what one client address may ask of the server (docs/server.md, *Limits*)."""

from __future__ import annotations

import time
from collections import deque

WINDOW = 60.0  # seconds: creation limits are per minute
MAX_ADDRESSES = 100_000  # addresses remembered at once (the oldest are forgotten first)


class CreationLimit:
    """At most ``per_minute`` new tables per client address in any 60 seconds (0: no limit).

    A sliding window of creation times per address: each is forgotten a minute later.
    """

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._times: dict[str, deque[float]] = {}

    def wait(self, address: str) -> float:
        """0 and the creation is counted, or the seconds until ``address`` may create again."""
        if self.per_minute <= 0:
            return 0.0
        now = time.monotonic()
        times = self._times.pop(address, None) or deque()
        while times and now - times[0] >= WINDOW:
            times.popleft()
        self._times[address] = times  # most recently used last
        if len(times) >= self.per_minute:
            return WINDOW - (now - times[0])
        times.append(now)
        if len(self._times) > MAX_ADDRESSES:
            del self._times[next(iter(self._times))]
        return 0.0
