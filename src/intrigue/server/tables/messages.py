"""The messages a live table sends: game updates built from a seat's view, and errors.

Everything about the game in a message comes from ``state.view(seat)`` and
``state.events(seat)`` (plus texts the game derives from them, and public table metadata), so
a client never receives anything its seat may not know. Error messages are built from public
facts only. (How messages travel as bytes, and how client frames are read, is the
transport's business: `intrigue.server.transport.protocol`.)
"""

from __future__ import annotations

from typing import Any

from intrigue.engine import Action, State


class ClientError(Exception):
    """A client message the server refuses; the text is sent back as ``{"type": "error"}``."""


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


def error_message(text: str) -> dict[str, Any]:
    return {"type": "error", "message": text}
