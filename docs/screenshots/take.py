"""Take the README's screenshots: every game's seat page in mid-game, a phone, the lobby and a
table screen.

Run by hand from the repository root::

    .venv/bin/python docs/screenshots/take.py

It serves intrigue in this process on a temporary SQLite file (bots move at once), creates one
table per game with a human seat and bots, plays the human seat over its WebSocket with the
medium bot's choices (the bot reads only that seat's view, as any client would) until the game
is in mid-play and the human is to move, then photographs the pages with Debian's Chromium
(``/usr/bin/chromium``, driven by Playwright; never a downloaded browser). The PNGs are written
next to this script. Games are dealt at random, so each run shows different positions.
"""

from __future__ import annotations

import io
import json
import random
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright
from websockets.sync.client import ClientConnection, connect

from intrigue.bots import make_bot
from intrigue.engine import Action, Rng
from intrigue.server.config import Settings
from intrigue.server.transport.run import uvicorn_config

OUT = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
MAX_BYTES = 250_000  # keep each PNG light enough for a README
TIMEOUT = 30.0  # seconds; a guard against a hang, nothing depends on it


@dataclass(frozen=True)
class Shot:
    """One table to set up: its game, player count, and how far the human plays."""

    name: str  # the PNG's file name, without .png
    game: str
    players: int
    moves: int  # the human's moves before the picture (at least)
    ready: str  # ...and then on until a move with this verb is legal (a telling prompt)


SHOTS = [
    Shot("masquerade-murder", "masquerade-murder", 5, 6, "place"),
    Shot("masquerade-ball-2p", "masquerade-ball", 2, 8, "move"),
    Shot("masquerade-ball-4p", "masquerade-ball", 4, 6, "move"),
    Shot("project-assassination", "project-assassination", 2, 14, "shoot"),
    Shot("shadows-over-japan", "shadows-over-japan", 3, 30, "move"),
]
EXTRA_MOVES = 60  # how far past ``moves`` to look for the ``ready`` verb
PHONE_SHOT = "masquerade-murder"  # the table also photographed on a phone
SCREEN_SHOT = "shadows-over-japan"  # the table whose shared screen is photographed
# The page scrolled to the board, under the prompt that stays at the top of the window.
SCROLL_TO_BOARD = """() => window.scrollTo(0, document.getElementById('board-panel').offsetTop
  - document.getElementById('prompt-panel').offsetHeight - 8)"""


