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
    actions = state.legal_actions(seat)
    try:  # all at once; one by one only if the game's hook fails on one of them
        texts = game.describe_actions(actions, view)
    except Exception:
        texts = [_safe_text(game.describe_action, a, view) for a in actions]
    return [
        {"action": action, "text": text or action}
        for action, text in zip(map(str, actions), texts, strict=True)
    ]


def event_texts(
    state: State, events: list[dict[str, Any]], view: dict[str, Any]
) -> list[str | None]:
    """A readable line per event (None where the game has none), worded for the view's seat."""
    if not events:
        return []
    try:  # all at once; one by one only if the game's hook fails on one of them
        return state.game.describe_events(events, view)
    except Exception:
        return [_safe_text(state.game.describe_event, e, view) for e in events]


class Base:
    """What a connection that takes patches was last sent: the view and the legal moves its
    client holds, against which the next update is a patch (`game_message`)."""

    __slots__ = ("legal", "view")

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] | None = None


Parts = tuple[list[dict[str, Any]], list[str | None], list[dict[str, Any]]]


def game_message(
    kind: str,
    state: State,
    seat: int | None,
    since: int,
    base: Base | None = None,
    moves: bool = True,
    shared: dict[tuple[int | None, int, bool], Parts] | None = None,
) -> dict[str, Any]:
    """A ``sync`` (since 0) or ``update`` message: view, new events and legal actions.

    ``base``: the connection takes patches (it said so in its hello). An update then carries
    ``patch``, the view's top-level keys whose values changed since ``base`` (and ``unset``,
    the keys gone), instead of ``view``, and ``legal_actions`` only if they changed; a sync
    always carries everything. ``base`` becomes what the message leaves the client holding.
    ``moves``: False for a seat a stand-in plays (it is offered none). ``shared``: one dict
    for the messages of one broadcast, so the events, their texts and the legal moves of a
    seat are built once for all its connections.
    """
    view = state.shared_view(seat)  # only encoded, never changed: no copy needed
    key = (seat, since, moves)
    parts = None if shared is None else shared.get(key)
    if parts is None:
        events = state.shared_events(seat, since=since)  # only encoded, never changed
        legal = legal_entries(state, seat, view) if moves else []
        parts = (events, event_texts(state, events, view), legal)
        if shared is not None:
            shared[key] = parts
    events, texts, legal = parts
    message: dict[str, Any] = {"type": kind, "seat": seat}
    if base is None or base.view is None or kind == "sync":
        message["view"] = view
    else:
        patch, unset = view_patch(base.view, view)
        message["patch"] = patch
        if unset:
            message["unset"] = unset
    message["events"] = events
    message["event_texts"] = texts
    if base is None or kind == "sync" or legal != base.legal:
        message["legal_actions"] = legal
    if base is not None:
        base.view, base.legal = view, legal
    return message


def view_patch(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The top-level keys of ``new`` whose values differ from ``old``'s (a value the same
    object in both, as the parts a game shares between positions are, is not compared), and
    the keys of ``old`` that ``new`` no longer has."""
    patch = {
        key: value
        for key, value in new.items()
        if key not in old or ((was := old[key]) is not value and was != value)
    }
    return patch, [key for key in old if key not in new]


def error_message(text: str) -> dict[str, Any]:
    return {"type": "error", "message": text}
