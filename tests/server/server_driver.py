"""Helpers for the server tests: real servers on 127.0.0.1 (in a thread or a subprocess), an
HTTP helper and a WebSocket player built on the ``websockets`` client library."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import intrigue
from intrigue.server.config import Settings
from intrigue.server.tables.hub import Hub
from intrigue.server.transport.run import uvicorn_config

# Generous bounds so a slow machine never fails a test; no assertion depends on timing.
TIMEOUT = 20.0
# A server process imports FastAPI, SQLAlchemy and the games before it answers: on a loaded
# machine (several test runs at once) that alone can take more than TIMEOUT.
START_TIMEOUT = 90.0
SRC = Path(__file__).resolve().parents[2] / "src"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(check: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what}")
        time.sleep(0.02)


class ThreadServer:
    """uvicorn serving `create_app(settings)` in a thread of the test process."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        config = uvicorn_config(settings, "127.0.0.1", self.port, log_level="warning")
        self.app = config.app
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)

    @property
    def hub(self) -> Hub:
        return self.app.state.hub  # type: ignore[attr-defined,no-any-return]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ThreadServer:
        self.thread.start()
        wait_until(lambda: self.server.started or not self.thread.is_alive(), "server start")
        if not self.server.started:
            raise RuntimeError("the server did not start")
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(TIMEOUT)


