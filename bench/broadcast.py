"""CPU per move of what a table sends its five Masquerade Murder seats, without sockets.

    .venv/bin/python bench/broadcast.py                  # with patches (as the table page)
    .venv/bin/python bench/broadcast.py --whole          # whole updates
    PYTHONPATH=/tmp/old/src .venv/bin/python bench/broadcast.py   # an older tree's code
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python bench/broadcast.py --repeat 1 --moves 1000 [--play-only]

Random games are played move after move as a live table plays them (each position a clone of
the last); after each move the five seats' updates are built as `LiveTable._broadcast` builds
them and encoded as the server sends them: straight away, as a connection that writes its
frames directly does (`transport/frames.py`; the frame itself is not written anywhere), or
with ``--queued`` (and on trees without direct writes) put in each connection's outbox,
pumped and encoded (`protocol.encode`). The thread's
CPU time for that part only is reported per move, the best of ``--repeat`` runs: on a shared
machine this moves much less than `bench/load.py`'s figures (docs/performance.md).

Seconds still move by a few percent from run to run on a busy machine; instructions do not.
Under valgrind's callgrind (50 times slower) a run with ``PYTHONHASHSEED=0`` executes the same
instructions to a millionth, whatever else the machine runs: the count of a run minus that of
the same run with ``--play-only`` (the games played, no message built) is the instructions of
the messages alone, for comparing two trees' code exactly (docs/performance.md, *Counting
instructions*). ``--without PART`` builds the updates with one part replaced by an empty
result, so that the counts say what each part costs.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import random
import time
from typing import Any

import intrigue
from intrigue.engine import State
from intrigue.server.config import Settings
from intrigue.server.tables import messages
from intrigue.server.tables.connection import Client
from intrigue.server.transport import protocol
from intrigue.server.transport.protocol import encode

SEATS = 5
# Older trees have no patches: their `game_message` takes no ``base``.
HAS_PATCHES = "base" in inspect.signature(messages.game_message).parameters
# Nor, until issue 22's second round, frames written directly.
HAS_DIRECT = "direct" in inspect.signature(Client).parameters


# The patch itself (None on trees without patches, where ``--without patch*`` means nothing).
real_view_patch = getattr(messages, "view_patch", None)


def _compared_only(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """`view_patch`'s comparisons, and an empty patch: nothing to encode or send."""
    assert real_view_patch is not None
    real_view_patch(old, new)
    return {}, []


# What ``--without`` replaces: the functions of each part of an update, by empty results.
WITHOUT: dict[str, tuple[Any, str, Any]] = {
    "patch": (messages, "view_patch", lambda old, new: ({}, [])),
    "patch-contents": (messages, "view_patch", _compared_only),  # compared, nothing sent
    "events": (State, "shared_events", lambda self, seat, since=0: []),
    "texts": (messages, "event_texts", lambda state, events, view: [None] * len(events)),
    "encoding": (protocol, "encode_bytes", lambda message: b"{}"),
    "legal": (messages, "legal_entries", lambda state, seat, view: []),
}


def build(kind: str, state: Any, client: Client, shared: dict[Any, Any]) -> dict[str, Any]:
    if HAS_PATCHES:
        return messages.game_message(
            kind, state, client.seat, client.seen, client.base, True, shared
        )
    return messages.game_message(kind, state, client.seat, client.seen)


async def run(
    moves: int, patches: bool, queued: bool, build_messages: bool = True
) -> tuple[float, float]:
    """(CPU seconds per move, bytes per message) over ``moves`` moves."""
    sizes = [0, 0]

    def count(message: dict[str, Any], size: int) -> None:
        if message["type"] == "update":
            sizes[0] += size
            sizes[1] += 1

    async def send(message: dict[str, Any]) -> None:
        count(message, len(encode(message).encode("utf-8")))

    def direct(message: dict[str, Any]) -> bool:
        count(message, len(protocol.encode_bytes(message)))
        return True

    settings = Settings(database_url="sqlite://")
    extra: tuple[Any, ...] = (patches,) if HAS_PATCHES else ()
    if HAS_DIRECT and not queued:
        extra += (direct,)
    clients = [Client(send, seat, settings, *extra) for seat in range(SEATS)]
    pumps = [asyncio.create_task(c.pump()) for c in clients]
    game, chooser = intrigue.load("masquerade-murder"), random.Random(7)
    state, spent, played, tables = None, 0.0, 0, 0
    while played < moves:
        if state is None or state.is_over:
            state, tables = game.new(SEATS, 777 + tables), tables + 1
            for client in clients:
                client.base = messages.Base() if HAS_PATCHES and patches else None
                client.seen = 0
                client.send(build("sync", state, client, {}))
                client.seen = state.log_length
            await asyncio.sleep(0)
            continue
        mover = chooser.choice(state.to_move)
        state = state.clone()
        state.apply(mover, chooser.choice(state.legal_actions(mover)))
        start = time.thread_time()
        shared: dict[Any, Any] = {}
        for client in clients if build_messages else ():
            message = build("update", state, client, shared)
            client.seen = state.log_length
            client.send(message)
        await asyncio.sleep(0)  # the pumps send (encode) what was put in the outboxes
        spent += time.thread_time() - start
        played += 1
    for client in clients:
        client.close()
    await asyncio.gather(*pumps)
    return spent / played, sizes[0] / max(1, sizes[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--whole", action="store_true", help="clients that take no patches")
    parser.add_argument("--queued", action="store_true", help="through the outbox and pump")
    parser.add_argument(
        "--play-only", action="store_true", help="play the games, build no update (a baseline)"
    )
    parser.add_argument("--without", choices=sorted(WITHOUT), help="one part left out")
    args = parser.parse_args()
    patches = HAS_PATCHES and not args.whole
    queued = args.queued or not HAS_DIRECT
    build_messages = not args.play_only
    if args.without:
        owner, name, empty = WITHOUT[args.without]
        setattr(owner, name, empty)
    runs = [
        asyncio.run(run(args.moves, patches, queued, build_messages)) for _ in range(args.repeat)
    ]
    cpu, size = min(runs)
    print(
        f"{'play only' if args.play_only else 'patches' if patches else 'whole updates'}"
        f"{f' without {args.without}' if args.without else ''}, "
        f"{'queued' if queued else 'direct'}: "
        f"{1e6 * cpu:.1f} µs of CPU per move "
        f"for {SEATS} seats (best of {args.repeat}), {size:.0f} bytes per update"
    )


if __name__ == "__main__":
    main()
