"""Worker processes that end with the process that started them.

The server's bot pool (`intrigue.server.tables.botpool`) and the balance lab's runner
(`intrigue.lab.runner`) think in pools of spawned worker processes. A worker whose parent dies
without shutting its pool down (killed by SIGKILL, or by a SIGTERM that runs no clean-up) is
adopted by another process and, left alone, plays on: a lab worker finishes the game it holds
(minutes of CPU for a search bot in a long ball), an idle one waits for work forever. Each
worker calls `die_with_parent` first thing, so Linux ends it with its parent.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal

PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent dies


def die_with_parent(parent: int) -> None:
    """Ask Linux to end this process when ``parent`` (the pid of the process that spawned it)
    dies (``prctl``'s PR_SET_PDEATHSIG: strictly, when the parent's thread that spawned it
    ends, so pools are started from a thread that lives as long as they do), and exit at once
    if it has died already: a parent killed while its worker was starting (re-importing the
    parent's main module takes a while) left it orphaned before it could ask, and an idle
    worker holds both ends of its job queue's pipe, so it would wait for a job forever.
    Elsewhere than Linux an orphan lingers."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:  # it died before the request was made
        os._exit(0)
