"""bench/load.py's reading of the server's threads (Linux /proc): CPU and context switches of
the event loop's thread and of the others, per move."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

# At the end of the path: the benchmarks' names must not shadow an installed module.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

import load


def test_the_main_thread_and_the_others_are_read_apart() -> None:
    """Sleeps of the main thread are its context switches; a busy helper thread's CPU and
    its waits count as the other threads'."""
    release = threading.Event()
    started = threading.Event()

    def busy_then_wait() -> None:
        end = time.thread_time() + 0.2
        while time.thread_time() < end:
            pass
        started.set()
        release.wait()

    before = load.thread_figures(os.getpid())
    helper = threading.Thread(target=busy_then_wait)
    helper.start()
    assert started.wait(10)
    for _ in range(5):
        time.sleep(0.01)
    after = load.thread_figures(os.getpid())  # the helper still alive: it is counted
    release.set()
    helper.join()
    assert after["loop"][1] >= before["loop"][1] + 5
    assert after["other"][0] >= before["other"][0] + 0.15  # clock ticks: 0.2 s, roughly


def test_figures_per_move() -> None:
    before = {"loop": (1.0, 10), "other": (0.5, 4)}
    after = {"loop": (1.2, 30), "other": (0.6, 14)}
    assert load.per_move(before, after, 100) == {
        "loop": {"cpu_ms_per_move": 2.0, "switches_per_move": 0.2},
        "other": {"cpu_ms_per_move": 1.0, "switches_per_move": 0.1},
    }
    line = load.threads_line(load.per_move(before, after, 100))
    assert line == [
        "threads   event loop 2.0 ms/move, 0.2 context switches a move; "
        "other threads 1.0 ms/move, 0.1 switches a move"
    ]
