"""CPU a client's move frame takes to reach the application, uvicorn's way against ours.

    .venv/bin/python bench/frames_in.py                 # both protocols, best of 5 runs
    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python bench/frames_in.py --protocol direct --frames 20000 --repeat 1

One WebSocket connection is opened on each protocol (the server's handshake, over a transport
that keeps what is written and counts the pauses of reading), then ``--frames`` masked text
frames of a move, as the table page sends them, are fed to it one per ``data_received`` and
each message taken from its queue as the application's ``receive`` takes it (resuming reading
where the protocol paused it). uvicorn's ``websockets-sansio`` protocol parses each frame with
the ``websockets`` library and pauses reading once a message; `DirectReadProtocol`
(`server/transport/reader.py`) reads it itself. The thread's CPU time a frame is reported, and
how often reading was paused (each pause and resume is a change to the event loop's polling,
made in a system call that this benchmark does not make).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from typing import Any

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from intrigue.server.transport.reader import DirectReadProtocol

PROTOCOLS = {"uvicorn": WebSocketsSansIOProtocol, "direct": DirectReadProtocol}
MOVE = {"type": "act", "action": "target 2", "step": 17}


class Transport(asyncio.Transport):
    """A socket that keeps what is written (the handshake's answer) and counts how often
    reading was paused."""

    def __init__(self) -> None:
        super().__init__()
        self.pauses = 0
        self.written = bytearray()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: Any) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        self.pauses += 1

    def resume_reading(self) -> None:
        pass

    def close(self) -> None:
        pass


async def _accepting_app(scope: Any, receive: Any, send: Any) -> None:
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass  # (the bench takes the frames' messages itself, before this task runs)


async def _opened(kind: str) -> tuple[WebSocketsSansIOProtocol, Transport, ClientProtocol]:
    config = uvicorn.Config(_accepting_app, ws=PROTOCOLS[kind], log_level="error")
    config.load()
    protocol = PROTOCOLS[kind](config=config, server_state=ServerState(), app_state={})
    transport = Transport()
    protocol.connection_made(transport)
    client = ClientProtocol(parse_uri("ws://127.0.0.1:8000/ws/t"))
    client.send_request(client.connect())
    protocol.data_received(b"".join(client.data_to_send()))
    for _ in range(10):  # let the application take the connection and accept it
        await asyncio.sleep(0)
    assert protocol.handshake_complete and protocol.queue.empty()
    client.receive_data(bytes(transport.written))  # the server's answer: the client is open
    transport.written.clear()
    return protocol, transport, client


def _frame(client: ClientProtocol) -> bytes:
    client.send_text(json.dumps(MOVE).encode())
    return b"".join(client.data_to_send())


async def _run(kind: str, frames: int) -> tuple[float, int]:
    """CPU seconds a frame, and the pauses of reading, over ``frames`` frames."""
    protocol, transport, client = await _opened(kind)
    data = [_frame(client) for _ in range(frames)]  # each masked with its own key
    queue = protocol.queue
    start = time.thread_time()
    for raw in data:
        protocol.data_received(raw)
        message = queue.get_nowait()
        if protocol.read_paused and queue.empty():  # as `receive` resumes reading
            protocol.read_paused = False
            protocol.transport.resume_reading()
        assert message["type"] == "websocket.receive"
    spent = time.thread_time() - start
    protocol.connection_lost(None)
    for _ in range(10):  # let the application see the disconnect and end
        await asyncio.sleep(0)
    return spent / frames, transport.pauses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", choices=[*PROTOCOLS, "both"], default="both")
    parser.add_argument("--frames", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    kinds = list(PROTOCOLS) if args.protocol == "both" else [args.protocol]
    for kind in kinds:
        runs = [asyncio.run(_run(kind, args.frames)) for _ in range(args.repeat)]
        best = min(seconds for seconds, _ in runs)
        pauses = runs[0][1]
        print(
            f"{kind:8s} {best * 1e6:6.2f} µs a frame, reading paused {pauses / args.frames:.2f} "
            "times a frame"
        )


if __name__ == "__main__":
    main()