class ProcessServer:
    """``intrigue serve`` in a child process (so a test can kill it outright)."""

    def __init__(
        self,
        db_url: str,
        log: Path,
        args: list[str] | None = None,
        env: dict[str, str] | None = None,
        preexec: Callable[[], None] | None = None,
    ) -> None:
        self.port = free_port()
        self.preexec = preexec  # run in the child before ``intrigue serve`` (set an rlimit...)
        self.db_url = db_url
        self.log = log
        self.args = list(args or [])  # more ``intrigue serve`` options (``--redis URL``...)
        self.env = dict(env or {})  # more environment variables
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ProcessServer:
        env = {**os.environ, "INTRIGUE_BOT_DELAY": "0", "PYTHONPATH": str(SRC), **self.env}
        args = ["serve", "--port", str(self.port), "--db", self.db_url, *self.args]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "intrigue.cli.main", *args],
                stdout=out,
                stderr=out,
                env=env,
                preexec_fn=self.preexec,
            )
        wait_until(self._ready, "the server process to answer", START_TIMEOUT)
        return self

    def _ready(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"the server exited: {self.log.read_text()}")
        try:
            return httpx.get(f"{self.url}/api/games", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(TIMEOUT)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(TIMEOUT)
            except subprocess.TimeoutExpired:
                self.kill()


def create_table(
    base: str,
    game: str = "masquerade-murder",
    seats: list[str] | None = None,
    options: dict[str, Any] | None = None,
    players: int | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "options": options or {}}
    if custom_deal(game, options):  # the tests fix roles and deals: say so, as the lobby must
        body["custom_deal"] = True
    if seats is not None:
        body["seats"] = seats
    if players is not None:
        body["players"] = players
    response = httpx.post(f"{base}/api/tables", json=body, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    return response.json()


def custom_deal(game: str, options: dict[str, Any] | None) -> bool:
    """Whether ``options`` fix what chance decides (then the server needs ``custom_deal``)."""
    return bool(intrigue.load(game).fixed_chance(options or {}))


class Player:
    """One WebSocket connection: a seat (with its token) or a spectator."""

    def __init__(
        self,
        ws_base: str,
        table_id: str,
        token: str | None = None,
        patches: bool = False,
        claim: bool = False,
        lists: bool = False,
    ) -> None:
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(
            connect(
                f"{ws_base}/ws/{table_id}",
                open_timeout=TIMEOUT,
                max_size=2**22,
                legacy=False,
            )
        )
        self.send(hello(token, patches, claim, lists))
        # A client that takes patches sees every message whole (`Patched`).
        self.patched = Patched() if patches else None
        self.received: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None  # the last sync/update

    def recv(self) -> dict[str, Any]:
        message = json.loads(self.ws.recv(timeout=TIMEOUT))
        if self.patched is not None:
            message = self.patched.whole(message)
        self.received.append(message)
        if message["type"] in ("sync", "update"):
            self.latest = message
        return message

    def sync(self) -> dict[str, Any]:
        message = self.recv()
        assert message["type"] == "sync", message
        return message

    def send(self, data: dict[str, Any] | str | bytes) -> None:
        self.ws.send(data if isinstance(data, (str, bytes)) else json.dumps(data))

    def act(self, action: str, step: int | None = None) -> dict[str, Any]:
        """Send a move and return the server's answer to it: its error, or the update that
        acknowledges it (other updates that arrive first are kept in ``received``).

        ``step``: the step the move answers; by default that of the last view received (a
        caller that plays from the server's own state, not reading every update, passes it).
        """
        if step is None:
            assert self.latest is not None, "no sync yet"
            step = self.latest["view"]["step"]
        self.send({"type": "act", "action": action, "step": step})
        while True:
            message = self.recv()
            if message["type"] == "error" or message.get("accepted") is not None:
                return message

    def close(self) -> None:
        self._stack.close()


def hello(
    token: str | None, patches: bool = False, claim: bool = False, lists: bool = False
) -> dict[str, Any]:
    """The first message of a connection: its seat token (none for a spectator), whether it
    takes patches, whether it claims the seat (an invite opened as a browser does: the seat
    becomes this connection's own, tables/devices.py) and lists its devices."""
    message: dict[str, Any] = {"type": "hello"}
    if token is not None:
        message["token"] = token
    if patches:
        message["patches"] = True
    if claim:
        message["claim"] = True
    if lists:
        message["devices"] = True
    return message


class Patched:
    """A client that takes patches, as the table page is: it holds the last view and legal
    moves and gives every sync/update back whole (``view`` and ``legal_actions`` filled in
    from what it holds), the frame as sent left unchanged in ``raw``."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []

    def whole(self, frame: dict[str, Any]) -> dict[str, Any]:
        if frame.get("type") not in ("sync", "update"):
            return frame
        message = {k: v for k, v in frame.items() if k not in ("patch", "unset")}
        if "patch" in frame:
            assert self.view is not None, "a patch before any sync"
            view = {**self.view, **frame["patch"]}
            for key in frame.get("unset", []):
                del view[key]
            message["view"] = view
        message.setdefault("legal_actions", self.legal)
        self.view, self.legal = message["view"], message["legal_actions"]
        message["raw"] = frame
        return message


def record_frames(page: Any) -> list[dict[str, Any]]:
    """The game messages a browser page receives, made whole (`Patched`: the page takes
    patches, so each check sees the full view the page holds, and the frame as sent)."""
    frames: list[dict[str, Any]] = []

    def opened(ws: Any) -> None:
        patched = Patched()  # one per connection: a reconnection starts with a sync
        ws.on("framereceived", lambda payload: frames.append(patched.whole(json.loads(payload))))

    page.on("websocket", opened)
    return frames


Chooser = Callable[[dict[str, Any]], str]


def first_action(message: dict[str, Any]) -> str:
    return str(message["legal_actions"][0]["action"])


def play_until(player: Player, done: Callable[[dict[str, Any]], bool], choose: Chooser) -> None:
    """Act whenever the seat has a move, until ``done(latest message)``."""
    assert player.latest is not None
    while not done(player.latest):
        if player.latest["legal_actions"]:
            answer = player.act(choose(player.latest))
            assert answer["type"] != "error", answer
        else:
            player.recv()


def is_over(message: dict[str, Any]) -> bool:
    return bool(message["view"]["is_over"])


def expected_verdict(server: ThreadServer, table_id: str, seat: int) -> str:
    """How the table page must announce the end to ``seat``, from the server's own outcome."""
    outcome = server.hub.tables[table_id].state.outcome
    assert outcome is not None, "the game is not over"
    if not outcome.winners and outcome.returns[seat] >= 0:
        drawn = [f"seat {s}" for s, r in enumerate(outcome.returns) if r >= 0]
        if len(drawn) == len(outcome.returns):
            return "Game over: a draw."
        return f"Game over: a draw among {', '.join(drawn[:-1])} and {drawn[-1]}."
    return "You win!" if seat in outcome.winners else "You lose."


# A seat page is ready when it is this seat's turn again, or the game is over, at a new step.
READY_AGAIN = (
    "s => ['yours', 'over'].includes(document.body.dataset.turn)"
    " && document.body.dataset.step !== s"
)


def play_one_move(page: Any) -> None:
    """Any legal move on a seat page (a visible button, else the first of the moves folded
    under the board), then wait until it is this seat's turn again or the game is over."""
    step = page.evaluate("document.body.dataset.step")
    buttons = page.locator("#actions > button.action:visible")
    if buttons.count():
        buttons.first.click()
    else:
        page.locator("details.board-moves > summary").click()
        page.locator("details.board-moves button.action").first.click()
    page.wait_for_function(READY_AGAIN, arg=step, timeout=TIMEOUT * 1000)


def closed_with(player: Player) -> tuple[list[dict[str, Any]], int]:
    """What a connection the server closes was sent last, and the close code."""
    seen = []
    try:
        while True:
            seen.append(player.recv())
    except ConnectionClosed as closed:
        assert closed.rcvd is not None, "the connection ended without a close frame"
        return seen, closed.rcvd.code


# -- several players at one table ------------------------------------------------------------
def poll(player: Player, timeout: float = 0.05) -> bool:
    """Read one message if one comes within ``timeout``."""
    try:
        raw = player.ws.recv(timeout=timeout)
    except TimeoutError:
        return False
    message = json.loads(raw)
    player.received.append(message)
    if message["type"] in ("sync", "update"):
        player.latest = message
    return True


def drain(player: Player) -> None:
    while poll(player, 0.01):
        pass


def link_index(table: dict, seat: int) -> int:
    return next(i for i, link in enumerate(table["links"]) if link["seat"] == seat)


def seat_player(server: ProcessServer | ThreadServer, table: dict, seat: int) -> Player:
    player = Player(server.ws_url, table["id"], table["links"][link_index(table, seat)]["token"])
    player.sync()
    return player


def play_together(players: list[Player], until_step: int | None = None) -> list[str]:
    """Every seat plays its first legal move whenever it has one, until the game is over (or
    ``until_step`` moves are played); the moves accepted, in order. Each seat only learns of
    the others' moves through its own connection, so a seat of one process gets its turn only
    if the other process's moves reach it."""
    accepted = []
    deadline = time.monotonic() + 2 * TIMEOUT
    while True:
        for player in players:
            drain(player)
        latest = [p.latest for p in players]
        if all(m is not None and is_over(m) for m in latest):
            return accepted
        if until_step is not None and max(m["view"]["step"] for m in latest if m) >= until_step:
            return accepted
        mover = next((p for p in players if p.latest and p.latest["legal_actions"]), None)
        if mover is None:
            assert time.monotonic() < deadline, "the game stopped moving"
            poll(players[0], 0.1)
            continue
        assert mover.latest is not None
        answer = mover.act(first_action(mover.latest))
        assert answer["type"] != "error", answer
        accepted.append(answer["accepted"])
