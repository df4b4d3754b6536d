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


def test_a_server_against_another_tree_runs_that_trees_package(tmp_path: Path) -> None:
    """`--against SRC`: the server's environment puts SRC's ``intrigue`` before this
    checkout's, so the pairs compare two versions of the code."""
    (tmp_path / "intrigue").mkdir()
    (tmp_path / "intrigue" / "__init__.py").write_text("")
    show = [sys.executable, "-c", "import intrigue; print(intrigue.__file__)"]
    there = subprocess.run(show, env=load.source_env(str(tmp_path)), capture_output=True)
    assert Path(there.stdout.decode().strip()) == tmp_path / "intrigue" / "__init__.py"
    here = subprocess.run(show, env=load.source_env(None), capture_output=True)
    assert not here.stdout.decode().startswith(str(tmp_path))


def run_result(moves_per_second: float, p99: float, cpu: float, loop: float | None) -> dict:
    threads = None if loop is None else {"loop": {"cpu_ms_per_move": loop}}
    return {
        "moves_per_second": moves_per_second,
        "latency_ms": {"p99": p99},
        "server_cpu_ms_per_move": cpu,
        "server_threads": threads,
    }


def test_the_medians_of_a_series_of_runs() -> None:
    runs = [run_result(3000, 40.0, 0.31, 0.28), run_result(3500, 35.0, 0.25, 0.22)]
    runs.append(run_result(3200, 50.0, 0.30, 0.26))
    assert load.medians(runs) == {
        "moves/s": 3200,
        "p99 ms": 40.0,
        "server CPU ms/move": 0.30,
        "event loop ms/move": 0.26,
    }
    # A run on a server whose threads were not read has no event loop figure: no median.
    assert load.medians([*runs, run_result(3100, 41.0, 0.3, None)])["event loop ms/move"] is None
    assert load.run_line("this 1", runs[0]) == (
        "this 1     moves/s 3000  p99 ms 40.0  server CPU ms/move 0.31  event loop ms/move 0.28"
    )


# Four samples of `perf script -F tid,ip,sym` (leaf first): the loop's thread is the busiest.
PERF_SCRIPT = """\
 100
\t     a1 tcp_sendmsg
\t     b2 __pyx_pw_6uvloop_4loop_8UVStream_5write
\t     c3 __pyx_pw_8intrigue_6server_9transport_8protocol_15encode_bytes
\t     d4 __pyx_pw_8intrigue_6server_6tables_8messages_9game_message
 100
\t     a1 _PyDict_Next
\t     b2 __pyx_pw_8intrigue_6server_6tables_8messages_11view_patch
\t     d4 __pyx_pw_8intrigue_6server_6tables_8messages_9game_message
 100
\t     e5 uv__run_idle
 101
\t     f6 sqlite3VdbeExec
"""


def test_a_server_profile_counts_each_sample_once_in_its_most_specific_part() -> None:
    """A sample whose stack holds a socket write, an encoding and a message is a write; one
    with a patch inside a message is the patch; the other thread's are the writer's; one in
    none of the parts is the rest."""
    import server_profile

    shares = server_profile.split(PERF_SCRIPT)
    named = {name: share for name, share in shares.items() if share}
    assert named == {
        "socket writes (the kernel's sending, and delivering on the loopback)": 0.25,
        "the view patch": 0.25,
        server_profile.OTHER: 0.25,
        server_profile.WRITER: 0.25,
    }
    assert sum(shares.values()) == 1.0
    assert "| the view patch | 25.0% | 100 |" in server_profile.table(shares, 0.4)


def test_a_series_with_profiles_reports_each_codes_mean_split_side_by_side() -> None:
    """With ``--perf`` a series ends with each code's mean share of every part over its runs,
    in microseconds a move at that code's median CPU a move."""
    this = [run_result(3000, 40.0, 0.4, 0.3), run_result(3000, 40.0, 0.4, 0.3)]
    this[0]["profile"] = {"the view patch": 0.2, "garbage collector": 0.8}
    this[1]["profile"] = {"the view patch": 0.4, "garbage collector": 0.6}
    against = [run_result(2000, 50.0, 0.5, 0.4)]  # a run perf could not record
    against[0]["profile"] = {}
    report = load.series_report({"this": this, "against": against})
    assert "| part | this |" in report  # no column for a code without a profile
    assert "| the view patch | 30.0% (120 µs) |" in report
    assert "| garbage collector | 70.0% (280 µs) |" in report
    assert "where the server's CPU went" not in load.series_report({"against": against})
