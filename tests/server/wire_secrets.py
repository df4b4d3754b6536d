"""The leak check over the wire: what a connection was sent against what its seat may know.

A `Watcher` follows one WebSocket connection (a seat, or None for a spectator) while the test
keeps its own copy of the game (the *mirror*: the same game, seed and options, moved on with
every accepted move). Every game message the connection gets must be exactly what its seat's
`State.view` / `State.events` / `State.legal_actions` give at that moment, and must not hold
any secret of the true state that the seat may not know:

* the seed and the generator's state (they decide every future draw: deck orders, deals);
* the payload or the text of any private log entry another seat got and this one did not
  (targets, roles dealt, cards seen, hands drawn, ninja styles...);
* per game, secrets read from the state's own fields with the game's rules of who knows what
  (`SECRET_CHECKS`): Masquerade Murder roles, Masquerade Ball face-down ranks, Shadows over
  Japan Nobles, hands and concealed ninja styles. (Project Assassination's decks are shuffled
  lazily, a draw at a time, from the generator: its deck order *is* the generator's state.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from intrigue.engine import State
from intrigue.games.shadows_over_japan.data import CARD_IDS, KEYS, STYLES

Message = dict[str, Any]
GAME_KEYS = {"type", "seat", "view", "events", "event_texts", "legal_actions"}
# Besides the game: table metadata, server notes, chat, acknowledgements (the move and its step)
# and (in a sync) the public list of what a custom deal fixed.
EXTRA_KEYS = {"table", "notes", "chat", "accepted", "accepted_step", "custom_deal"}
# An update to a client that takes patches: what changed in the view, and the legal moves only
# if they changed (`server_driver.Patched` makes it whole, keeping the frame in ``raw``).
PATCH_KEYS = {"type", "seat", "patch", "events", "event_texts"}
PATCH_OPTIONAL = {"unset", "legal_actions"}


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def walk(tree: Any) -> Iterator[Any]:
    """Every value in a JSON tree, containers included."""
    stack = [tree]
    while stack:
        value = stack.pop()
        yield value
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)


def dicts(tree: Any) -> Iterator[dict[str, Any]]:
    return (v for v in walk(tree) if isinstance(v, dict))


def strings(tree: Any) -> Iterator[str]:
    return (v for v in walk(tree) if isinstance(v, str))


def views(message: Message, state: State) -> Iterator[dict[str, Any]]:
    """Every view of this game anywhere in the message (the message's own, or a stray one)."""
    return (d for d in dicts(message) if d.get("game") == state.game.id and "step" in d)


# -- per game: secrets read from the state's fields ---------------------------------------------
Check = Callable[[State, int | None, Message], list[str]]


def murder_roles(state: Any, seat: int | None, message: Message) -> list[str]:
    """Masquerade Murder: until the end, a seat knows its own role only, a spectator none."""
    if state.phase == "over":
        return []
    problems = []
    own = None if seat is None else state.role_of(seat)
    others = {state.role_of(j) for j in range(state.players) if j != seat} - {own}
    # No text names another role at all during play, not even in a sentence (as a word:
    # "project-assassination" is a game, not the assassin).
    text = json.dumps(message).lower()
    problems += [
        f"another seat's role {role!r} was sent"
        for role in others
        if re.search(rf"\b{role}\b", text)
    ]
    for d in dicts(message):
        if d.get("role") is not None and d.get("role") != own:
            problems.append(f"a role field holds {d['role']!r}")
    return problems


def ball_ranks(state: Any, seat: int | None, message: Message) -> list[str]:
    """Masquerade Ball: a rank is shown only for a face-up card or one the seat has seen,
    until the ball ends and every mask comes off (MB-53)."""
    if state.phase == "over":
        return []
    problems = []
    for view in views(message, state):
        problems += _ball_view_ranks(state, seat, view)
    return problems


def _ball_view_ranks(state: Any, seat: int | None, view: dict[str, Any]) -> list[str]:
    problems = []
    names = state.geo.names

    def may_know(cid: int) -> bool:
        return state.up[cid] or (seat is not None and bool(state.known[seat] >> cid & 1))

    for square, card in view["board"].items():
        cid = state.board[names.index(square)]
        if card["rank"] is not None and not may_know(cid):
            problems.append(f"the face-down rank on {square} was sent")
    for i, card in enumerate(view["ballroom"] or []):
        if card["rank"] is not None and not may_know(state.ball[i]):
            problems.append(f"the face-down rank of ballroom card {i} was sent")
    for side in view["sides"]:
        e = side["side"]
        for pile in ("hand", "prison", "grave"):
            shown = side["graveyard" if pile == "grave" else pile]
            cards = getattr(state, pile)[e]
            if "cards" in shown:  # the seat controls this entourage: it holds these cards
                if seat is None or state.ctrl[e] != seat:
                    problems.append(f"side {e}'s {pile} was shown in full")
            elif len(shown["known"]) > sum(1 for c in cards if may_know(c)):
                problems.append(f"side {e}'s {pile} shows more ranks than the seat saw")
    return problems


def japan_secrets(state: Any, seat: int | None, message: Message) -> list[str]:
    """Shadows over Japan: Nobles (until the end), hands and concealed ninja styles."""
    if state.phase == "over":
        return []
    problems = []
    for d in dicts(message):
        j = d.get("seat")
        if isinstance(j, int) and j != seat and d.get("noble") is not None:
            problems.append(f"seat {j}'s Noble was sent")
    hidden_cards = {CARD_IDS[c] for j in range(state.players) if j != seat for c in state.hand[j]}
    for view in views(message, state):
        for d in dicts(view):
            if "mission" in d and d.get("card") in hidden_cards:
                problems.append(f"card {d['card']} of another seat's hand was sent")
        problems += _japan_ninjas(state, seat, view)
    return problems


def _japan_ninjas(state: Any, seat: int | None, view: dict[str, Any]) -> list[str]:
    problems = []
    for province in view["provinces"]:
        p = KEYS.index(province["key"])
        ninja = province["ninja"]
        if ninja is None or ninja["style"] is None:
            continue
        if not state.nrev[p] and state.nin[p] != seat:
            problems.append(f"the concealed ninja style on {province['key']} was sent")
        elif ninja["style"] != STYLES[state.nsty[p]]:
            problems.append(f"a wrong ninja style on {province['key']}")
    return problems


SECRET_CHECKS: dict[str, Check] = {
    "masquerade-murder": murder_roles,
    "masquerade-ball": ball_ranks,
    "shadows-over-japan": japan_secrets,
}


def rng_needles(state: State) -> list[str]:
    """The seed and the generator's state, as a leak would most likely print them."""
    needles = []
    for number in (state.seed, state.rng.state):
        needles += [str(number), format(number, "x"), format(number, "X")]
    # The server draws 63-bit seeds; a short number would turn up by chance (tests' seeds).
    return [needle for needle in needles if len(needle) >= 8]


# -- private log entries -------------------------------------------------------------------------
class PrivateLog:
    """Every private log entry so far, with the seats that got it (read through `events`)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.cursor = 0
        # canonical payload -> (the text of the entry as its reader read it, its readers)
        self.entries: dict[str, tuple[str | None, set[int]]] = {}

    def catch_up(self, state: State) -> None:
        end = state.log_length
        if end == self.cursor:
            return
        for j in range(self.players):
            view = state.view(j)
            for event in state.events(j, since=self.cursor):
                if event.get("private"):
                    key = canonical(event)
                    text, readers = self.entries.get(key, (None, set()))
                    text = text or state.game.describe_event(event, view)
                    self.entries[key] = (text, readers | {j})
        self.cursor = end

    def hidden_from(self, seat: int | None, seen: set[str], texts: set[str]) -> tuple[set, set]:
        """Payloads and texts of private entries ``seat`` never got (and never got the like of)."""
        payloads, hidden_texts = set(), set()
        for key, (text, readers) in self.entries.items():
            if seat in readers or key in seen:
                continue
            payloads.add(key)
            if text and text not in texts:
                hidden_texts.add(text)
        return payloads, hidden_texts


# -- one connection ---------------------------------------------------------------------------
class Watcher:
    """The messages of one connection, each checked against the mirror when it arrives."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.position = 0  # the mirror's log length this connection has been told up to
        self.events: list[dict[str, Any]] = []
        self.seen: set[str] = set()  # canonical events received
        self.texts: set[str] = set()  # event texts received
        self.checked = 0

    def check(self, message: Message, mirror: State, log: PrivateLog) -> None:
        """Assert ``message`` (a sync or update) is the seat's due and nothing more."""
        raw = message.pop("raw", None)  # the frame as sent, when the client takes patches
        if raw is not None:
            self._check_frame(raw, mirror, log)
        seat = self.seat
        kind = message["type"]
        assert kind in ("sync", "update"), message
        assert set(message) - EXTRA_KEYS == GAME_KEYS, set(message)
        assert message["seat"] == seat
        view = mirror.view(seat)
        assert message["view"] == view, "the view is not exactly the seat's view"
        since = 0 if kind == "sync" else self.position
        events = mirror.events(seat, since=since)
        assert message["events"] == events, "the events are not exactly the seat's new events"
        game = mirror.game
        assert message["event_texts"] == [game.describe_event(e, view) for e in events]
        legal = [] if seat is None else mirror.legal_actions(seat)
        expected = [{"action": str(a), "text": game.describe_action(a, view)} for a in legal]
        assert message["legal_actions"] == expected
        assert message["notes"] == [] and message["table"]["standins"] == []
        self._check_secrets(message, mirror, log)
        if kind == "sync":
            self.events = []
        self.events += events
        self.seen.update(canonical(e) for e in events)
        self.texts.update(t for t in message["event_texts"] if t)
        self.position = mirror.log_length
        self.checked += 1

    def _check_frame(self, raw: Message, mirror: State, log: PrivateLog) -> None:
        """A frame as sent to a client that takes patches: a sync as any, an update the
        view's changes only; and no secret in it (the whole message is checked after)."""
        if raw["type"] == "update" and "patch" in raw:
            keys = set(raw) - EXTRA_KEYS
            assert PATCH_KEYS <= keys <= PATCH_KEYS | PATCH_OPTIONAL, keys
            view = mirror.view(self.seat)
            for key, value in raw["patch"].items():
                assert view[key] == value, f"the patch's {key!r} is not the seat's view"
            assert all(key not in view for key in raw.get("unset", []))
        self._check_secrets(raw, mirror, log)

    def _check_secrets(self, message: Message, mirror: State, log: PrivateLog) -> None:
        text = json.dumps(message)
        for needle in rng_needles(mirror):
            assert needle not in text, "the seed or the generator's state was sent"
        log.catch_up(mirror)
        # Entries of this very message count as seen: they were just checked to be the seat's.
        seen = self.seen | {canonical(e) for e in message["events"]}
        texts = self.texts | {t for t in message["event_texts"] if t}
        payloads, hidden_texts = log.hidden_from(self.seat, seen, texts)
        for d in dicts(message):
            if "kind" in d:
                marked = canonical({**d, "private": True})  # as the seat that got it saw it
                assert not {canonical(d), marked} & payloads, f"another seat's event {d} was sent"
        for value in strings(message):
            assert value not in hidden_texts, f"another seat's private event text {value!r}"
        check = SECRET_CHECKS.get(mirror.game.id)
        problems = [] if check is None else check(mirror, self.seat, message)
        assert not problems, problems
