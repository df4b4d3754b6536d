"""The WebSocket protocol: what the server sends and how client messages are read.

Everything about the game in a message comes from ``state.view(seat)`` and
``state.events(seat)`` (plus texts the game derives from them, and public table metadata), so
a client never receives anything its seat may not know. Error messages are built from public
facts only.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

from intrigue.engine import Action, State
from intrigue.engine.game import SharedList

try:  # orjson encodes a view about ten times as fast as the standard library (performance.md)
    import orjson
except ImportError:  # pragma: no cover - orjson is in the server extras
    orjson = None


class ClientError(Exception):
    """A client message the server refuses; the text is sent back as ``{"type": "error"}``."""


def read_message(raw: str | bytes | None, limit: int) -> dict[str, Any]:
    """The JSON object a client sent; `ClientError` for oversized or malformed input."""
    if raw is None:
        raise ClientError('empty message; send a JSON object such as {"type": "act", ...}')
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))
    if size > limit:
        raise ClientError(f"message too large ({size} bytes; at most {limit})")
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ClientError("malformed message: not JSON") from None
    if not isinstance(message, dict):
        raise ClientError("malformed message: expected a JSON object")
    return message


def read_act(message: dict[str, Any], own_seat: int | None) -> str:
    """The action text of an ``act`` message, checking it is meant for the sender's seat."""
    kind = message.get("type")
    if kind != "act":
        raise ClientError(
            f"unknown message type {str(kind)[:40]!r}; "
            "the client may send 'act', 'say', 'whisper', 'rematch'"
        )
    action = message.get("action")
    if not isinstance(action, str) or not action.strip():
        raise ClientError("malformed message: 'action' must be the text of a move")
    if "seat" in message and message["seat"] != own_seat:
        if own_seat is None:
            raise ClientError("spectators cannot play; open a seat link to play")
        raise ClientError(f"this link plays seat {own_seat}; it cannot act for another seat")
    return action.strip()


def _safe_text(describe: Any, *args: Any) -> str | None:
    """A game's presentation text; a failing presentation hook must not break the protocol."""
    try:
        return describe(*args)
    except Exception:
        return None


def action_text(state: State, action: Action, view: dict[str, Any]) -> str:
    """The game's sentence for ``action`` as the view's seat reads it (else its text)."""
    return _safe_text(state.game.describe_action, action, view) or str(action)


def legal_entries(state: State, seat: int | None, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's legal actions as ``{"action": text, "text": description}``."""
    if seat is None:
        return []
    game = state.game
    return [
        {"action": str(a), "text": _safe_text(game.describe_action, a, view) or str(a)}
        for a in state.legal_actions(seat)
    ]


def event_texts(
    state: State, events: list[dict[str, Any]], view: dict[str, Any]
) -> list[str | None]:
    """A readable line per event (None where the game has none), worded for the view's seat."""
    return [_safe_text(state.game.describe_event, e, view) for e in events]


def game_message(kind: str, state: State, seat: int | None, since: int) -> dict[str, Any]:
    """A ``sync`` (since 0) or ``update`` message: view, new events and legal actions."""
    view = state.shared_view(seat)  # only encoded, never changed: no copy needed
    events = state.events(seat, since=since)
    texts = event_texts(state, events, view)
    return {
        "type": kind,
        "seat": seat,
        "view": view,
        "events": events,
        "event_texts": texts,
        "legal_actions": legal_entries(state, seat, view),
    }


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text (int keys become strings, as `json.dumps` does)."""
    if orjson is not None:
        pasted = _paste_kept(message)
        # Non-string keys are rare; the option that allows them halves orjson's speed.
        for option in (0, orjson.OPT_NON_STR_KEYS):
            try:
                return orjson.dumps(pasted, option=option).decode("utf-8")
            except TypeError:  # a non-string key; or what only the standard library takes
                continue
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


KEPT_TEXTS = 256  # encoded `SharedList`s remembered (per thread)
_kept = threading.local()


def _paste_kept(message: dict[str, Any]) -> dict[str, Any]:
    """The message with each `SharedList` of its view replaced by its encoded text, encoded the
    first time that very list is met (finished nights: once per night instead of once per
    connection and move)."""
    view = message.get("view")
    if not isinstance(view, dict):
        return message
    pasted = None
    for key, value in view.items():
        if type(value) is SharedList:
            text = _kept_text(value)
            if text is not None:
                if pasted is None:
                    pasted = dict(view)
                pasted[key] = text
    return message if pasted is None else {**message, "view": pasted}


def _kept_text(value: SharedList) -> Any:
    texts: dict[int, tuple[SharedList, Any]] | None = getattr(_kept, "texts", None)
    if texts is None:
        texts = _kept.texts = {}
    found = texts.get(id(value))
    # The entry holds the list itself, so its id cannot be reused by another object meanwhile.
    if found is None or found[0] is not value:
        try:
            found = (value, orjson.Fragment(orjson.dumps(value)))
        except TypeError:
            return None
        texts[id(value)] = found
        if len(texts) > KEPT_TEXTS:
            del texts[next(iter(texts))]  # the oldest
    return found[1]


def error_message(text: str) -> dict[str, Any]:
    return {"type": "error", "message": text}


class RateLimiter:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
