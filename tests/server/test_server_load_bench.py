"""bench/load.py's reading of the server's threads (Linux /proc): CPU and context switches of
the event loop's thread and of the others, per move."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# At the end of the path: the benchmarks' names must not shadow an installed module.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

import load

# A process of its own (the test runner's other threads come and go): a helper thread busy for
# 0.2 s of CPU, the main thread sleeping five times, then both wait to be read.
CHILD = """
import threading, time
done = threading.Event()
def busy():
    end = time.thread_time() + 0.2
    while time.thread_time() < end:
        pass
    done.set()
    time.sleep(60)
threading.Thread(target=busy, daemon=True).start()
done.wait()
for _ in range(5):
    time.sleep(0.01)
print("ready", flush=True)
time.sleep(60)
"""


def test_the_main_thread_and_the_others_are_read_apart() -> None:
    """Sleeps of the main thread are its context switches; a busy helper thread's CPU counts
    as the other threads'."""
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        figures = load.thread_figures(child.pid)
    finally:
        child.kill()
        child.wait()
    assert figures["loop"][1] >= 5  # at least its five sleeps
    assert figures["other"][0] >= 0.15  # 0.2 s of the helper's CPU, in clock ticks
    assert figures["loop"][0] < figures["other"][0]  # the main thread only waited


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
