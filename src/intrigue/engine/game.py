"""The protocol every game implements: a `Game` (the rules) and its `State` (one play).

A `State` is mutated in place by `State.apply` (like OpenSpiel's ``apply_action``); search makes
its own copies with `State.clone`. Hidden information leaves a state only through
`State.view` and `State.events`, which take the seat that is looking (``None`` for a
spectator). Games implement the underscored hooks; the public methods do the checks that are
the same for every game.
"""

from __future__ import annotations

import copy
import functools
import importlib
import json
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ClassVar

from .actions import Action, ActionTable
from .errors import IllegalAction, InvalidAction, InvalidOption
from .events import Event, shared_json
from .folded import FOLD_AT, NOTHING_FOLDED, Folded
from .guide import Guide
from .options import Option, fixed_chance, resolve_options, without_fixed_chance
from .outcome import Outcome
from .record import Record
from .rng import Rng
from .wording import game_over_text

SEED_BITS = 63


class Game(ABC):
    """The rules of one game: metadata, options, the action table and a factory of states."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[Option, ...]] = ()
    action_table: ClassVar[ActionTable]
    state_class: ClassVar[type[State]]
    # Whether reaching ``max_turns`` ends the game by one of its own rules, a result its players
    # would recognise (Masquerade Murder: the ball ends and Good wins), rather than cutting it
    # off with an arbiter's verdict (the designs with no length limit). Research adapters
    # report the first as a real ending and the second as a truncation.
    max_turns_is_rule: ClassVar[bool] = False

    # -- metadata ---------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """JSON-serialisable description used by ``intrigue.games()``, the CLI and the server."""
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "players": list(self.player_counts),
            "options": [opt.to_json() for opt in self.options],
            "num_actions": self.num_actions,
        }

    def __repr__(self) -> str:
        return f"<Game {self.id}>"

    def fixed_chance(self, options: dict[str, Any]) -> list[str]:
        """What ``options`` fix that chance would decide (`Option.fixes`, in people's words);
        empty when the deal is left to the seed. A table with any is a *custom deal*."""
        return fixed_chance(self.options, options)

    def without_fixed_chance(self, options: dict[str, Any]) -> dict[str, Any]:
        """``options`` without those that fix chance: the same rules with a fair deal."""
        return without_fixed_chance(self.options, options)

    # -- states -----------------------------------------------------------------------------
    def new(self, players: int | None = None, seed: int | None = None, **options: Any) -> State:
        """A fresh game. Without a seed one is drawn from the OS; it is kept for the replay."""
        if players is None:
            players = self.player_counts[0]
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOption(f"players must be an integer, not {players!r}")
        if players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise InvalidOption(f"{self.name} is played by {counts} players, not {players}")
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InvalidOption(f"seed must be an integer, not {seed!r}")
        resolved = resolve_options(self.options, options)
        state = self._new_state(players, seed, resolved)
        state._start()
        return state

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> State:
        """Build the initial state (set-up uses ``Rng(seed)``) of the game's `state_class`."""
        return self.state_class(self, players, seed, options)

    # -- actions ----------------------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        """Size of the fixed action table; indices are stable across versions of a game."""
        return len(self.action_table)

    def parse_action(self, text: str) -> Action:
        """The action named by ``text``; `InvalidAction` if it is no action of this game."""
        if text.__class__ is str and (named := self.action_table.named(text)) is not None:
            return named  # canonical text, as sent in the legal moves: no parsing
        action = Action.parse(text)
        if action not in self.action_table:
            raise InvalidAction(f"{self.name} has no action {str(action)!r}")
        return self.action_table.canonical(action)

    def action_from_json(self, data: Any) -> Action:
        action = Action.from_json(data)
        if action not in self.action_table:
            raise InvalidAction(f"{self.name} has no action {str(action)!r}")
        return self.action_table.canonical(action)

    def action_index(self, action: Action) -> int:
        return self.action_table.index(action)

    def action_at(self, index: int) -> Action:
        return self.action_table.action(index)

    # -- presentation -----------------------------------------------------------------------
    # A game package may hold a ``render`` module with ``describe_action(action, view)``,
    # ``describe_event(event, view)`` and ``render_view(view)``; it is imported on first use, so
    # rules code never loads ``rich``. Without one, these defaults give plain text.
    def _presentation(self, name: str) -> Any:
        return _presentation_hook(type(self).__module__.rpartition(".")[0], name)

    def describe_action(self, action: Action, view: dict[str, Any]) -> str:
        """A short human sentence for a menu entry."""
        describe = self._presentation("describe_action")
        return str(action) if describe is None else describe(action, view)

    def describe_event(self, event: dict[str, Any], view: dict[str, Any]) -> str | None:
        """One readable line for a log event as the view's seat saw it (None: no text)."""
        describe = self._presentation("describe_event")
        text = None if describe is None else describe(event, view)
        if text is None and event.get("kind") == "game_over":
            text = game_over_text(event, view)  # the same end for every game that has no own
        return text

    def describe_actions(self, actions: Iterable[Action], view: dict[str, Any]) -> list[str]:
        """`describe_action` for many actions read from one view (the hook looked up once: a
        server describes every seat's legal moves after every move)."""
        describe = self._presentation("describe_action")
        if describe is None:
            return [str(action) for action in actions]
        return [describe(action, view) for action in actions]

    def describe_events(
        self, events: Iterable[dict[str, Any]], view: dict[str, Any]
    ) -> list[str | None]:
        """`describe_event` for many events read from one view."""
        describe = self._presentation("describe_event")
        if describe is None:
            return [self.describe_event(event, view) for event in events]
        texts = []
        for event in events:
            text = describe(event, view)
            if text is None and event.get("kind") == "game_over":
                text = game_over_text(event, view)
            texts.append(text)
        return texts

    def guide(self) -> Guide | None:
        """How to play, from the package's ``guide`` module (None for a game without one)."""
        try:
            module = importlib.import_module(f"{type(self).__module__.rpartition('.')[0]}.guide")
        except ModuleNotFoundError:
            return None
        return getattr(module, "GUIDE", None)

    def render(self, view: dict[str, Any]) -> Any:
        """A ``rich`` renderable drawing the view for the terminal."""
        draw = self._presentation("render_view")
        return json.dumps(view, indent=1) if draw is None else draw(view)


class SharedList(list):  # type: ignore[type-arg]
    """A list that a game's `State.shared_view` hands, unchanged, to many views (every seat's,
    and later positions'): it is never changed once handed out, so a server may encode it once
    and reuse that text for as long as it is the same object."""

    __slots__ = ()


@functools.cache
def _presentation_hook(package: str, name: str) -> Any:
    """``package.render.name``, or None; looked up once (the server asks for every message)."""
    try:
        module = importlib.import_module(f"{package}.render")
    except ModuleNotFoundError:
        return None
    return getattr(module, name, None)


class State(ABC):
    """One game in progress. Games subclass it and implement the underscored hooks."""

    game: Game
    players: int
    seed: int
    options: dict[str, Any]
    rng: Rng
    # The history and the log are flat (seat, action, seat, action, ... and kind, payload,
    # seats, kind, payload, seats, ...; payload: a dict or a function building it; seats: who
    # may see the entry, None for everyone), each a short list of the newest items after a
    # `Folded` rest that clones share (see folded.py for why). Read them through `_played`,
    # `_last_played`, `_log_entries` and `_log_entry`, never directly.
    _history: list[Any]
    _history_folded: Folded = NOTHING_FOLDED
    _log: list[Any]
    _log_folded: Folded = NOTHING_FOLDED
    _outcome: Outcome | None
    # Games whose play can go round in circles count the turns that started from a public
    # position seen before (public knowledge; search bots steer away from loops with it).
    repetitions: int = 0
    # What `_per_position` keeps: (history length, log length) and the value built there.
    _position_memo: tuple[tuple[int, int], Any] | None = None

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self._action_ids = game.action_table.ids
        self._history = []
        self._log = []
        self._outcome = None

    def _start(self) -> None:
        """Deal and set up; runs once, right after construction. Games override it."""

    # -- whose turn -------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """The seats that must decide now; several in a simultaneous phase, none when over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """The actions ``seat`` may take now (empty if it is not to move)."""

    # -- playing ----------------------------------------------------------------------------
    def apply(self, seat: int, action: Action | str) -> None:
        """Play ``action`` for ``seat``.

        Raises `InvalidAction` for input that names no action of the game, `IllegalAction`
        (naming seat, action and reason) for one the rules forbid now; either way the state is
        left exactly as it was.
        """
        if action.__class__ is not Action or action not in self._action_ids:
            action = self._coerce_action(action)
        if self._outcome is not None:
            raise IllegalAction(seat, action, "the game is over")
        if seat.__class__ is not int or not self._may_move(seat):
            self._check_seat(seat)
            waiting = ", ".join(map(str, self.to_move))
            raise IllegalAction(seat, action, f"it is not this seat's turn (waiting for {waiting})")
        self._apply(seat, action)
        self._history += (seat, action)

    def _coerce_action(self, action: object) -> Action:
        if isinstance(action, str):
            return self.game.parse_action(action)
        if isinstance(action, Action):
            raise InvalidAction(f"{self.game.name} has no action {str(action)!r}")
        raise InvalidAction(f"not an action: {action!r}")

    def _may_move(self, seat: int) -> bool:
        """Whether ``seat`` is in `to_move`; games override it with a cheaper test."""
        return seat in self.to_move

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> None:
        """Check legality (raise `IllegalAction` before changing anything), then play."""

    def _check_seat(self, seat: object) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(
                seat if isinstance(seat, int) else None,
                "-",
                f"there is no seat {seat!r} (seats are 0..{self.players - 1})",
            )

    # -- the end ----------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    # -- what a seat may know ---------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know and nothing more (``None``: a spectator)."""
        return self._framed(seat, self._view)

    def shared_view(self, seat: int | None) -> dict[str, Any]:
        """`view` for a caller that only reads it (a server encoding it for the wire): games
        may hand out parts they keep and share with other views of this position, so it must
        never be changed. Its content is always that of `view`, and stays so as play goes on:
        a game never changes in place what it handed out (a server diffs the next view against
        it; the conformance suite checks it)."""
        return self._framed(seat, self._shared_view)

    def essentials(self, seat: int) -> dict[str, Any]:
        """What ``seat`` decides on, for bots that read it many times a second (search
        rollouts): `view` cut down, that is ``seat`` and some of `view`'s keys at any depth,
        with `view`'s values and never a key `view` lacks; games may leave out texts and parts
        no decision needs (default: the whole view). The conformance suite checks it."""
        return self.view(seat)

    def _framed(
        self, seat: int | None, body: Callable[[int | None], dict[str, Any]]
    ) -> dict[str, Any]:
        if seat is not None and (seat.__class__ is not int or not 0 <= seat < self.players):
            self._check_seat(seat)  # raises; the test above is the cheap common case
        outcome = self._outcome
        return {
            "game": self.game.id,
            "seat": seat,
            "players": self.players,
            "step": self.actions_played,
            "to_move": list(self.to_move),
            "is_over": outcome is not None,
            "outcome": None if outcome is None else outcome.to_json(),
            **body(seat),
        }

    def _shared_view(self, seat: int | None) -> dict[str, Any]:
        """`_view`, possibly built from parts kept between calls (see `shared_view`)."""
        return self._view(seat)

    def _per_position(self, build: Callable[[], Any]) -> Any:
        """``build()``, made once per position and kept until the next action: a hook for the
        parts of `shared_view` every seat sees alike (OpenSpiel's ``rl_environment`` and a
        server ask every seat's view after every move). One value per state; a clone starts
        without it (it may be changed by other means than `apply`, as `determinize` does)."""
        key = (self.actions_played, self.log_length)
        memo = self._position_memo
        if memo is None or memo[0] != key:
            memo = self._position_memo = (key, build())
        return memo[1]

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game-specific part of `view`: the single place where secrets are redacted."""

    def events(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The game log from ``since`` on, as ``seat`` saw it (``None``: public events only).

        ``since`` is a position in the full log (see `log_length`), not in the seat's list."""
        return [Event(*entry).to_json() for entry in self._seen_log(seat, since)]

    def shared_events(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """`events` for a caller that only reads them (a server encoding them for the wire):
        the nested values are the log's own, not copies, so they must never be changed. Their
        content is always that of `events`."""
        return [shared_json(*entry) for entry in self._seen_log(seat, since)]

    def _seen_log(self, seat: int | None, since: int) -> Iterator[tuple[Any, ...]]:
        """The log entries from ``since`` on that ``seat`` may see, lazy payloads built."""
        if seat is not None:
            self._check_seat(seat)
        build = self._lazy_payload
        return (
            (kind, data if data.__class__ is dict else build(data), to)
            for kind, data, to in self._log_entries(since)
            if to is None or seat in to
        )

    def _log_entries(self, since: int = 0) -> Iterator[tuple[str, Any, tuple[int, ...] | None]]:
        """(kind, payload or its builder, seats or None) of every log entry from ``since`` on,
        secrets included: for the game's own rules and belief models."""
        entries = self._log_folded.items(self._log, 3 * since)
        return zip(entries, entries, entries, strict=True)

    def _log_entry(self, index: int) -> tuple[str, Any, tuple[int, ...] | None]:
        """The log entry at ``index`` as `_log_entries` gives it."""
        kind, data, to = self._log_folded.at(self._log, 3 * index, 3)
        return kind, data, to

    def _replace_log_entry(
        self, index: int, kind: str, data: Any, to: tuple[int, ...] | None
    ) -> None:
        """Put another entry at ``index`` (a determinizer rewriting what others saw)."""
        if self._log_folded.length:  # unfold: the folded chunks are shared with other states
            self._log = list(self._log_folded.items(self._log))
            self._log_folded = NOTHING_FOLDED
        self._log[3 * index : 3 * index + 3] = (kind, data, to)

    def _lazy_payload(self, data: Any) -> dict[str, Any]:
        """The payload of an event logged by `_emit_lazy`: by default ``data()``; a game that
        logs references of its own (say numbers into its records) builds them here."""
        return data()

    @property
    def log_length(self) -> int:
        """Number of log entries so far (for incremental `events` calls)."""
        return (self._log_folded.length + len(self._log)) // 3

    def _emit(self, kind: str, to: tuple[int, ...] | None = None, /, **data: Any) -> None:
        # Flat, in Event's field order: logging sits on the hot path of every playout.
        self._log += (kind, data, to)

    def _emit_lazy(self, kind: str, to: tuple[int, ...] | None, data: Any) -> None:
        """Log an event whose payload is built only when someone reads the log.

        ``data`` is anything but a dict, turned into the payload by `_lazy_payload`: by
        default a pure function of immutable values (e.g. a bound method of a frozen record),
        so reading it later gives what it would have given now. A game may log something
        lighter instead (numbers into records it keeps, resolved by its own `_lazy_payload`):
        a log entry lives as long as the game, and a function object is one more thing the
        garbage collector walks all that time.
        """
        self._log += (kind, data, to)

    def _finish(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._emit("game_over", **outcome.to_json())

    # -- copies, samples and records --------------------------------------------------------
    def clone(self) -> State:
        """An independent copy: playing on it never affects this state."""
        new = object.__new__(self.__class__)
        new.__dict__ = self.__dict__.copy()
        # A long tail is folded in the copy (whose own copies then share it), never in this
        # state: clone only reads it, so threads may clone one state at once (a server's bot
        # thinks on the table's state while the table tries a move on it). Written out twice
        # rather than through a helper: clone is on every search iteration's path, and the
        # calls cost a sixth of a clone.
        if len(self._history) > FOLD_AT:
            new._history_folded = self._history_folded.fold(self._history)
            new._history = []
        else:
            new._history = self._history.copy()
        if len(self._log) > FOLD_AT:
            new._log_folded = self._log_folded.fold(self._log)
            new._log = []
        else:
            new._log = self._log.copy()
        new.rng = Rng(self.rng.state)
        new._position_memo = None
        self._copy_mutables(new)
        return new

    def _copy_mutables(self, new: State) -> None:
        """Give ``new`` its own copies of the game's mutable containers."""

    @abstractmethod
    def determinize(self, seat: int, rng: Rng) -> State:
        """A complete state consistent with everything ``seat`` has observed.

        Hidden information ``seat`` has not seen is resampled with ``rng`` (and the sample's own
        generator is reseeded, so future chance is unknown too); ``view(seat)`` and
        ``events(seat)`` of the sample equal those of this state.
        """

    def _rebuild(
        self, seed: int, options: dict[str, Any], actions: list[tuple[int, Action]]
    ) -> State:
        """Replay ``actions`` on a new game with the given seed and options (for determinize)."""
        state = self.game.new(self.players, seed, **options)
        for seat, action in actions:
            state.apply(seat, action)
        return state

    @property
    def actions_played(self) -> int:
        """How many actions have been played (``len(history)``, without copying it)."""
        return (self._history_folded.length + len(self._history)) >> 1

    @property
    def history(self) -> list[tuple[int, Action]]:
        """Every (seat, action) played so far. Holds secrets: for referees and replays only."""
        return list(self._played())

    def history_since(self, step: int) -> list[tuple[int, Action]]:
        """``history[step:]`` without building the pairs before ``step`` (a server checks a
        move chosen a few steps ago against the moves played since). Holds secrets, as
        `history` does."""
        return list(self._played(max(step, 0)))

    def _played(self, since: int = 0) -> Iterator[tuple[int, Action]]:
        """(seat, action) of every action played from step ``since`` on, without copying the
        history."""
        moves = self._history_folded.items(self._history, 2 * since)
        return zip(moves, moves, strict=True)

    def _last_played(self) -> tuple[int, Action] | None:
        """The last (seat, action) played, None before the first."""
        last = self._history_folded.last(self._history, 2)
        if not last:
            return None
        seat, action = last
        return seat, action

    def _replace_history(self, moves: Iterable[tuple[int, Action]]) -> None:
        """Make ``moves`` the history (a determinizer rewriting what others chose)."""
        self._history = [part for move in moves for part in move]
        self._history_folded = NOTHING_FOLDED

    def record(self) -> Record:
        """The replay record: game, players, seed, options and actions so far."""
        return Record(
            self.game.id,
            self.players,
            self.seed,
            copy.deepcopy(self.options),
            [(seat, str(action)) for seat, action in self._played()],
        )