# -- the server ---------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(db_file: Path) -> Iterator[str]:
    """uvicorn serving intrigue in a thread on ``db_file``; yields its base URL."""
    # No bot pause; no stand-in bots for the human seats while their pages are closed.
    settings = Settings(database_url=f"sqlite:///{db_file}", bot_delay=0, leave_timeout=0)
    port = free_port()
    server = uvicorn.Server(uvicorn_config(settings, "127.0.0.1", port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), "the server to start")
    if not server.started:
        raise RuntimeError("the server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)


def wait_until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {what}")
        time.sleep(0.05)


# -- setting up the tables ----------------------------------------------------------------------
def create_table(base: str, shot: Shot) -> dict[str, Any]:
    """A table with the human on seat 0 and medium bots on the others."""
    body = {
        "game": shot.game,
        "players": shot.players,
        "seats": ["human"] + ["medium"] * (shot.players - 1),
    }
    response = httpx.post(f"{base}/api/tables", json=body, timeout=TIMEOUT)
    response.raise_for_status()
    return dict(response.json())


def play_forward(base: str, table: dict[str, Any], shot: Shot, seed: int) -> bool:
    """Play ``shot.moves`` moves for seat 0 over its WebSocket, then on until seat 0 may play
    a ``shot.ready`` move.

    Returns False if the game ended first (the caller then deals a new table).
    """
    chooser, rng = make_bot("medium"), Rng(seed)
    ws_url = base.replace("http://", "ws://") + f"/ws/{table['id']}"
    with connect(ws_url, open_timeout=TIMEOUT, max_size=2**22) as ws:
        ws.send(json.dumps({"type": "hello", "token": table["links"][0]["token"]}))
        made, message = 0, receive(ws)
        while not message["view"]["is_over"]:
            legal = [Action.parse(entry["action"]) for entry in message["legal_actions"]]
            if not legal:
                message = receive(ws)  # bots are moving
                continue
            if made >= shot.moves and any(a.verb == shot.ready for a in legal):
                return True
            if made >= shot.moves + EXTRA_MOVES:
                return False
            action = chooser.choose(message["view"], legal, rng)
            step = message["view"]["step"]
            ws.send(json.dumps({"type": "act", "action": str(action), "step": step}))
            answer = await_answer(ws)
            if answer["type"] == "error":
                raise RuntimeError(f"the server refused {action}: {answer['message']}")
            made, message = made + 1, answer
        return False


def await_answer(ws: ClientConnection) -> dict[str, Any]:
    """The server's answer to a move: the update that accepts it (it carries the position
    after the move; updates received before it are older) or an error."""
    while True:
        message = receive(ws, errors=True)
        if message["type"] == "error" or message.get("accepted") is not None:
            return message


def receive(ws: ClientConnection, errors: bool = False) -> dict[str, Any]:
    """The next sync or update (or error, if ``errors``); other messages are skipped."""
    while True:
        message = json.loads(ws.recv(timeout=TIMEOUT))
        if message["type"] in ("sync", "update") or (errors and message["type"] == "error"):
            return dict(message)


def set_up(base: str, shot: Shot, seed: int) -> dict[str, Any]:
    """A table of ``shot`` in mid-game with seat 0 to move (a few deals tried if games end)."""
    for attempt in range(5):
        table = create_table(base, shot)
        if play_forward(base, table, shot, seed + attempt):
            return table
    raise RuntimeError(f"{shot.game}: no game reached a {shot.ready!r} move in mid-game")


# -- taking the pictures ------------------------------------------------------------------------
def open_seat(page: Page, url: str) -> None:
    """Open a seat page and wait until it shows the position with the seat's moves."""
    page.goto(url)
    page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
    page.wait_for_timeout(300)  # fonts and late layout


def save(page: Page, name: str) -> Path:
    """A screenshot of the viewport as ``name``.png, in 256 colours if that is smaller."""
    path = OUT / f"{name}.png"
    data = page.screenshot(scale="css", animations="disabled")
    path.write_bytes(shrink(data))
    size = path.stat().st_size
    warning = "  (heavy for a README)" if size > MAX_BYTES else ""
    print(f"{path.relative_to(OUT.parents[1])}: {size // 1024} KB{warning}")
    return path


def shrink(data: bytes) -> bytes:
    """The same picture with at most 256 colours (Pillow), unless Pillow is missing.

    The pages are flat colours and text, so a palette loses nothing visible and saves most of
    the bytes.
    """
    try:
        from PIL import Image
    except ImportError:
        return data
    image = (
        Image.open(io.BytesIO(data)).convert("RGB").quantize(colors=256, dither=Image.Dither.NONE)
    )
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue() if out.tell() < len(data) else data


def photograph(
    browser: Browser, base: str, tables: dict[str, dict[str, Any]], phone_table: dict[str, Any]
) -> None:
    """Seat pages at laptop size, the lobby and one table screen, then a seat page on a phone
    (a table of its own: a seat link opens in one browser only, the first to claim it)."""
    laptop = browser.new_context(viewport=LAPTOP, bypass_csp=True)
    page = laptop.new_page()
    for name, table in tables.items():
        open_seat(page, table["links"][0]["url"])
        page.evaluate(SCROLL_TO_BOARD)
        save(page, name)
    # Opened seat links are remembered by the browser, so the lobby lists them as "your tables".
    page.goto(base + "/")
    page.wait_for_selector("#my-tables tbody tr", timeout=TIMEOUT * 1000)
    page.wait_for_timeout(300)
    save(page, "lobby")
    page.goto(f"{base}/table/{tables[SCREEN_SHOT]['id']}/screen")
    page.wait_for_function("document.body.dataset.turn !== 'connecting'", timeout=TIMEOUT * 1000)
    page.wait_for_timeout(300)
    save(page, "table-screen")
    laptop.close()

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True)
    page = phone.new_page()
    open_seat(page, phone_table["links"][0]["url"])
    save(page, "phone")
    phone.close()


def main() -> None:
    seed = random.randrange(2**31)
    with tempfile.TemporaryDirectory() as tmp, serving(Path(tmp) / "screens.sqlite3") as base:
        tables = {shot.name: set_up(base, shot, seed) for shot in SHOTS}
        phone_table = set_up(base, next(s for s in SHOTS if s.name == PHONE_SHOT), seed + 1)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
            try:
                photograph(browser, base, tables, phone_table)
            finally:
                browser.close()


if __name__ == "__main__":
    main()
