"""One ``intrigue serve --workers`` process: uvicorn serving the connections handed to it.

Started by the dispatcher (`intrigue.server.transport.dispatch`) as
``python -m intrigue.server.transport.worker FD LOG_LEVEL``, with FD its end of a Unix socket
and its settings in the environment the parent set (`run.serve_workers`). It listens on no
port: the dispatcher accepts, and each connection arrives on FD as a file descriptor
(``SCM_RIGHTS``) whose request is still unread. When the dispatcher goes away (its end of FD
closes), the worker finishes as on SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from typing import Any

import uvicorn

from .dispatch import READY


class HandedServer(uvicorn.Server):
    """A uvicorn server that listens on nothing and serves the sockets handed over
    ``channel``, each as if its own listening socket had accepted it."""

    def __init__(self, config: uvicorn.Config, channel: socket.socket) -> None:
        super().__init__(config)
        self.channel = channel
        self.adopting: set[asyncio.Task[Any]] = set()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=[])  # no listening socket of its own
        if not self.started:
            return
        self.channel.setblocking(False)
        asyncio.get_running_loop().add_reader(self.channel.fileno(), self._receive)
        self.channel.send(READY)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        with contextlib.suppress(ValueError, OSError):  # already closed by `_receive`
            asyncio.get_running_loop().remove_reader(self.channel.fileno())
        await super().shutdown(sockets=sockets)

    def _receive(self) -> None:
        """Adopt every connection waiting on the channel; stop when the dispatcher is gone."""
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self.channel, 16, 4)
            except BlockingIOError:
                return
            except OSError:
                data, fds = b"", []
            if not data and not fds:  # the dispatcher closed its end: it stopped or died
                asyncio.get_running_loop().remove_reader(self.channel.fileno())
                self.should_exit = True
                return
            for fd in fds:
                self._adopt(socket.socket(fileno=fd))

    def _adopt(self, connection: socket.socket) -> None:
        connection.setblocking(False)
        loop = asyncio.get_running_loop()
        config = self.config
        protocol = config.http_protocol_class(  # type: ignore[call-arg]
            config=config, server_state=self.server_state, app_state=self.lifespan.state
        )
        task = loop.create_task(_connect(loop, protocol, connection))
        self.adopting.add(task)  # a reference, so the task is not collected while it runs
        task.add_done_callback(self.adopting.discard)


async def _connect(
    loop: asyncio.AbstractEventLoop, protocol: asyncio.Protocol, connection: socket.socket
) -> None:
    try:
        await loop.connect_accepted_socket(lambda: protocol, connection)
    except OSError:  # the client left between the hand-over and now: nothing to serve
        connection.close()


def main(argv: list[str]) -> int:
    """Serve the connections the dispatcher hands over ``argv[0]`` (a file descriptor); then
    the log level, and which worker this is of how many."""
    from .run import worker_config  # the app is built here, in the worker only

    channel = socket.socket(fileno=int(argv[0]))
    log_level = argv[1] if len(argv) > 1 else "info"
    index, workers = (int(argv[2]), int(argv[3])) if len(argv) > 3 else (0, 1)
    server = HandedServer(worker_config(log_level, index, workers), channel)
    server.run()
    return 0 if server.started else 1


if __name__ == "__main__":  # pragma: no cover - run as a child process by the dispatcher
    sys.exit(main(sys.argv[1:]))
