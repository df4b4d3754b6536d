"""Replays of finished games: every step as one seat saw it, or with everything revealed.

A finished table's record is replayed move by move by the engine, as ``intrigue.replay`` does
(and ``intrigue replay`` in the terminal). Each step shows what `State.view` and
`State.events` give the chosen seat at that step, so a seat's replay holds nothing that seat
did not know at the time; "everything revealed" puts every seat's view side by side. A replay
opens only once the game is over: before, it would tell a seat what it may not know yet.

Payloads stay small: an *index* per perspective (every step's actor, action and events, no
views) and one *step* at a time (its views). Nothing is computed for a perspective nobody
asks for; states between checkpoints are replayed again on demand instead of being kept.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, JSONResponse

import intrigue
from intrigue.engine import Action, Record, State

from ..tables.hub import Hub
from ..tables.messages import action_text, event_texts
from ..tables.table import LiveTable

ALL: Literal["all"] = "all"
SPECTATOR = "spectator"
# A seat, None for a spectator, or ALL for everything revealed.
Perspective = int | None | Literal["all"]

NOT_OVER = (
    "the game is not over yet: its replay opens when it ends "
    "(a replay now would show what the seats may not know yet)"
)


def parse_perspective(text: str | None, players: int) -> Perspective:
    """``0``…``players-1``, ``spectator`` (the default) or ``all``; `ValueError` otherwise."""
    value = (text or SPECTATOR).strip().lower()
    if value == SPECTATOR:
        return None
    if value in (ALL, "revealed"):
        return ALL
    if not value.isdigit() or not 0 <= int(value) < players:
        raise ValueError(
            f"seat must be one of 0..{players - 1}, 'spectator' or 'all', not {value[:20]!r}"
        )
    return int(value)


def perspective_name(perspective: Perspective) -> str:
    return SPECTATOR if perspective is None else str(perspective)


class Timeline:
    """A finished game's steps, rebuilt from its record (step 0 is the set-up)."""

    EVERY = 32  # a checkpoint every EVERY steps: any step is at most EVERY moves away

    def __init__(self, record: Record) -> None:
        self.game = intrigue.load(record.game)
        state = self.game.new(record.players, record.seed, **record.options)
        self.players = state.players
        self.moves: list[tuple[int, Action]] = []
        self._checkpoints = [state.clone()]
        for seat, text in record.actions:
            action = self.game.parse_action(text)
            state.apply(seat, action)
            self.moves.append((seat, action))
            if len(self.moves) % self.EVERY == 0:
                self._checkpoints.append(state.clone())
        self.length = len(self.moves)
        self.outcome = state.view(None)["outcome"]
        self._indexes: dict[Perspective, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def state_at(self, step: int) -> State:
        """A fresh state as it was after ``step`` moves."""
        done = (step // self.EVERY) * self.EVERY
        state = self._checkpoints[step // self.EVERY].clone()
        for seat, action in self.moves[done:step]:
            state.apply(seat, action)
        return state

    def _walk(self, perspective: Perspective) -> Iterator[tuple[State, dict[str, Any]]]:
        """Every step in order: the state after it (one object, moved on) and its heading.

        The action is named only to its own seat (and when everything is revealed): another
        seat's move may be a secret (a target, a hidden move), and what ``perspective``
        learnt of it is in its events.
        """
        state = self._checkpoints[0].clone()
        yield state, {"step": 0, "seat": None, "action": None, "action_text": None}
        for step, (seat, action) in enumerate(self.moves, 1):
            shown = perspective in (ALL, seat)
            before = state.view(seat) if shown else None
            state.apply(seat, action)
            heading = {"step": step, "seat": seat, "action": None, "action_text": None}
            if before is not None:
                heading["action"] = str(action)
                heading["action_text"] = action_text(state, action, before)
            yield state, heading

    # -- the index: every step's actor, action and events -----------------------------------
    def index(self, perspective: Perspective) -> list[dict[str, Any]]:
        """Every step as ``perspective`` saw it, without views (computed once)."""
        with self._lock:
            steps = self._indexes.get(perspective)
            if steps is None:
                steps = self._indexes[perspective] = self._build_index(perspective)
            return steps

    def _build_index(self, perspective: Perspective) -> list[dict[str, Any]]:
        steps = []
        seen = 0
        for state, heading in self._walk(perspective):
            if perspective == ALL:
                heading.update(_revealed_events(state, seen, self.players))
            else:
                events = state.events(perspective, since=seen)
                heading["events"] = events
                heading["event_texts"] = event_texts(state, events, state.view(perspective))
            seen = state.log_length
            steps.append(heading)
        return steps

    # -- one step with its views ------------------------------------------------------------
    def step(self, step: int, perspective: Perspective) -> dict[str, Any]:
        """Step ``step`` (0…length) as ``perspective`` saw it, with its view(s)."""
        entry = dict(self.index(perspective)[step])
        state = self.state_at(step)
        if perspective == ALL:
            entry["view"] = state.view(None)
            entry["views"] = [state.view(seat) for seat in range(self.players)]
        else:
            entry["view"] = state.view(perspective)
        return entry


def _revealed_events(state: State, since: int, players: int) -> dict[str, Any]:
    """The log entries from ``since`` on, each with the seats that saw it (None: everyone).

    The engine tells only what a seat sees, so an entry's readers are found through
    `State.events`: a seat sees entry j exactly when starting at j rather than j+1 gives it
    one more event. Each text is worded for a seat that saw the entry.
    """
    who = [None, *range(players)]
    end = state.log_length
    counts = {w: [len(state.events(w, since=j)) for j in range(since, end + 1)] for w in who}
    events, seats, texts = [], [], []
    views: dict[int | None, dict[str, Any]] = {}
    for i, j in enumerate(range(since, end)):
        readers = [w for w in who if counts[w][i] > counts[w][i + 1]]
        if not readers:
            continue  # an entry nobody may read
        reader = readers[0]  # None (everyone) comes first
        event = state.events(reader, since=j)[0]
        if reader not in views:
            views[reader] = state.view(reader)
        events.append(event)
        seats.append(None if reader is None else readers)
        texts.extend(event_texts(state, [event], views[reader]))
    return {"events": events, "event_seats": seats, "event_texts": texts}


class Replays:
    """Timelines of recently replayed tables (a few, least recently used dropped first)."""

    def __init__(self, limit: int = 8) -> None:
        self.limit = limit
        self._timelines: OrderedDict[str, asyncio.Future[Timeline]] = OrderedDict()

    async def timeline(self, table_id: str, record: Record) -> Timeline:
        """The table's timeline, built in a worker thread on first use."""
        future = self._timelines.get(table_id)
        if future is None:
            future = asyncio.ensure_future(asyncio.to_thread(Timeline, record))
            self._timelines[table_id] = future
            while len(self._timelines) > self.limit:
                self._timelines.popitem(last=False)
        else:
            self._timelines.move_to_end(table_id)
        try:
            # Shielded: a client that goes away must not cancel a build others wait for.
            return await asyncio.shield(future)
        except Exception:
            self._timelines.pop(table_id, None)
            raise


def add_replay_routes(app: FastAPI, hub: Hub, page: Path) -> None:
    """The replay page and its API; a replay is refused (409) until the game is over."""
    replays = Replays()

    @app.get("/table/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return FileResponse(page)

    async def finished(table_id: str, seat: str | None) -> tuple[LiveTable, Timeline, Perspective]:
        table = await hub.get(table_id)
        if table is None:
            raise HTTPException(404, f"there is no table {table_id[:40]!r}")
        if not table.state.is_over:
            raise HTTPException(409, NOT_OVER)
        try:
            perspective = parse_perspective(seat, table.state.players)
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        return table, await replays.timeline(table.id, table.state.record()), perspective

    @app.get("/api/tables/{table_id}/replay")
    async def replay_index(table_id: str, seat: str | None = None) -> JSONResponse:
        table, timeline, perspective = await finished(table_id, seat)
        steps = await asyncio.to_thread(timeline.index, perspective)
        return JSONResponse(
            {
                **table.info(),
                "perspective": perspective_name(perspective),
                "length": timeline.length,
                "outcome": timeline.outcome,
                "steps": table.chat.in_replay(steps),  # each with the chat said at it
            }
        )

    @app.get("/api/tables/{table_id}/replay/{step}")
    async def replay_step(table_id: str, step: int, seat: str | None = None) -> JSONResponse:
        _table, timeline, perspective = await finished(table_id, seat)
        if not 0 <= step <= timeline.length:
            raise HTTPException(
                404, f"there is no step {step}: this game has steps 0..{timeline.length}"
            )
        return JSONResponse(await asyncio.to_thread(timeline.step, step, perspective))
