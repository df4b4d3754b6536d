"""Table talk: a public chat on every table and private whispers from one seat to another.

Only seats talk; spectators read the public lines. A whisper reaches its sender and its
recipient only (every connection of those two seats), never another seat or a spectator, until
the game is over and the table was created with ``reveal_chat``: then every whisper is shown to
everyone. Each line is stored (``messages`` table) before anyone hears it, as moves are.

A line's ``id`` is opaque (a keyed hash of its number in the database, the key drawn by each
process for each table it loads): the stored numbers count every line of every table, so their
gaps told a reader how many whispers passed between other seats. Clients order lines as they
arrive (a sync lists them in order) and by ``created``; they merge a line they already hold by
its id, which is the same for every reader of one process.

Chat is words only: nothing said binds the rules, and the engine never sees it. The server
keeps the text as typed (control characters become spaces) and sends it as JSON data; clients
must show it as text (the web client uses ``textContent``), never as HTML.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import unicodedata
from datetime import UTC
from typing import Any

from ..storage.db import MessageRecord, Store, log_store_failure
from .connection import Client, RateLimiter
from .interfaces import TableFace
from .messages import ClientError

log = logging.getLogger("intrigue.server")

CHAT_TYPES = ("say", "whisper")
MAX_CHARS = 500  # the ``messages.text`` column's size
# Per seat (all its connections together), apart from the connection's general message limit.
CHAT_BURST = 8
CHAT_RATE = 0.5  # lines per second refilled


def opaque_id(key: bytes, number: int) -> str:
    """The id clients see for the line stored as ``number``: it tells nothing of the number."""
    return hmac.new(key, str(number).encode(), hashlib.sha256).hexdigest()[:20]


def line_message(line: MessageRecord, key: bytes) -> dict[str, Any]:
    """A chat line as clients get it; ``to`` is None for the public chat."""
    created = line.created if line.created.tzinfo else line.created.replace(tzinfo=UTC)
    return {
        "id": opaque_id(key, line.id),
        "seat": line.seat,
        "to": line.to_seat,
        "text": line.text,
        "step": line.step,
        "created": created.isoformat(),
    }


def may_read(line: MessageRecord, seat: int | None, over: bool, reveal: bool) -> bool:
    """Whether ``seat`` (None: a spectator) may read ``line`` now."""
    if line.to_seat is None or (over and reveal):
        return True
    return seat is not None and seat in (line.seat, line.to_seat)


def clean_text(raw: Any) -> str:
    """The text to store: control characters become spaces, bidirectional controls are dropped,
    ends are trimmed; or `ClientError`."""
    if not isinstance(raw, str):
        raise ClientError("malformed message: 'text' must be the text to say")
    # Lone surrogates cannot be stored as UTF-8; other control characters could fake layout.
    text = "".join(_clean_char(c) for c in raw).strip()
    if not text:
        raise ClientError("say something: the message is empty")
    if len(text) > MAX_CHARS:
        raise ClientError(f"message too long ({len(text)} characters; at most {MAX_CHARS})")
    return text


# Bidirectional controls (embeddings, overrides, isolates, marks) could make a line read as
# another seat's, or reorder what follows it on the page: they are dropped.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def _clean_char(char: str) -> str:
    if char in BIDI_CONTROLS:
        return ""
    category = unicodedata.category(char)
    if category == "Cc":
        return " "
    return "\ufffd" if category == "Cs" else char


def read_chat(message: dict[str, Any], seat: int | None, players: int) -> tuple[int | None, str]:
    """The recipient (None: the whole table) and text of a ``say`` or ``whisper`` message."""
    if seat is None:
        raise ClientError("spectators cannot chat; open a seat link to talk")
    text = clean_text(message.get("text"))
    if message.get("type") == "say":
        return None, text
    to = message.get("to")
    if not isinstance(to, int) or isinstance(to, bool):
        raise ClientError("malformed message: 'to' must be the seat number to whisper to")
    if not 0 <= to < players:
        raise ClientError(f"there is no seat {to} at this table (seats 0 to {players - 1})")
    if to == seat:
        raise ClientError("you cannot whisper to yourself")
    return to, text


def chat_error(text: str) -> dict[str, Any]:
    """An error answering a chat message; ``about`` lets a client show it by the chat."""
    return {"type": "error", "message": text, "about": "chat"}


class TableChat:
    """The chat of one live table: its lines in order and who may read each."""

    def __init__(
        self, table_id: str, store: Store, players: int, lines: list[MessageRecord], reveal: bool
    ) -> None:
        self.table_id = table_id
        self.store = store
        self.players = players
        self.lines = list(lines)
        self.reveal = reveal
        self.limiters: dict[int, RateLimiter] = {}
        self.revealed = False  # the end-of-game reveal was sent to the connected clients
        self.key = secrets.token_bytes(16)  # hides the stored numbers of lines (`opaque_id`)

    def message(self, line: MessageRecord) -> dict[str, Any]:
        """``line`` as clients get it."""
        return line_message(line, self.key)

    def visible(self, seat: int | None, over: bool) -> list[dict[str, Any]]:
        """Every line ``seat`` may read now, in order."""
        return [
            self.message(line) for line in self.lines if may_read(line, seat, over, self.reveal)
        ]

    def sync(self, seat: int | None, over: bool) -> dict[str, Any]:
        """The ``chat`` field of a ``sync``: readable lines and whether whispers will be shown."""
        return {"lines": self.visible(seat, over), "reveal": self.reveal, "players": self.players}

    async def post(self, table: TableFace, client: Client, message: dict[str, Any]) -> None:
        """Store a ``say`` or ``whisper``, then deliver it to exactly the connections allowed."""
        try:
            to, text = read_chat(message, client.seat, self.players)
        except ClientError as exc:
            client.send(chat_error(str(exc)))
            return
        assert client.seat is not None  # read_chat refuses spectators
        limiter = self.limiters.setdefault(client.seat, RateLimiter(CHAT_RATE, CHAT_BURST))
        if not limiter.allow():
            client.send(chat_error("too many chat messages; wait a moment"))
            return
        # The table lock orders lines with moves: a line is stored and delivered at one step.
        async with table.lock:
            step = table.state.actions_played
            try:
                line = await asyncio.to_thread(
                    self.store.add_message,
                    self.table_id,
                    client.seat,
                    to,
                    text,
                    step,
                    table.settings.time.now(),
                )
            except Exception as exc:
                log_store_failure(exc, "table %s: could not store a chat line", self.table_id)
                client.send(chat_error("the server could not save this message; retry"))
                return
            self.lines.append(line)
            over = table.state.is_over
            payload = {"type": "chat", "lines": [self.message(line)]}
            for other in list(table.clients):
                if may_read(line, other.seat, over, self.reveal):
                    other.send(payload)
            if table.bus is not None:  # the connections of the other processes
                table.bus.said(table, line)

    def replay_lines(self) -> list[dict[str, Any]]:
        """The lines a replay of the finished game shows: the public chat, and the whispers
        if the table reveals them. A replay does not prove who asks (any seat's replay is open
        to anyone), so without ``reveal_chat`` whispers stay out of every replay."""
        return [
            self.message(line) for line in self.lines if may_read(line, None, True, self.reveal)
        ]

    def in_replay(self, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Copies of a replay's steps, each with the ``chat`` lines said at that step (after
        that many moves; lines said after the end sit on the last step)."""
        said: dict[int, list[dict[str, Any]]] = {}
        for line in self.replay_lines():
            said.setdefault(line["step"], []).append(line)
        return [{**step, "chat": said.get(step["step"], [])} for step in steps]

    def game_over(self, clients: set[Client]) -> None:
        """Once the game ends, show connected clients the whispers they have not read (if the
        table reveals them); a reconnecting client gets them in its sync."""
        if not self.reveal or self.revealed:
            return
        self.revealed = True
        for client in list(clients):
            hidden = [
                self.message(line)
                for line in self.lines
                if not may_read(line, client.seat, False, self.reveal)
            ]
            client.send({"type": "chat", "revealed": True, "lines": hidden})
