"""Where a loaded server's CPU goes, part by part, from Linux ``perf``'s call stacks.

    .venv/bin/python bench/load.py --perf 8        # a load run, its server profiled for 8 s
    perf record -F 250 --call-graph dwarf,16384 -p PID -o perf.data -- sleep 8
    perf script -i perf.data -F tid,ip,sym > stacks.txt
    .venv/bin/python bench/server_profile.py stacks.txt [--cpu-ms-per-move 0.38]

``perf`` reads the stacks of C code: the interpreter's, the compiled modules' (their functions
are named after the Python ones, ``__pyx_pw_8intrigue_..._LiveTable_19_update``), uvloop's and
the kernel's, so a server running the compiled modules (`intrigue.compiled`) is split by what
its functions do; a server running the sources shows mostly the interpreter's loop. Each
sample goes to the first part of `PARTS` that its stack holds, so the parts never overlap:
the socket writes inside a message's sending count as writes, not as the message. The loop's
thread is the process's busiest; samples of the others are the database writer's.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

WRITER = "the database writer's thread"
OTHER = "the rest (the loop, tasks, frames of the move's coroutine)"
# (part, pattern of a frame in its stacks), most specific first.
PARTS: tuple[tuple[str, str], ...] = (
    ("garbage collector", r"gc_collect_main"),
    ("socket writes (the kernel's sending, and delivering on the loopback)", r"UVStream_.?write"),
    ("encoding a message (orjson, the padding)", r"protocol_\d+encode_bytes"),
    ("the seat's view (`shared_view`)", r"State_\d+shared_view"),
    ("the new events and their texts", r"State_\d+shared_events|messages_\d+event_texts"),
    ("the legal moves and their texts", r"messages_\d+legal_entries"),
    ("the view patch", r"messages_\d+view_patch"),
    ("the rest of building a message", r"messages_\d+game_message"),
    ("the move: checked, applied to a clone", r"LiveTable_\d+_plan"),
    ("the clock, hints, who must hear at once", r"TableClock|TableHints|urgent_seats|_defer"),
    ("reading a frame", r"uv__read|stream_on_read"),
    ("the rest of a broadcast", r"LiveTable_\d+_broadcast|LiveTable_\d+_flush"),
)


def stacks(text: str) -> Iterator[tuple[str, list[str]]]:
    """Each sample of ``perf script -F tid,ip,sym``: its thread and its frames, leaf first."""
    tid, frames = "", []
    for line in text.splitlines():
        if not line.strip():
            continue
        if not line.startswith("\t"):  # a sample's first line (its thread); frames are indented
            if frames or tid:
                yield tid, frames
            tid, frames = line.split()[0], []
        else:
            fields = line.split(None, 1)
            frames.append(fields[1] if len(fields) > 1 else "?")
    if frames or tid:
        yield tid, frames


def split(text: str) -> dict[str, float]:
    """Each part's share of the samples (0-1), in the order of `PARTS`, then the writer's
    thread and the rest."""
    samples = list(stacks(text))
    if not samples:
        return {}
    loop = Counter(tid for tid, _ in samples).most_common(1)[0][0]
    compiled = [(name, re.compile(pattern)) for name, pattern in PARTS]
    counts: Counter[str] = Counter()
    for tid, frames in samples:
        counts[WRITER if tid != loop else part_of(frames, compiled)] += 1
    names = [name for name, _ in PARTS] + [WRITER, OTHER]
    return {name: counts[name] / len(samples) for name in names}


def part_of(frames: list[str], parts: list[tuple[str, re.Pattern[str]]]) -> str:
    """The first part whose pattern one of ``frames`` matches."""
    for name, pattern in parts:
        if any(pattern.search(frame) for frame in frames):
            return name
    return OTHER


def record(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes]:
    """Start ``perf record`` of process ``pid`` for ``seconds`` (call stacks unwound from
    copies of the stack: the interpreter keeps no frame pointers)."""
    command = ["perf", "record", "-F", "250", "--call-graph", "dwarf,16384", "-p", str(pid)]
    command += ["-o", str(out), "--", "sleep", str(seconds)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def script(data: Path) -> str:
    """The samples of a ``perf record`` file as text (`stacks` reads it)."""
    command = ["perf", "script", "-i", str(data), "-F", "tid,ip,sym"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def table(shares: dict[str, float], cpu_ms_per_move: float | None = None) -> str:
    """The split as a Markdown table, with microseconds a move when the CPU a move is known."""
    head = "| part | share |" + (" µs a move |" if cpu_ms_per_move else "")
    lines = [head, "|---|---:|" + ("---:|" if cpu_ms_per_move else "")]
    for name, share in shares.items():
        row = f"| {name} | {100 * share:.1f}% |"
        if cpu_ms_per_move:
            row += f" {1000 * cpu_ms_per_move * share:.0f} |"
        lines.append(row)
    return "\n".join(lines)


def mean(splits: list[dict[str, float]]) -> dict[str, float]:
    """The mean share of each part over several runs' splits (a part a run lacks counts 0)."""
    names = list(dict.fromkeys(name for shares in splits for name in shares))
    return {name: sum(s.get(name, 0.0) for s in splits) / len(splits) for name in names}


def side_by_side(columns: dict[str, tuple[dict[str, float], float | None]]) -> str:
    """Several codes' splits as one Markdown table: a column a code (its label), each cell the
    share and, when the code's CPU a move is known, the microseconds a move."""
    labels = list(columns)
    names = list(dict.fromkeys(name for shares, _ in columns.values() for name in shares))
    lines = ["| part | " + " | ".join(labels) + " |", "|---|" + "---:|" * len(labels)]
    for name in names:
        cells = []
        for shares, cpu_ms_per_move in columns.values():
            share = shares.get(name, 0.0)
            cell = f"{100 * share:.1f}%"
            if cpu_ms_per_move:
                cell += f" ({1000 * cpu_ms_per_move * share:.0f} µs)"
            cells.append(cell)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("stacks", type=Path, help="the output of perf script -F tid,ip,sym")
    parser.add_argument("--cpu-ms-per-move", type=float, help="the run's server CPU a move")
    args = parser.parse_args()
    shares = split(args.stacks.read_text())
    if not shares:
        print("no samples", file=sys.stderr)
        return 1
    print(table(shares, args.cpu_ms_per_move))
    return 0


if __name__ == "__main__":
    sys.exit(main())
