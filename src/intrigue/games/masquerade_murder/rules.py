"""Masquerade Murder: the referee (seed 000, RULINGS Part 1).

A night runs in three phases. In the *target* phase every player in the game secretly picks
another player (simultaneously). In the *execution* phase the order cards are drafted (dealt
at random on night 1) and the cubes are placed on the seating board in slot order A, 2, J, Q, K,
the Joker holder taking the extra card's slot with an optional swap. The night then resolves
(`resolution.resolve`) and the *revelation* is logged: public harms, each player's private
result, departures, and possibly the end of the game.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from intrigue.engine import (
    MAX_TURNS,
    Action,
    ActionTable,
    Game,
    IllegalAction,
    InvalidOption,
    Option,
    Outcome,
    Rng,
    State,
)
from intrigue.engine.game import SharedList

from .boards import ALL_CELLS, BOARDS
from .resolution import (
    ASSASSIN,
    CONSTABLE,
    DUKE,
    NOBODY,
    ROLE_INDEX,
    ROLE_NAMES,
    SEDUCTRESS,
    THUG,
    NightResult,
    resolve,
)

PLAYERS = 5
SLOT_CARDS = ("ace", "two", "jack", "queen", "king")  # placement order, first to last
JOKER = "joker"
ALL_CARDS = (*SLOT_CARDS, JOKER)
CARD_LABELS = {"ace": "A", "two": "2", "jack": "J", "queen": "Q", "king": "K", "joker": "Joker"}

TARGET_PHASE, DRAFT_PHASE, PLACEMENT_PHASE, OVER = "target", "draft", "placement", "over"

TARGET = tuple(Action("target", seat) for seat in range(PLAYERS))
DRAW = {card: Action("draw", card) for card in ALL_CARDS}
PLACE = {cell: Action("place", cell) for cell in ALL_CELLS}
SWAP = {(a, b): Action("swap", a, b) for a in ALL_CELLS for b in ALL_CELLS if a != b}
ACTIONS = ActionTable([*TARGET, *DRAW.values(), *PLACE.values(), *SWAP.values()])

EFFECTS = ("captured", "distracted", "poisoned")


def placement_moves(seats: tuple[str, ...], occupant: dict[str, int], joker: bool) -> list[Action]:
    """The placements open to the placer with ``occupant`` (cell -> seat) on the board: every
    free seat, and for the Joker holder every swap of a placed cube to a free seat."""
    if not joker or not occupant:
        return [PLACE[cell] for cell in seats if cell not in occupant]
    free = [cell for cell in seats if cell not in occupant]
    return [PLACE[cell] for cell in free] + [
        SWAP[taken, cell] for taken in occupant for cell in free
    ]


class NightRecord(NamedTuple):
    """A finished night, kept for views, replays and the determinizer.

    ``targets`` and the colours inside ``result`` are secret: each seat may only see its own.
    """

    night: int
    active: tuple[bool, ...]
    cells: tuple[str | None, ...]
    cards: tuple[str | None, ...]
    targets: tuple[int, ...]
    result: NightResult
    departed: tuple[tuple[int, str], ...]

    def public(self) -> dict[str, Any]:
        res = self.result
        return {
            "night": self.night,
            "cells": {str(s): c for s, c in enumerate(self.cells) if c is not None},
            "cards": {str(s): c for s, c in enumerate(self.cards) if c is not None},
            "captured": [] if res.captured == NOBODY else [res.captured],
            "distracted": [] if res.distracted == NOBODY else [res.distracted],
            "poisoned": [] if res.poisoned == NOBODY else [res.poisoned],
            "left": [{"seat": s, "how": how} for s, how in self.departed],
        }

    def private(self, seat: int) -> dict[str, Any]:
        res = self.result
        return {
            "night": self.night,
            "target": self.targets[seat],
            "colour": res.colours[seat],
            "effects": [name for name, who in zip(EFFECTS, res, strict=False) if who == seat],
        }


# One empty list for every empty field of the nights' JSON in shared views (which nobody
# changes): that JSON is kept for the rest of the game, and most of its lists are empty (no
# effect on a seat, nobody captured), each one more object for the garbage collector to walk.
_EMPTY: list[Any] = []


def _share_empty_lists(payload: dict[str, Any]) -> dict[str, Any]:
    for key, value in payload.items():
        if value.__class__ is list and not value:
            payload[key] = _EMPTY
    return payload


class _NightJson:
    """A finished night's public JSON, and each seat's private JSON once asked for (for
    shared views: read only)."""

    __slots__ = ("privates", "public", "record")

    def __init__(self, record: NightRecord) -> None:
        self.record = record
        self.public = _share_empty_lists(record.public())
        self.privates: list[dict[str, Any] | None] = [None] * len(record.active)

    def private(self, seat: int) -> dict[str, Any]:
        found = self.privates[seat]
        if found is None:
            found = self.privates[seat] = _share_empty_lists(self.record.private(seat))
        return found


class _NightsJson:
    """The JSON of a list of finished nights: the public list, and each seat's results."""

    __slots__ = ("_results", "entries", "public")

    def __init__(self, entries: tuple[_NightJson, ...]) -> None:
        self.entries = entries
        self.public = SharedList(entry.public for entry in entries)
        self._results: dict[int, list[dict[str, Any]]] = {}

    def results(self, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` learnt in each night it took part in."""
        found = self._results.get(seat)
        if found is None:
            found = [e.private(seat) for e in self.entries if e.record.active[seat]]
            self._results[seat] = found
        return found


_NO_NIGHTS = _NightsJson(())


def _check_roles(value: list[str]) -> None:
    if sorted(value) != sorted(ROLE_NAMES):
        raise InvalidOption(f"option roles: give each of {', '.join(ROLE_NAMES)} exactly once")


def _check_seating(value: list[str]) -> None:
    if sorted(value) != [str(s) for s in range(PLAYERS)]:
        raise InvalidOption("option seating: give seats 0-4 once each, in clockwise order")


def _check_first_cards(value: list[str]) -> None:
    if len(value) != PLAYERS or len(set(value)) != PLAYERS:
        raise InvalidOption("option first_cards: give five different cards, one per seat")


def _nights(count: int) -> str:
    return f"{count} night" if count == 1 else f"{count} nights"


OPTIONS = (
    MAX_TURNS,
    Option(
        "roles",
        list,
        None,
        "Fix the roles, one per seat in seat order (default: dealt at random).",
        choices=ROLE_NAMES,
        check=_check_roles,
        fixes="the roles",
    ),
    Option(
        "seating",
        list,
        None,
        "Fix the clockwise seating cycle of the seats; the pile "
        "passes to the next seat in it (default: random).",
        check=_check_seating,
        fixes="the seating order",
    ),
    Option(
        "first_cards",
        list,
        None,
        "Fix the night-1 order cards, one per seat in seat "
        "order; the sixth card is the extra (default: dealt at random).",
        choices=ALL_CARDS,
        check=_check_first_cards,
        fixes="the first night's order cards",
    ),
    Option("board", str, "theta16", "Seating board.", choices=tuple(BOARDS)),
    Option(
        "thug_mode",
        str,
        "survive",
        "When the Thug wins: survive (still in the game at the "
        "end) or with_winner (with whichever team wins).",
        choices=("survive", "with_winner"),
    ),
)


class MurderState(State):
    """One game of Masquerade Murder."""

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        self.board = BOARDS[options["board"]]
        self.neighbours = self.board.neighbours
        self.roles: tuple[int, ...] = ()
        self.seating: tuple[int, ...] = ()
        self.first_deal: tuple[str, ...] = ()
        self.night = 0
        self.phase = TARGET_PHASE
        self.active = [True] * PLAYERS
        self.captures = [0] * PLAYERS
        self.poisons = [0] * PLAYERS
        self.fate: list[str | None] = [None] * PLAYERS
        self.greens = [0] * PLAYERS
        self.targets = [NOBODY] * PLAYERS
        self.undecided = PLAYERS
        self.cards: list[str | None] = [None] * PLAYERS
        self.seen: list[tuple[str, ...] | None] = [None] * PLAYERS
        self.pile: list[str] = []
        self.drawers: tuple[int, ...] = ()
        self.drawn = 0
        self.extra: str | None = None
        self.joker = NOBODY
        self.order: tuple[int, ...] = ()
        self.slot = 0
        self.cells: list[str | None] = [None] * PLAYERS
        self.occupant: dict[str, int] = {}
        self.starter = NOBODY
        self.nights: list[NightRecord] = []
        # For shared views: the JSON of finished nights, built once and kept by clones (see
        # `_night_views`), so that a view's cost stays flat as the game goes on.
        self._night_json = _NO_NIGHTS
        # For shared views: (history length, log length) and what every seat sees alike there.
        self._public_memo: tuple[tuple[int, int], dict[str, Any]] | None = None

    # -- set-up -----------------------------------------------------------------------------
    def _start(self) -> None:
        opts = self.options
        if opts["roles"] is not None:
            self.roles = tuple(ROLE_INDEX[name] for name in opts["roles"])
        else:
            roles = list(range(PLAYERS))
            self.rng.shuffle(roles)
            self.roles = tuple(roles)
        if opts["seating"] is not None:
            self.seating = tuple(int(s) for s in opts["seating"])
        else:
            seating = list(range(PLAYERS))
            self.rng.shuffle(seating)
            self.seating = tuple(seating)
        self._emit("setup", board=self.board.name, seating=list(self.seating))
        for seat, role in enumerate(self.roles):
            self._emit("role", (seat,), role=ROLE_NAMES[role])
        self._begin_night()

    def _copy_mutables(self, new: State) -> None:
        assert isinstance(new, MurderState)
        new.active = self.active.copy()
        new.captures = self.captures.copy()
        new.poisons = self.poisons.copy()
        new.fate = self.fate.copy()
        new.greens = self.greens.copy()
        new.targets = self.targets.copy()
        new.cards = self.cards.copy()
        new.seen = self.seen.copy()
        new.pile = self.pile.copy()
        new.cells = self.cells.copy()
        new.occupant = self.occupant.copy()
        new.nights = self.nights.copy()
        new._public_memo = None  # a clone may be changed by other means than `apply`

    # -- whose turn -------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == TARGET_PHASE:
            active, targets = self.active, self.targets
            return tuple([s for s in range(PLAYERS) if active[s] and targets[s] == NOBODY])
        if phase == DRAFT_PHASE:
            return (self.drawers[self.drawn],)
        if phase == PLACEMENT_PHASE:
            return (self.order[self.slot],)
        return ()

    def _may_move(self, seat: int) -> bool:
        phase = self.phase
        if phase == TARGET_PHASE:
            return 0 <= seat < PLAYERS and self.active[seat] and self.targets[seat] == NOBODY
        if phase == DRAFT_PHASE:
            return seat == self.drawers[self.drawn]
        return phase == PLACEMENT_PHASE and seat == self.order[self.slot]

    @property
    def placer(self) -> int:
        return self.order[self.slot] if self.phase == PLACEMENT_PHASE else NOBODY

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == TARGET_PHASE:
            if not (0 <= seat < PLAYERS and self.active[seat] and self.targets[seat] == NOBODY):
                return []
            return self.menus[seat].copy()
        if phase == DRAFT_PHASE:
            if seat != self.drawers[self.drawn]:
                return []
            return [DRAW[card] for card in self.pile]
        if phase == PLACEMENT_PHASE:
            if seat != self.order[self.slot]:
                return []
            return placement_moves(self.board.seats, self.occupant, seat == self.joker)
        return []

    # -- playing ----------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> None:
        phase = self.phase
        if phase == TARGET_PHASE:
            self._choose_target(seat, action)
        elif phase == DRAFT_PHASE:
            self._draw(seat, action)
        else:
            self._place(seat, action)

    def _expect(self, seat: int, action: Action, verb: str, what: str) -> None:
        if action.verb != verb:
            raise IllegalAction(seat, action, f"it is the {self.phase} phase: {what}")

    def _choose_target(self, seat: int, action: Action) -> None:
        self._expect(seat, action, "target", "choose a target with 'target <seat>'")
        target = action.args[0]
        if target == seat:
            raise IllegalAction(seat, action, "you cannot target yourself")
        if not self.active[target]:  # type: ignore[index]
            raise IllegalAction(seat, action, f"seat {target} has left the game")
        self.targets[seat] = target  # type: ignore[assignment]
        self._emit("decided", seat=seat)
        self._emit("targeted", (seat,), target=target)
        self.undecided -= 1
        if not self.undecided:
            if self.night == 1:
                self._deal_first_cards()
            else:
                self._begin_draft()

    def _draw(self, seat: int, action: Action) -> None:
        self._expect(seat, action, "draw", "take a card with 'draw <card>'")
        card = action.args[0]
        if card not in self.pile:
            raise IllegalAction(seat, action, f"the pile holds only {', '.join(self.pile)}")
        self.seen[seat] = tuple(self.pile)
        self.pile.remove(card)  # type: ignore[arg-type]
        self.cards[seat] = card  # type: ignore[assignment]
        self.drawn += 1
        self._emit("drew", seat=seat)
        self._emit("took", (seat,), card=card, pile=list(self.seen[seat]))  # type: ignore[arg-type]
        if self.drawn == len(self.drawers):
            self._finish_draft()

    def _place(self, seat: int, action: Action) -> None:
        occupant = self.occupant
        if action.verb == "place":
            cell = action.args[0]
            self._check_free(seat, action, cell)  # type: ignore[arg-type]
            self.cells[seat] = cell  # type: ignore[assignment]
            occupant[cell] = seat  # type: ignore[index]
            self._emit("placed", seat=seat, cell=cell)
        elif action.verb == "swap":
            taken, cell = action.args
            if seat != self.joker:
                raise IllegalAction(seat, action, "only the Joker holder may swap")
            if taken not in occupant:
                raise IllegalAction(seat, action, f"no cube has been placed on {taken}")
            self._check_free(seat, action, cell)  # type: ignore[arg-type]
            moved = occupant[taken]  # type: ignore[index]
            self.cells[seat], self.cells[moved] = taken, cell  # type: ignore[assignment]
            occupant[taken], occupant[cell] = seat, moved  # type: ignore[index]
            self._emit("swapped", seat=seat, cell=taken, moved=moved, to=cell)
        else:
            raise IllegalAction(
                seat,
                action,
                "it is the placement phase: 'place <cell>'"
                + (" or 'swap <placed cell> <empty cell>'" if seat == self.joker else ""),
            )
        self.slot += 1
        if self.slot == len(self.order):
            self._end_night()

    def _check_free(self, seat: int, action: Action, cell: str) -> None:
        if cell not in self.neighbours:
            raise IllegalAction(
                seat,
                action,
                f"{cell} is not a seat of the {self.board.name} board (tables cannot be occupied)",
            )
        if cell in self.occupant:
            raise IllegalAction(
                seat, action, f"{cell} is already taken by seat {self.occupant[cell]}"
            )

    # -- the execution phase ----------------------------------------------------------------
    def _deal_first_cards(self) -> None:
        """Night 1: every player draws one of the six cards at random (MM-24)."""
        if self.options["first_cards"] is not None:
            dealt = list(self.options["first_cards"])
        else:
            deck = list(ALL_CARDS)
            self.rng.shuffle(deck)
            dealt = deck[:PLAYERS]
        self.first_deal = tuple(dealt)
        self.cards = list(dealt)  # type: ignore[arg-type]
        self.pile = [card for card in ALL_CARDS if card not in dealt]
        self._emit("dealt")
        self._finish_draft()

    def _begin_draft(self) -> None:
        """Night 2 on: the last Ace-slot player drafts first; the pile passes left (MM-15/17)."""
        in_game = [s for s in self.seating if self.active[s]]
        start = self.starter
        while not self.active[start]:
            start = self.seating[(self.seating.index(start) + 1) % PLAYERS]
        at = in_game.index(start)
        self.drawers = tuple(in_game[at:] + in_game[:at])
        self.drawn = 0
        self.pile = [*SLOT_CARDS[: len(in_game)], JOKER]
        self.phase = DRAFT_PHASE
        self._emit("draft", drawers=list(self.drawers), cards=list(self.pile))

    def _finish_draft(self) -> None:
        (extra,) = self.pile
        self.extra = extra
        holder = {card: seat for seat, card in enumerate(self.cards) if card is not None}
        self.joker = holder.get(JOKER, NOBODY)
        slots = SLOT_CARDS[: sum(self.active)]
        self.order = tuple(self.joker if card == extra else holder[card] for card in slots)
        self.starter = self.order[0]
        self.slot = 0
        self.phase = PLACEMENT_PHASE
        self._emit(
            "order",
            extra=extra,
            joker=None if self.joker == NOBODY else self.joker,
            order=list(self.order),
            cards={str(s): c for s, c in enumerate(self.cards) if c is not None},
        )

    # -- the revelation phase ---------------------------------------------------------------
    def _end_night(self) -> None:
        result = resolve(self.roles, self.active, self.targets, self.cells, self.neighbours)
        if result.captured != NOBODY:
            self.captures[result.captured] += 1
        if result.poisoned != NOBODY:
            self.poisons[result.poisoned] += 1
        departed = []
        for seat in range(PLAYERS):
            if not self.active[seat]:
                continue
            if result.colours[seat] == "GREEN":
                self.greens[seat] += 1
            how = (
                "jailed"
                if self.captures[seat] >= 3
                else "dead"
                if self.poisons[seat] >= 3
                else None
            )
            if how is not None:
                departed.append((seat, how))
        record = NightRecord(
            self.night,
            tuple(self.active),
            tuple(self.cells),
            tuple(self.cards),
            tuple(self.targets),
            result,
            tuple(departed),
        )
        self.nights.append(record)
        # Payloads are built on demand: playouts resolve many nights that nobody reads. They
        # are logged as plain numbers (`_lazy_payload`): a bound method or a partial per seat
        # would be kept, and walked by the garbage collector, for the rest of the game.
        night = len(self.nights) - 1
        self._emit_lazy("revelation", None, night)
        for seat in range(PLAYERS):
            if self.active[seat]:
                self._emit_lazy("result", (seat,), (night, seat))
        for seat, how in departed:
            self.active[seat] = False
            self.fate[seat] = how
        self._check_end()

    def _lazy_payload(self, data: Any) -> dict[str, Any]:
        """A night's revelation (its index) or a seat's result of it ((index, seat))."""
        if data.__class__ is int:
            return self.nights[data].public()
        night, seat = data
        return self.nights[night].private(seat)

    def _seat_of(self, role: int) -> int:
        return self.roles.index(role)

    def _check_end(self) -> None:
        duke, assassin = self._seat_of(DUKE), self._seat_of(ASSASSIN)
        if self.fate[duke] is not None:
            self._end(
                evil=True,
                reason=f"the Duke was {'killed' if self.fate[duke] == 'dead' else 'jailed'}",
            )
        elif self.fate[assassin] is not None:
            self._end(evil=False, reason="the Assassin was jailed")
        elif self.options["max_turns"] is not None and self.night >= self.options["max_turns"]:
            self._end(
                evil=False,
                reason=f"the ball ended after {_nights(self.night)} with the Duke alive",
                capped=True,
            )
        else:
            self._begin_night()

    def _end(self, *, evil: bool, reason: str, capped: bool = False) -> None:
        team = (ASSASSIN, SEDUCTRESS) if evil else (CONSTABLE, DUKE)
        winners = {self._seat_of(role) for role in team}
        thug = self._seat_of(THUG)
        if self.options["thug_mode"] == "with_winner" or self.active[thug]:
            winners.add(thug)
        self.phase = OVER
        self._emit("unmasked", roles=[ROLE_NAMES[r] for r in self.roles])
        self._finish(
            Outcome.win_loss(
                PLAYERS, winners, reason, capped=capped, scores=tuple(float(g) for g in self.greens)
            )
        )

    def _begin_night(self) -> None:
        self.night += 1
        self.phase = TARGET_PHASE
        self.targets = [NOBODY] * PLAYERS
        self.undecided = sum(self.active)
        # Who may be targeted is fixed for the whole night: build each seat's menu once.
        active = self.active
        self.menus = [
            [TARGET[t] for t in range(PLAYERS) if active[t] and t != s] for s in range(PLAYERS)
        ]
        self.cards = [None] * PLAYERS
        self.seen = [None] * PLAYERS
        self.cells = [None] * PLAYERS
        self.occupant = {}
        self.pile = []
        self.drawers = ()
        self.order = ()
        self.extra = None
        self.joker = NOBODY
        self._emit("night", night=self.night)

    # -- what a seat may know ---------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        return self._seat_view(seat, shared=False)

    def _shared_view(self, seat: int | None) -> dict[str, Any]:
        # A server sends a view to every seat after every move: what every seat sees alike is
        # built once per position, and finished nights once per game (see `shared_view`).
        return self._seat_view(seat, shared=True)

    def _seat_view(self, seat: int | None, shared: bool) -> dict[str, Any]:
        """The view of ``seat``; ``shared``: from parts kept between calls (same content)."""
        if shared:
            key = (self.actions_played, self.log_length)
            memo = self._public_memo
            if memo is None or memo[0] != key:
                memo = self._public_memo = (key, self._public_view(shared=True))
            view = memo[1].copy()
        else:
            view = self._public_view(shared=False)
        if view["phase"] == DRAFT_PHASE:
            view["draft"] = self._draft_view(seat)  # the drawer sees the pile
        if seat is not None:
            view["you"] = self._private_view(seat, shared)
        return view

    def _public_view(self, shared: bool) -> dict[str, Any]:
        """What every seat's view holds alike (the draft and "you" are filled in per seat)."""
        phase = self.phase
        placing = phase == PLACEMENT_PHASE
        table = [
            {
                "seat": p,
                "status": self.fate[p] or "in",
                "captures": self.captures[p],
                "poisons": self.poisons[p],
                "decided": (self.targets[p] != NOBODY)
                if phase == TARGET_PHASE and self.active[p]
                else None,
                "card": self.cards[p] if placing else None,
                "cell": self.cells[p],
            }
            for p in range(PLAYERS)
        ]
        return {
            "night": self.night,
            "phase": phase,
            "board": self.board.to_json(),
            "max_turns": self.options["max_turns"],
            "seating": list(self.seating),
            "table": table,
            "draft": None,
            "placement": self._placement_view() if placing else None,
            "nights": (self._night_views().public if shared else [r.public() for r in self.nights]),
            "you": None,
            "roles": [ROLE_NAMES[r] for r in self.roles] if phase == OVER else None,
        }

    def _draft_view(self, seat: int | None) -> dict[str, Any]:
        drawer = self.drawers[self.drawn]
        return {
            "drawers": list(self.drawers),
            "drawn": list(self.drawers[: self.drawn]),
            "drawer": drawer,
            "pile_size": len(self.pile),
            "pile": list(self.pile) if seat == drawer else None,
        }

    def _placement_view(self) -> dict[str, Any]:
        return {
            "order": list(self.order),
            "slot": self.slot,
            "placer": self.order[self.slot],
            "extra": self.extra,
            "joker": None if self.joker == NOBODY else self.joker,
        }

    def _private_view(self, seat: int, shared: bool) -> dict[str, Any]:
        seen = self.seen[seat]
        return {
            "role": ROLE_NAMES[self.roles[seat]],
            "target": None if self.targets[seat] == NOBODY else self.targets[seat],
            "card": self.cards[seat],
            "pile_seen": None if seen is None else list(seen),
            "results": (
                self._night_views().results(seat)
                if shared
                else [r.private(seat) for r in self.nights if r.active[seat]]
            ),
        }

    def _night_views(self) -> _NightsJson:
        """The JSON of every finished night for shared views, reusing what this state (or the
        state it was cloned from) built: entries are kept while their record is the same object.
        """
        known, nights = self._night_json, self.nights
        entries = known.entries
        if len(entries) == len(nights) and (not entries or entries[-1].record is nights[-1]):
            return known
        kept = 0
        while kept < min(len(entries), len(nights)) and entries[kept].record is nights[kept]:
            kept += 1
        known = _NightsJson(entries[:kept] + tuple(_NightJson(r) for r in nights[kept:]))
        self._night_json = known
        return known

    # -- sampling what a seat cannot see ----------------------------------------------------
    def determinize(self, seat: int, rng: Rng) -> MurderState:
        from .belief import determinize

        return determinize(self, seat, rng)

    def role_of(self, seat: int) -> str:
        """The role of ``seat``: a secret, for referees and tests only."""
        return ROLE_NAMES[self.roles[seat]]


class MasqueradeMurder(Game):
    """Five masked roles, secret targets, and a seat board where only neighbours can act."""

    id = "masquerade-murder"
    name = "Masquerade Murder"
    summary = "Five masked roles, secret targets, seat placement: catch or kill before dawn."
    player_counts = (PLAYERS,)
    options = OPTIONS
    action_table = ACTIONS
    state_class = MurderState
    max_turns_is_rule = True  # the ball ends after the last night and Good wins (MM-20)
