"""Per-table leases, so that one server process at a time plays a table's bots and clocks.

When several processes share the database (``intrigue serve --redis``), each of them could run
the bots of every table: the (table_id, ordinal) key would let only one move in, but every
process would think for every bot. Instead a process plays a table's bots, clock moves and
leaver stand-ins only while it holds the table's lease: a PostgreSQL session-level advisory
lock, taken with ``pg_try_advisory_lock`` on one connection that the process keeps open. If the
process dies, its connection closes and PostgreSQL frees its locks; another process takes them
on its next periodic pass (`Leases.update`) and carries on.

The lease is an economy, not the safety: should two processes ever both play a seat (a lease
lost with a broken connection, say), the key still lets exactly one move per ordinal in, and
the other process catches up. On other databases (SQLite) there are no leases: every process
is in charge of every table it holds, and that race is accepted.

All methods are synchronous; the bus calls them from worker threads.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Iterable

from sqlalchemy import Connection, bindparam, text
from sqlalchemy.dialects.postgresql import ARRAY, BIGINT

from ..storage.db import Store

log = logging.getLogger("intrigue.server")

_TAKE = text("SELECT k FROM unnest(:keys) AS k WHERE pg_try_advisory_lock(k)").bindparams(
    bindparam("keys", type_=ARRAY(BIGINT))
)
_DROP = text("SELECT pg_advisory_unlock(k) FROM unnest(:keys) AS k").bindparams(
    bindparam("keys", type_=ARRAY(BIGINT))
)


def lease_key(namespace: str, table_id: str) -> int:
    """The advisory lock key of a table: 64 bits of sha256, signed as PostgreSQL's bigint.

    ``namespace`` keeps deployments (or test runs) sharing one database apart: advisory locks
    belong to the whole database, not to a schema.
    """
    digest = hashlib.sha256(f"{namespace}:{table_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class Leases:
    """The leases this process holds, on a connection of its own."""

    def __init__(self, store: Store, namespace: str) -> None:
        self.store = store
        self.namespace = namespace
        self.enabled = store.engine.dialect.name == "postgresql"
        self.held: set[str] = set()  # table ids
        self._connection: Connection | None = None
        self._lock = threading.Lock()  # one thread at a time on the connection

    def update(self, wanted: Iterable[str], dropped: Iterable[str]) -> list[str]:
        """Try to take the leases of ``wanted`` tables and give back those of ``dropped``;
        the table ids newly held. A broken connection loses every lease (PostgreSQL freed
        them when it closed) and is replaced on the next call."""
        if not self.enabled:
            return []
        with self._lock:
            # Under the lock: taking a lock this session holds would count it twice.
            wanted = [t for t in wanted if t not in self.held]
            dropped = [t for t in dropped if t in self.held]
            try:
                connection = self._connect()
                if dropped:
                    connection.execute(_DROP, {"keys": [self._key(t) for t in dropped]})
                    self.held.difference_update(dropped)
                if not wanted:
                    connection.execute(text("SELECT 1"))  # notice a broken connection
                    return []
                by_key = {self._key(t): t for t in wanted}
                rows = connection.execute(_TAKE, {"keys": list(by_key)}).scalars()
                taken = [by_key[k] for k in rows]
            except Exception as exc:
                log.warning("table leases lost: the lease connection failed (%s)", exc)
                self._reset()
                return []
            self.held.update(taken)
        return taken

    def close(self) -> None:
        """Close the connection: PostgreSQL frees every lease at once."""
        with self._lock:
            self._reset()

    def _key(self, table_id: str) -> int:
        return lease_key(self.namespace, table_id)

    def _connect(self) -> Connection:
        if self._connection is None:
            # Autocommit: session-level advisory locks outlive transactions anyway, and an
            # idle transaction would hold back vacuum.
            self._connection = self.store.engine.connect().execution_options(
                isolation_level="AUTOCOMMIT"
            )
        return self._connection

    def _reset(self) -> None:
        self.held.clear()
        connection, self._connection = self._connection, None
        if connection is not None:
            try:
                connection.invalidate()  # never back into the pool while holding locks
                connection.close()
            except Exception:
                log.debug("closing the lease connection failed", exc_info=True)
