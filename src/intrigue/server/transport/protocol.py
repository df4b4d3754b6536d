"""The WebSocket wire: how client frames are read and how messages become text.

What a message says is the tables' business (`intrigue.server.tables.messages` builds them from
a seat's view); here a frame is checked and parsed into a JSON object, an ``act`` is read, and
an outgoing message is encoded as compact JSON.
"""

from __future__ import annotations

import json
import threading
from typing import Any

from intrigue.engine.game import SharedList

from ..tables.messages import ClientError

try:  # orjson encodes a view about ten times as fast as the standard library (performance.md)
    import orjson
except ImportError:  # pragma: no cover - orjson is in the server extras
    orjson = None


# Deepest nesting of arrays and objects a client message may have (the protocol needs 3); a
# deeper one is refused before it is parsed (4 KB of brackets once made the parser recurse
# until Python gave up, dropping the connection with a traceback in the log).
MAX_DEPTH = 8


def nesting(text: str | bytes) -> int:
    """How deeply the arrays and objects of a JSON text nest (brackets in strings not counted)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def too_deep(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether a JSON text nests deeper than ``limit`` (cheap for the usual flat message)."""
    opening = text.count(b"[" if isinstance(text, bytes) else "[") + text.count(
        b"{" if isinstance(text, bytes) else "{"
    )
    return opening > limit and nesting(text) > limit


def read_message(raw: str | bytes | None, limit: int) -> dict[str, Any]:
    """The JSON object a client sent; `ClientError` for oversized, too deeply nested or
    malformed input."""
    if raw is None:
        raise ClientError('empty message; send a JSON object such as {"type": "act", ...}')
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8"))
    if size > limit:
        raise ClientError(f"message too large ({size} bytes; at most {limit})")
    if too_deep(raw):
        raise ClientError(f"message nested too deeply (at most {MAX_DEPTH} levels of [ and {{)")
    try:
        # orjson: about 8x faster on a move, and it refuses NaN and lone surrogates, which are
        # not JSON and which the standard library would let through.
        message = orjson.loads(raw) if orjson is not None else json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ClientError("malformed message: not JSON") from None
    if not isinstance(message, dict):
        raise ClientError("malformed message: expected a JSON object")
    return message


def read_hello(message: dict[str, Any]) -> str | None:
    """The seat token of a ``hello`` (the first message of every connection), or None."""
    if message.get("type") != "hello":
        raise ClientError('the first message must be {"type": "hello", "token": ...}')
    token = message.get("token")
    if token is None or isinstance(token, str):
        return token  # an empty or overlong token is simply not valid for any seat
    raise ClientError("malformed hello: 'token' must be the seat link's token")


def wants_patches(hello: dict[str, Any]) -> bool:
    """Whether a ``hello`` asks for patches (``"patches": true``): updates then carry what
    changed in the view, and the legal moves only when they changed (`tables.messages`)."""
    return hello.get("patches") is True


def read_act(message: dict[str, Any], own_seat: int | None) -> tuple[str, int]:
    """The action text of an ``act`` message and the step it answers (the step of the view it
    was chosen on), checking it is meant for the sender's seat."""
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
    step = message.get("step")
    if not isinstance(step, int) or isinstance(step, bool):
        raise ClientError(
            "malformed message: 'step' must be the step the move answers (the view's step)"
        )
    return action.strip(), step


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text (int keys become strings, as `json.dumps` does); a
    seat's game message is padded with trailing blanks to a length bucket (`padded`)."""
    return encode_bytes(message).decode("utf-8")


def encode_bytes(message: dict[str, Any]) -> bytes:
    """`encode`'s text as UTF-8, as a frame carries it."""
    data = None
    if orjson is not None:
        pasted = _paste_kept(message)
        # Non-string keys are rare; the option that allows them halves orjson's speed.
        for option in (0, orjson.OPT_NON_STR_KEYS):
            try:
                data = orjson.dumps(pasted, option=option)
                break
            except TypeError:  # a non-string key; or what only the standard library takes
                continue
    if data is None:
        data = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    step = pad_step(message)
    if step:
        data = padded(data, step)
    return data


# Length buckets (bytes) of a seat's messages, so that a passive observer of the connection
# cannot read its secrets from the length of what it receives (a seat's first sync once
# measured 1444/1456/1459/1462 bytes by role). A sync is rare: its bucket is large.
PAD_UPDATE, PAD_SYNC = 512, 4096


def pad_step(message: dict[str, Any]) -> int:
    """The bucket of a message to a seat (a view and events that may be private); 0 for the
    rest (spectators see public things only; errors, chat and table notes are not padded)."""
    if message.get("seat") is None:
        return 0
    kind = message.get("type")
    return PAD_SYNC if kind == "sync" else PAD_UPDATE if kind == "update" else 0


def padded(data: bytes, step: int) -> bytes:
    """``data`` with blanks after the JSON (which every parser skips) up to the next multiple
    of the bucket: ``step`` bytes, or 1/16 of the length for a large message."""
    size = len(data)
    step = max(step, 1 << max(0, size.bit_length() - 4))
    return data + b" " * (-size % step)


KEPT_TEXTS = 256  # encoded `SharedList`s remembered (per thread)
_kept = threading.local()


def _paste_kept(message: dict[str, Any]) -> dict[str, Any]:
    """The message with each `SharedList` of its view replaced by its encoded text, encoded the
    first time that very list is met (finished nights: once per night instead of once per
    connection and move)."""
    part = "view" if "view" in message else "patch"  # a patch holds the view's changed keys
    view = message.get(part)
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
    return message if pasted is None else {**message, part: pasted}


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
