"""The Masquerade Ball: the referee (seed 001, RULINGS Part 2).

Every physical card has a fixed index (``cid``): entourage ``e`` owns cids ``14e..14e+13`` at
the start. A card's rank is secret; where it is is public (a square, a ballroom slot, or a pile
whose order is public: hands, prisons, graveyards). Each seat keeps a bitmask of the cards whose
identity it knows (MB-11, perfect memory); views show a face-down card's rank only to seats
whose bit is set. A turn is a sequence of small actions: ``inspect``, optionally ``play`` +
``place``, then the moves, swaps and attacks of the acting cards, then their abilities (the
seed's order, MB-52; a card brought in by an ability moves after it), and ``end``, which
untaps and resolves the attacks (the verdicts). Between two turns the referee runs the steps
in ``todo``: conquests (a conquest window may ask the conqueror to release others' prisoners
or hand the courtroom back, MB-47, MB-28), the end checks, then release windows for the other
prison holders (MB-46); then the next turn begins.

Nothing another seat can see depends on a rank it has not seen (flags, names, obligations):
`belief.py` relies on it to sample exactly what a seat may still believe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from intrigue.engine import (
    MAX_TURNS,
    Action,
    Game,
    IllegalAction,
    InvalidOption,
    Option,
    Outcome,
    Rng,
    State,
)

from .actions import (
    ACTIONS,
    END,
    FOUR_ACTIONS,
    FREE,
    LIBERATE,
    PASS,
    PLACE_HAND,
    PLAY,
    RELEASE,
    RESURRECT,
    TWO_ACTIONS,
    BoardActions,
)
from .board import (
    ARISTOCRACY,
    FOUR,
    RANK_LABELS,
    RANKS,
    TOKEN_RANKS,
    TWO,
    Board,
    MoveTable,
    pattern_name,
)
from .circle import ATTACKER, DEFENDER, VERDICTS, Verdict

CARDS = 14  # per entourage
SUITS2 = ("s", "h")  # North: spades and the black Joker; South: hearts and the red Joker
SUITS4 = ("s", "d", "h", "c")  # North, East, South, West (MB-25)
SIDES2 = ("North", "South")
SIDES4 = ("North", "East", "South", "West")
AXES4 = (0, 1, 0, 1)  # NS for North and South, EW for East and West (§2.6)
AXIS_NAMES = ("NS", "EW")

# Where a card is when it is not on a square (its `pos`).
HAND, PRISON, GRAVE, OUT, ATTACKING, IN_BALL, LIMBO = -2, -3, -4, -5, -6, -7, -8
EMPTY = -1
NOBODY = -1

# Acting-card flags for the turn in progress.
F_MOVE = 1  # may still make its move
F_INV = 2  # may still invoke its ability
F_MUST = 4  # the must-move rule applies (the inspected and the played card, MB-10)
F_MOVED = 8  # changed place this turn (moved, swapped, delivered)
F_INVOKED = 16
F_ROTATED = 32  # four players: an aristocrat that rotated may still make a non-jump move
F_DECLINED = 64  # an ability was used before it moved: its move is over (the seed's order)

INSPECT, MAIN, PLACE, DROP, OVER = "inspect", "main", "place", "drop", "over"
WINDOW, CONQUEST = "release", "conquest"  # decisions between turns (MB-46, MB-47)

ABILITY = {6: "diplomat", 5: "spy", 4: "bishop", 3: "priest", 2: "nun"}
EVEN = frozenset((2, 4, 6, 8, 10))  # no centre pip (MB-6)


# -- event payloads naming ranks: built when the log is read, from the reading state's ranks (a
# determinized sample gets its ranks after its log is written; see BallState.events) ----------
def _saw(square: str, cid: int, rank: tuple[int, ...]) -> dict[str, Any]:
    return {"square": square, "rank": RANK_LABELS[rank[cid]]}


def _unmask(
    seat: int, square: str, attacking: bool, cid: int, ability: str, rank: tuple[int, ...]
) -> dict[str, Any]:
    out = {"seat": seat, "square": square, "rank": RANK_LABELS[rank[cid]], "ability": ability}
    if attacking:
        out["attacking"] = True  # the card is on its way onto ``square``, attacking it
    return out


def _judged(square: str, a: int, d: int, rank: tuple[int, ...]) -> dict[str, Any]:
    return {"square": square, "attacker": RANK_LABELS[rank[a]], "defender": RANK_LABELS[rank[d]]}


def _verdict_data(
    square: str, origin: str, winner: str, a: int, d: int, rank: tuple[int, ...]
) -> dict[str, Any]:
    out = {"square": square, "frm": origin, "winner": winner}
    if a != EMPTY:
        out["attacker"] = RANK_LABELS[rank[a]]  # flipped face up by its automatic ability
    if d != EMPTY:
        out["defender"] = RANK_LABELS[rank[d]]
    return out


def _check_deals(value: list[str]) -> None:
    for deal in value:
        if sorted(deal.lower().split("-")) != sorted(TOKEN_RANKS):
            raise InvalidOption(
                "option deals: each entourage is the 14 ranks a,2..10,j,q,k,jk joined by '-', "
                f"each once, not {deal!r}"
            )


def parse_card(spec: str) -> tuple[int, int, str, bool]:
    """A `setup` entry ``<entourage>:<rank>@<place>[!]`` -> (entourage, rank, place, face up).

    The place is a square name, ``hand``, ``grave``, ``prison<entourage>`` or ``ball`` (four
    players); a trailing ``!`` puts the card face up.
    """
    try:
        who, rest = spec.split(":", 1)
        token, place = rest.split("@", 1)
        return int(who), TOKEN_RANKS[token.lower()], place.rstrip("!").lower(), place[-1:] == "!"
    except (ValueError, KeyError):
        raise InvalidOption(
            f"option setup: {spec!r} is not <entourage>:<rank>@<place>[!], e.g. 0:q@c3"
        ) from None


def _check_setup(value: list[str]) -> None:
    seen = set()
    for spec in value:
        who, rank, _, _ = parse_card(spec)
        if not 0 <= who < 4 or (who, rank) in seen:
            raise InvalidOption(f"option setup: bad or repeated card {spec!r}")
        seen.add((who, rank))


OPTIONS = (
    MAX_TURNS,
    Option(
        "deals",
        list,
        None,
        "Fix each entourage's face-down layout, one entry per seat: the 14 ranks "
        "(a,2..10,j,q,k,jk) joined by '-', in the order throne row b-e, step row a-f, front row "
        "b-e of its courtroom (default: shuffled).",
        check=_check_deals,
        fixes="the entourages' face-down layouts",
    ),
    Option(
        "first",
        int,
        None,
        "The seat that plays first (default: random, MB-21).",
        minimum=0,
        fixes="who plays first",
    ),
    Option(
        "setup",
        list,
        None,
        "Set up an exact position instead of the deal (tests, puzzles): entries "
        "<entourage>:<rank>@<place>[!] with place a square, hand, grave, prison<e> or ball, "
        "'!' for face up. Cards not listed are out of the game.",
        check=_check_setup,
        fixes="the whole starting position",
    ),
    Option("eight", str, "A", "The 8's pip map: A or B (MB-4).", choices=("A", "B")),
    Option(
        "release",
        str,
        "any",
        "any: besides releasing prisoners during your own turn, a release window opens between "
        "turns for every other seat whose prison holds cards (MB-22, MB-46); own: only during "
        "your own turn.",
        choices=("any", "own"),
    ),
    Option(
        "abilities",
        str,
        "after-moves",
        "after-moves: the seed's turn order, the acting cards move (or decline) before any "
        "ability is used, so a Spy's reveal comes too late for this turn's attacks; cards "
        "brought in by an ability move after it (MB-35, MB-52); interleaved: moves and "
        "abilities in any order.",
        choices=("after-moves", "interleaved"),
    ),
    Option(
        "memory",
        str,
        "perfect",
        "perfect: views show every card the seat has seen; concentration: own board cards only "
        "while they act or sit on their own throne (MB-11).",
        choices=("perfect", "concentration"),
    ),
)

MOVE_TABLES = {
    (eight, geo.courts): {rank: geo.tables[pattern_name(rank, eight)] for rank in RANKS}
    for eight in ("A", "B")
    for geo in (TWO, FOUR)
}


class BallState(State):
    """One game of The Masquerade Ball."""

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        four = players >= 3  # the palace of four courtrooms around a ballroom zone (§2.6)
        self.zone = four
        self.geo: Board = FOUR if four else TWO
        self.names: BoardActions = FOUR_ACTIONS if four else TWO_ACTIONS
        self.moves: dict[int, MoveTable] = MOVE_TABLES[options["eight"], self.geo.courts]
        self.suits = SUITS4 if four else SUITS2
        self.ncards = CARDS * players
        self.rank: tuple[int, ...] = ()
        self.owner = [c // CARDS for c in range(self.ncards)]  # entourage each card serves
        self.ctrl = list(range(players))  # seat controlling each entourage (NOBODY: vacant)
        self.board = [EMPTY] * self.geo.size
        self.pos = [OUT] * self.ncards
        self.up = [False] * self.ncards
        self.axis = [AXES4[c // CARDS] if four else 0 for c in range(self.ncards)]
        self.known = [0] * players  # bitmask of cids whose identity each seat knows now
        # Every time a seat comes to know a card it did not know, in order: a shared, immutable
        # chain (previous link, seat, cid). The ranks along it are what the seat has seen; the
        # determinizer holds samples to them (belief.py).
        self.learnlog: tuple[Any, int, int] | None = None
        self.hand: list[list[int]] = [[] for _ in range(players)]  # per entourage
        self.prison: list[list[int]] = [[] for _ in range(players)]  # per entourage (holder)
        self.grave: list[list[int]] = [[] for _ in range(players)]  # per entourage (owner)
        self.ball: list[int] = []  # four players: the ballroom, in order of arrival
        self.first = 0
        self.ent = 0  # the entourage whose turn it is
        self.phase = INSPECT
        self.acts: dict[int, int] = {}  # acting cards of this turn -> F_* flags
        self.pending: list[tuple[int, int, str]] = []  # (attacker, defender, origin name)
        self.placing = (EMPTY, "")  # (card, "play" | "free" | "resurrect") awaiting `place`
        self.delivering = EMPTY  # the card the Nun is delivering, awaiting `drop`
        self.liberable = False  # the open conquest window may hand the courtroom back (MB-28)
        self.did = False  # a move or an ability happened this turn: no more playing
        self.played = False
        self.must_play = False
        self.turns = 0
        self.fought = 0  # the turn count when an attack was last settled (public; for bots)
        self.holding = [False] * (players * players)  # [seat * players + courtroom]
        # Between turns: the steps still to run (conquests, the end checks, release windows).
        self.todo: list[tuple[str, int]] = []
        self.win = EMPTY  # the entourage whose prison (or conquest) the open window is about
        self.deciding = NOBODY  # the seat deciding in a window
        self._legal: list[Action] | None = None
        self._plans: dict[int, Any] = {}  # determinization plans per seat (belief.py)
        # The public position each turn started from (`_public_position`, hashed), so players
        # and bots can tell a position coming round again: how often this turn's had
        # come before, and how many turns so far started from a position seen before.
        self.positions: list[int] = []
        self.repeats = 0
        self.repetitions = 0

    # -- set-up -----------------------------------------------------------------------------
    def _start(self) -> None:
        opts = self.options
        if opts["setup"] is not None:
            self._setup_position(opts["setup"])
        else:
            self._deal(opts["deals"])
        first = opts["first"]
        if first is None:
            first = self.rng.randrange(self.players)
        elif first >= self.players:
            raise InvalidOption(f"option first: there is no seat {first}")
        self.first = first
        self._emit("setup", first=first, players=self.players)
        self.ent = (first - 1) % self.players
        self._next_entourage()

    def _deal(self, deals: list[str] | None) -> None:
        if deals is not None and len(deals) != self.players:
            raise InvalidOption(f"option deals: give {self.players} entourages, one per seat")
        ranks: list[int] = []
        for e in range(self.players):
            if deals is not None:
                layout = [TOKEN_RANKS[t] for t in deals[e].lower().split("-")]
            else:
                layout = list(RANKS)
                self.rng.shuffle(layout)
            ranks += layout
        self.rank = tuple(ranks)
        for e in range(self.players):
            for k, sq in enumerate(self.geo.start[e]):
                self._put(e * CARDS + k, sq)

    def _setup_position(self, specs: list[str]) -> None:
        ranks = [0] * self.ncards
        used = [0] * self.players
        placed = []
        for spec in specs:
            e, rank, place, up = parse_card(spec)
            if e >= self.players:
                raise InvalidOption(f"option setup: there is no entourage {e} in {spec!r}")
            cid = e * CARDS + used[e]
            used[e] += 1
            ranks[cid] = rank
            placed.append((cid, place, up, spec))
        for e in range(self.players):
            listed = {ranks[c] for c in range(e * CARDS, e * CARDS + used[e])}
            rest = [r for r in RANKS if r not in listed]
            for k, rank in enumerate(rest):
                ranks[e * CARDS + used[e] + k] = rank
        self.rank = tuple(ranks)
        for cid, place, up, spec in placed:
            self._setup_card(cid, place, spec)
            if up:
                self.up[cid] = True
                self._reveal_to_all(cid)

    def _setup_card(self, cid: int, place: str, spec: str) -> None:
        geo = self.geo
        if place in geo.index:
            sq = geo.index[place]
            if geo.court[sq] >= self.players:
                raise InvalidOption(f"option setup: {place} is in no courtroom of this palace")
            if self.board[sq] != EMPTY:
                raise InvalidOption(f"option setup: two cards on {place}")
            self._put(cid, sq)
        elif place in ("hand", "grave"):
            self._to_zone(cid, HAND if place == "hand" else GRAVE, cid // CARDS)
        elif place[:6] == "prison" and place[6:].isdigit() and int(place[6:]) < self.players:
            self._to_zone(cid, PRISON, int(place[6:]))
        elif place == "ball" and self.zone:
            self.pos[cid] = IN_BALL
            self.ball.append(cid)
        else:
            raise InvalidOption(f"option setup: unknown place in {spec!r}")

    def _copy_mutables(self, new: State) -> None:
        assert isinstance(new, BallState)
        new.owner = self.owner.copy()
        new.ctrl = self.ctrl.copy()
        new.board = self.board.copy()
        new.pos = self.pos.copy()
        new.up = self.up.copy()
        new.axis = self.axis.copy()
        new.known = self.known.copy()
        new.hand = [h.copy() for h in self.hand]
        new.prison = [p.copy() for p in self.prison]
        new.grave = [g.copy() for g in self.grave]
        new.ball = self.ball.copy()
        new.acts = self.acts.copy()
        new.pending = self.pending.copy()
        new.holding = self.holding.copy()
        new.todo = self.todo.copy()
        new.positions = self.positions.copy()
        new._plans = {}

    # -- cards and knowledge ----------------------------------------------------------------
    def _put(self, cid: int, sq: int) -> None:
        """Put a card on a square; on its own throne its owner may look at it any time."""
        self.board[sq] = cid
        self.pos[cid] = sq
        owner = self.owner[cid]
        if self.geo.throne_of[sq] == owner and self.ctrl[owner] != NOBODY:
            self._learn(self.ctrl[owner], cid)

    def _to_ball(self, cid: int) -> None:
        self.pos[cid] = IN_BALL
        self.ball.append(cid)

    def _to_zone(self, cid: int, zone: int, e: int) -> None:
        """Put a card in entourage ``e``'s hand, prison or graveyard; its keeper looks at it."""
        self.pos[cid] = zone
        self.up[cid] = False
        pile = self.hand[e] if zone == HAND else self.prison[e] if zone == PRISON else self.grave[e]
        pile.append(cid)
        if self.ctrl[e] != NOBODY:
            self._learn(self.ctrl[e], cid)

    def _lift(self, cid: int) -> None:
        """Take a card off its square or out of the ballroom."""
        pos = self.pos[cid]
        if pos >= 0:
            self.board[pos] = EMPTY
        elif pos == IN_BALL:
            self.ball.remove(cid)

    def _learn(self, seat: int, cid: int) -> None:
        bit = 1 << cid
        if not self.known[seat] & bit:
            self.known[seat] |= bit
            self.learnlog = (self.learnlog, seat, cid)

    def _reveal_to_all(self, cid: int) -> None:
        for seat in range(self.players):
            self._learn(seat, cid)

    def _look_at_own(self, seat: int) -> None:
        """What a seat may look at any time: its thrones' own cards, hands, graveyards, prisons."""
        for e in range(self.players):
            if self.ctrl[e] != seat:
                continue
            for sq in self.geo.thrones[e]:
                cid = self.board[sq]
                if cid != EMPTY and self.owner[cid] == e:
                    self._learn(seat, cid)
            for pile in (self.hand[e], self.grave[e], self.prison[e]):
                for cid in pile:
                    self._learn(seat, cid)

    def _place_of(self, cid: int) -> int:
        """The place index of a card on a square or in the ballroom."""
        pos = self.pos[cid]
        return pos if pos >= 0 else self.geo.size + self.ball.index(cid)

    def _name_of(self, cid: int) -> str:
        """Where a card is: its square, ``ball<i>``, or for an attacker the square it attacks."""
        pos = self.pos[cid]
        if pos >= 0:
            return self.geo.names[pos]
        if pos == IN_BALL:
            return f"ball{self.ball.index(cid)}"
        if pos == ATTACKING:
            return next((self._name_of(d) for a, d, _ in self.pending if a == cid), "-")
        return "-"

    def _is_enemy(self, cid: int) -> bool:
        return self.ctrl[self.owner[cid]] != self.ctrl[self.ent]

    # -- whose turn -------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The seat acting now (the controller of the entourage whose turn it is)."""
        return self.ctrl[self.ent]

    @property
    def to_move(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        return (self.deciding if self.deciding >= 0 else self.ctrl[self.ent],)

    def _may_move(self, seat: int) -> bool:
        if self.phase == OVER:
            return False
        return seat == (self.deciding if self.deciding >= 0 else self.ctrl[self.ent])

    def _on_board(self, e: int) -> bool:
        """Whether entourage ``e`` has a card on a square or in the ballroom."""
        owner = self.owner
        for c in self.board:
            if c >= 0 and owner[c] == e:
                return True
        return any(owner[c] == e for c in self.ball)

    def _begin_turn(self) -> None:
        """Start the turn of `ent` (MB-23: with no card on the board, a card must be played)."""
        e = self.ent
        self.acts = {}
        self.pending = []
        self.did = self.played = False
        self._count_position()
        self._emit("turn", turn=self.turns + 1, seat=self.ctrl[e], side=e)
        if self._on_board(e):
            self.phase = INSPECT
            self.must_play = False
        else:
            self.phase = MAIN  # nothing to inspect: step 1 is skipped and a card must be played
            self.must_play = True

    def _count_position(self) -> None:
        """Note the public position this turn starts from, and how often it came before."""
        key = hash(self._public_position())
        self.repeats = repeats = self.positions.count(key)
        self.repetitions += repeats > 0
        self.positions.append(key)

    def _public_position(self) -> tuple[Any, ...]:
        """What everyone sees, as integers: each square's card by its back (side), face and
        rank if face up (and facing, four players), the ballroom, hand sizes, whose cards each
        prison and graveyard holds, who controls and holds what, and the side to play."""
        rank, up, owner, axis = self.rank, self.up, self.owner, self.axis

        def cards(cids: list[int]) -> tuple[int, ...]:
            # One comprehension, not a call a square: a search asks this every turn it plays.
            return tuple(
                [
                    -1
                    if c == EMPTY
                    else ((owner[c] * 2 + up[c]) * 16 + (rank[c] if up[c] else 0)) * 4 + axis[c]
                    for c in cids
                ]
            )

        return (
            self.ent,
            cards(self.board),
            cards(self.ball),
            tuple(map(len, self.hand)),
            tuple(tuple(owner[c] for c in p) for p in self.prison),
            tuple(tuple(c // CARDS for c in g) for g in self.grave),
            tuple(self.ctrl),
            tuple(self.holding),
        )

    def _side(self, e: int) -> str:
        return (SIDES4 if self.zone else SIDES2)[e]

    # -- legal actions ----------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[Action]:
        if not self._may_move(seat):
            return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal.copy()

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase == PLACE:
            return self._place_actions()
        if phase == DROP:
            return [self.names.drop[d] for d in self._drop_places(self.delivering)]
        if phase in (WINDOW, CONQUEST):
            out = RELEASE[: len(self.prison[self.win])]
            if self.liberable:
                out.append(LIBERATE)
            out.append(PASS)
            return out
        out: list[Action] = []
        if phase == INSPECT:
            inspect = self.names.inspect
            e = self.ent
            owner = self.owner
            for sq, cid in enumerate(self.board):
                if cid >= 0 and owner[cid] == e:
                    out.append(inspect[sq])
            if self.ball:
                n = self.geo.size
                out += [inspect[n + i] for i, cid in enumerate(self.ball) if owner[cid] == e]
        else:
            if not self.did and not self.played and self.hand[self.ent] and self._empty_court():
                out += PLAY[: len(self.hand[self.ent])]
            up, rank = self.up, self.rank
            bound = self._obligations()
            # The seed's order: abilities once every card bound to move has moved (MB-52).
            abilities = not bound or self.options["abilities"] == "interleaved"
            for cid, flags in self.acts.items():
                if flags & F_MOVE:
                    self._move_actions(cid, flags, out)
                if abilities and flags & F_INV and not up[cid] and rank[cid] in ABILITY:
                    self._ability_actions(cid, out)
            if not self.must_play and not bound:
                out.append(END)
        prison = self.prison[self.ent]
        if prison:
            out += RELEASE[: len(prison)]
        return out

    def _empty_court(self) -> list[int]:
        board = self.board
        return [sq for sq in self.geo.squares_of[self.ent] if board[sq] == EMPTY]

    def _place_actions(self) -> list[Action]:
        place = self.names.place
        out = [place[sq] for sq in self._empty_court()]
        if self.placing[1] == "free":
            out.append(PLACE_HAND)
        return out

    def _attacked(self) -> set[int]:
        return {d for _, d, _ in self.pending}

    def _targets(self, cid: int, flags: int) -> list[tuple[int, int]]:
        """(place, kind) the acting card may go to: kind 0 a move, 1 an attack, 2 a swap."""
        pos = self.pos[cid]
        if pos == IN_BALL:
            return self._ball_targets(cid, flags)
        rank = self.rank[cid]
        table = self.moves[rank]
        board, owner, ctrl = self.board, self.owner, self.ctrl
        me = ctrl[self.ent]
        pending = self.pending
        found: list[tuple[int, int]] = []
        swap_ok = self.geo.court[pos] == self.ent
        links = self.geo.links[pos]
        for d in table.direct[pos]:
            o = board[d]
            if o == EMPTY:
                found.append((d, 0))
            elif ctrl[owner[o]] != me:
                if not pending or o not in self._attacked():
                    found.append((d, 1))
            elif swap_ok and owner[o] == self.ent and d in links and not self._moved(o):
                found.append((d, 2))  # the partner changes square too: once a turn (MB-35)
        if rank in ARISTOCRACY:
            for throne, vias in table.composite[pos]:
                if any(board[v] == EMPTY for v in vias):
                    o = board[throne]
                    if o == EMPTY:
                        found.append((throne, 0))
                    elif ctrl[owner[o]] != me and o not in self._attacked():
                        found.append((throne, 1))
        if self.zone and self.geo.local[pos][0] == 2:
            found += self._into_ball_targets(cid)
        return found

    def _moved(self, cid: int) -> bool:
        """Whether a card already changed square this turn (moved, swapped or delivered)."""
        return bool(self.acts.get(cid, 0) & F_MOVED)

    def _move_actions(self, cid: int, flags: int, out: list[Action]) -> None:
        src = self._place_of(cid)
        if src >= self.geo.size:
            src = self.names.ball
        move = self.names.move[src]
        swap = self.names.swap[src] if src < self.geo.size else {}
        for place, kind in self._targets(cid, flags):
            out.append(swap[place] if kind == 2 else move[place])
        if src == self.names.ball and not flags & F_ROTATED:
            out.append(self.names.rotate)  # type: ignore[arg-type]

    # four-player ballroom moves (MB-26) -----------------------------------------------------
    def _ball_targets(self, cid: int, flags: int) -> list[tuple[int, int]]:
        """A ballroom card: attack a same-axis enemy in the ballroom, or leave onto a front row
        (an aristocrat that has not rotated: also a second row) of a courtroom of its axis."""
        if flags & F_ROTATED and self.rank[cid] not in ARISTOCRACY:
            return []  # its rotation was its move
        geo = self.geo
        n = geo.size
        axis = self.axis[cid]
        attacked = self._attacked()
        found: list[tuple[int, int]] = []
        for i, other in enumerate(self.ball):
            if (
                other != cid
                and self.axis[other] == axis
                and self._is_enemy(other)
                and other not in attacked
            ):
                found.append((n + i, 1))
        rows = [geo.front]
        if self.rank[cid] in ARISTOCRACY and not flags & F_ROTATED:
            rows.append(geo.second)
        for c in range(self.players):  # three players: no West courtroom (MB-30)
            if AXES4[c] != axis:
                continue
            for row in rows:
                for sq in row[c]:
                    o = self.board[sq]
                    if o == EMPTY:
                        found.append((sq, 0))
                    elif self._is_enemy(o) and o not in attacked:
                        found.append((sq, 1))
        return found

    def _into_ball_targets(self, cid: int) -> list[tuple[int, int]]:
        """A front-row card: enter the ballroom, or attack a same-axis enemy in it."""
        n = self.geo.size
        found = [(self.names.ball, 0)]
        attacked = self._attacked()
        axis = self.axis[cid]
        for i, other in enumerate(self.ball):
            if self.axis[other] == axis and self._is_enemy(other) and other not in attacked:
                found.append((n + i, 1))
        return found

    def _ability_actions(self, cid: int, out: list[Action]) -> None:
        kind = ABILITY[self.rank[cid]]
        names = self.names
        if kind == "spy":
            out += [names.spy[p] for p, c in self._board_places() if c != cid and not self.up[c]]
        elif kind == "priest":
            out += [names.redeem[p] for p, c in self._board_places() if c != cid and self.up[c]]
        elif kind == "nun":
            drops = self._drop_places(EMPTY)
            many = len(drops) > 1
            for p, _ in self._deliverable():
                if many or (drops and drops[0] != p):
                    out.append(names.deliver[p])
        elif kind == "diplomat":
            out += FREE[: len(self._my_prisoners())]
        elif kind == "bishop" and self._empty_court():
            out += RESURRECT[: len(self._graves())]

    def _board_places(self) -> list[tuple[int, int]]:
        places = [(sq, c) for sq, c in enumerate(self.board) if c != EMPTY]
        if self.ball:
            n = self.geo.size
            places += [(n + i, c) for i, c in enumerate(self.ball)]
        return places

    def _deliverable(self) -> list[tuple[int, int]]:
        """(place, card) of own cards the Nun may deliver: on the board, not yet moved."""
        e = self.ent
        return [
            (p, c) for p, c in self._board_places() if self.owner[c] == e and not self._moved(c)
        ]

    def _drop_places(self, cid: int) -> list[int]:
        """Where a delivered card may go: any square but an enemy throne, a free square or an
        enemy not yet attacked this turn (MB-16); with four players also the ballroom."""
        me = self.ctrl[self.ent]
        attacked = self._attacked()
        ctrl, owner, throne_of = self.ctrl, self.owner, self.geo.throne_of
        court, players = self.geo.court, self.players
        here = self.pos[cid] if cid != EMPTY else EMPTY
        found = [
            sq
            for sq, o in enumerate(self.board)
            if court[sq] < players  # three players: no West courtroom (MB-30)
            and (throne_of[sq] < 0 or ctrl[throne_of[sq]] == me)
            and (o == EMPTY or (ctrl[owner[o]] != me and o not in attacked))
        ]
        if self.zone and here != IN_BALL:
            found.append(len(self.names.drop) - 1)
        return [d for d in found if d != here]

    def _my_prisoners(self) -> list[tuple[int, int]]:
        """(holder entourage, cid) of own cards in enemy prisons, in the public order."""
        e = self.ent
        me = self.ctrl[e]
        return [
            (h, c)
            for h in range(self.players)
            if self.ctrl[h] != me
            for c in self.prison[h]
            if self.owner[c] == e
        ]

    def _graves(self) -> list[tuple[int, int]]:
        """(owner entourage, cid): own graveyard first, then the other graveyards by seat."""
        e = self.ent
        order = [e, *(g for g in range(self.players) if g != e)]
        return [(g, c) for g in order for c in self.grave[g]]

    def _obligations(self) -> list[int]:
        """Acting cards that must still move: even ranks with an empty pip square (MB-6/10)."""
        stuck = []
        board = self.board
        for cid, flags in self.acts.items():
            if flags & F_MUST and self.rank[cid] in EVEN:
                pos = self.pos[cid]
                if pos >= 0 and any(
                    board[d] == EMPTY for d in self.moves[self.rank[cid]].must[pos]
                ):
                    stuck.append(cid)
        return stuck

    # -- playing ----------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> None:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalAction(seat, action, self._reason(action))
        self._legal = None
        self._act(seat, action)

    def _act(self, seat: int, action: Action) -> None:
        """Play an action already known to be legal."""
        verb = action.verb
        if verb == "release":
            self._release(seat, action.args[0])  # type: ignore[arg-type]
        elif verb in ("pass", "liberate"):
            self._close_window(liberate=verb == "liberate")
        elif verb == "inspect":
            self._inspect(seat, action)
        elif verb == "end":
            self._end_turn(seat)
        elif verb == "play":
            self._play(seat, action.args[0])  # type: ignore[arg-type]
        elif verb == "place":
            self._place(seat, action.args[0])
        elif verb in ("move", "swap", "rotate"):
            self._move(seat, action)
        elif verb == "drop":
            self._drop(seat, action.args[0])
        else:
            self._invoke(seat, action)

    def _reason(self, action: Action) -> str:
        """Why an action of the table is not legal now, in a player's words."""
        verb, phase = action.verb, self.phase
        if phase == PLACE:
            return "first place the card you took ('place <square of your courtroom>')"
        if phase == DROP:
            return "first say where the Nun delivers the card ('drop <square>')"
        between = phase in (WINDOW, CONQUEST)
        if verb == "release":
            holder = self.win if between else self.ent
            return f"that prison holds {len(self.prison[holder])} card(s)"
        if verb == "liberate":
            if phase != CONQUEST:
                return "only a conqueror hands a courtroom back, right after conquering it"
            return "its first owner still plays, or lost it to you: it cannot be handed back"
        if between:
            return "between turns you may only release prisoners ('release <i>') or 'pass'"
        if verb == "pass":
            return "'pass' closes a release window between turns; to finish your turn, 'end'"
        if phase == INSPECT:
            return "first inspect one of your own cards on the board ('inspect <square>')"
        if verb == "inspect":
            return "you have already inspected a card this turn"
        if verb == "end":
            if self.must_play:
                return "with no card on the board you must play one from your hand"
            names = ", ".join(self._name_of(c) for c in self._obligations())
            return f"the card on {names} has no centre pip and an empty pip square: it must move"
        if verb == "play":
            return (
                "you may play one card from your hand, before anything moves, onto an empty "
                "square of your courtroom"
            )
        if verb in ("move", "swap", "rotate"):
            return self._move_reason(action)
        if verb == "place":
            return "there is no card waiting to be placed"
        if verb == "drop":
            return "no card is being delivered"
        return self._ability_reason(verb)

    def _move_reason(self, action: Action) -> str:
        src = str(action.args[0])
        cid = self._card_named(src)
        if cid == EMPTY:
            return f"there is no acting card on {src}"
        flags = self.acts.get(cid, 0)
        if flags & F_DECLINED:
            return (
                "abilities come after the moves: once a card has unmasked, the cards that were "
                "already acting may not move any more this turn"
            )
        if not flags & F_MOVE:
            return (
                "only the inspected card, the played card and cards brought in by an ability "
                "move, once each per turn"
            )
        if action.verb == "rotate":
            return "only a card in the ballroom rotates, once a turn"
        dst = str(action.args[1])
        other = self._card_named(dst)
        if action.verb == "swap" and other != EMPTY and self._moved(other):
            return "the card on that square has already changed square this turn: once a turn"
        if other != EMPTY and not self._is_enemy(other):
            return "that square holds your own card (swaps: a step and a throne of your courtroom)"
        if other != EMPTY and other in self._attacked():
            return "that card is already attacked this turn: never attack the same square twice"
        if action.verb == "swap":
            return "swap only a step and a throne of your own courtroom, both your cards"
        return f"a {RANK_LABELS[self.rank[cid]]} cannot move from {src} to {dst} (its pip map)"

    def _ability_reason(self, verb: str) -> str:
        kind = {
            "spy": "spy",
            "redeem": "priest",
            "deliver": "nun",
            "free": "diplomat",
            "resurrect": "bishop",
        }[verb]
        if self._invoker(kind) == EMPTY:
            return (
                f"no acting card of yours can use the {kind}'s ability now: it must be a masked "
                f"{kind} inspected, played or brought in this turn"
            )
        bound = self._obligations()
        if bound and self.options["abilities"] != "interleaved":
            names = ", ".join(self._name_of(c) for c in bound)
            return f"the card on {names} must move first: abilities come after the moves"
        return {
            "spy": "the Spy unmasks another face-down card on the board",
            "priest": "the Priest redeems another face-up card on the board",
            "nun": "the Nun delivers one of your cards that has not moved this turn",
            "diplomat": "the Diplomat brings back one of your cards from an enemy prison",
            "bishop": "the Bishop raises a graveyard card onto a free square of your courtroom",
        }[kind]

    def _card_named(self, name: str) -> int:
        """The card on a named place (EMPTY if none); ``ball`` is the acting ballroom card."""
        geo = self.geo
        if name in geo.index:
            return self.board[geo.index[name]]
        if name == "ball":
            acts = self.acts
            return next((c for c in acts if self.pos[c] == IN_BALL and acts[c] & F_MOVE), EMPTY)
        if name.startswith("ball") and name[4:].isdigit() and int(name[4:]) < len(self.ball):
            return self.ball[int(name[4:])]
        return EMPTY

    def _release(self, seat: int, i: int) -> None:
        """A prisoner goes back to its owner's hand (MB-22), from the prison of the entourage
        playing, or of the window's entourage between turns."""
        holder = self.ent if self.deciding < 0 else self.win
        prison = self.prison[holder]
        cid = prison.pop(i)
        e = self.owner[cid]
        self._to_zone(cid, HAND, e)
        self._emit("released", seat=seat, prison=holder, index=i, to=e)
        if self.phase == WINDOW and not prison:
            self._close_window()  # nothing left to decide
        elif self.phase == CONQUEST and not prison and not self.liberable:
            self._close_window()

    def _inspect(self, seat: int, action: Action) -> None:
        name = str(action.args[0])
        cid = self._card_named(name)
        self.acts[cid] = F_MOVE | F_INV | F_MUST
        self.phase = MAIN
        self._learn(seat, cid)
        self._emit("inspect", seat=seat, square=name)
        self._emit_lazy("saw", (seat,), partial(_saw, name, cid))

    def _play(self, seat: int, i: int) -> None:
        hand = self.hand[self.ent]
        cid = hand.pop(i)
        if hand:
            self._forget(cid, hand)
        self.pos[cid] = LIMBO
        self.placing = (cid, "play")
        self.phase = PLACE
        self.played = True
        self.must_play = False
        self._emit("play", seat=seat, suit=self.suits[cid // CARDS])  # its back shows

    def _forget(self, taken: int, rest: list[int]) -> None:
        """The others saw a card leave a hand of several: they lose track of which is which."""
        mask = 1 << taken
        for c in rest:
            mask |= 1 << c
        keep = ~mask
        holder = self.ctrl[self.ent]
        for s in range(self.players):
            if s != holder:
                self.known[s] &= keep

    def _place(self, seat: int, where: object) -> None:
        cid, kind = self.placing
        self.placing = (EMPTY, "")
        self.phase = MAIN
        self.owner[cid] = self.ent
        self.up[cid] = False
        self._learn(seat, cid)
        if where == "hand":
            self._to_zone(cid, HAND, self.ent)
        else:
            if self.zone:
                self.axis[cid] = AXES4[self.ent]  # it faces its new courtroom's ballroom
            self._put(cid, self.geo.index[str(where)])
            # The played card acts like the inspected one; brought-in cards may act (MB-17).
            self.acts[cid] = F_MOVE | F_INV | (F_MUST if kind == "play" else 0)
        self._emit("placed", seat=seat, square=str(where), how=kind)
        self._emit_lazy("saw", (seat,), partial(_saw, str(where), cid))

    def _move(self, seat: int, action: Action) -> None:
        src = str(action.args[0])
        cid = self._card_named(src)
        flags = self.acts[cid]
        self.did = True
        if action.verb == "rotate":
            self._rotate(seat, cid, flags)
            return
        dst = str(action.args[1])
        moved = (flags | F_MOVED) & ~(F_MOVE | F_MUST | F_ROTATED)
        if action.verb == "swap":
            a, b = self.geo.index[src], self.geo.index[dst]
            other = self.board[b]
            self._put(cid, b)
            self._put(other, a)
            self.acts[cid] = moved
            self.acts[other] = (self.acts.get(other, 0) | F_MOVED) & ~(F_MOVE | F_MUST)
            self._emit("swap", seat=seat, a=src, b=dst)
            return
        defender = self._card_named(dst) if dst != "ball" else EMPTY
        self._lift(cid)
        self.acts[cid] = moved
        if defender != EMPTY:
            self.pos[cid] = ATTACKING
            self.pending.append((cid, defender, src))
            self._emit("attack", seat=seat, frm=src, to=dst)
        elif dst == "ball":
            self._to_ball(cid)
            self._emit("move", seat=seat, frm=src, to=dst)
        else:
            self._put(cid, self.geo.index[dst])
            self._emit("move", seat=seat, frm=src, to=dst)

    def _rotate(self, seat: int, cid: int, flags: int) -> None:
        self.axis[cid] ^= 1
        # Rotating uses the whole move, except that an aristocrat may still make a non-jump move
        # (MB-26). The flags do not depend on the rank (others see them): `_ball_targets` asks.
        self.acts[cid] = (flags | F_MOVED | F_ROTATED) & ~F_MUST
        self._emit("rotate", seat=seat, axis=AXIS_NAMES[self.axis[cid]])

    # -- abilities --------------------------------------------------------------------------
    def _invoker(self, kind: str) -> int:
        for cid, flags in self.acts.items():
            if flags & F_INV and not self.up[cid] and ABILITY.get(self.rank[cid]) == kind:
                return cid
        return EMPTY

    def _invoke(self, seat: int, action: Action) -> None:
        verb = action.verb
        kind = {
            "spy": "spy",
            "redeem": "priest",
            "deliver": "nun",
            "free": "diplomat",
            "resurrect": "bishop",
        }[verb]
        invoker = self._pick_invoker(kind, action)
        self.did = True
        if self.options["abilities"] != "interleaved":
            self._end_movement()
        self.acts[invoker] = (self.acts[invoker] | F_INVOKED) & ~F_INV
        self.up[invoker] = True
        self._reveal_to_all(invoker)
        self._emit_lazy(
            "unmask",
            None,
            partial(
                _unmask, seat, self._name_of(invoker), self.pos[invoker] == ATTACKING, invoker, kind
            ),
        )
        arg = action.args[0]
        if kind == "spy":
            cid = self._card_named(str(arg))
            self.up[cid] = True
            self._reveal_to_all(cid)
            self._emit_lazy("reveal", None, partial(_saw, str(arg), cid))
        elif kind == "priest":
            self.up[self._card_named(str(arg))] = False
            self._emit("redeem", square=str(arg))
        elif kind == "nun":
            cid = self._card_named(str(arg))
            self.delivering = cid
            self.phase = DROP
            self._emit("deliver", seat=seat, square=str(arg))
            # He picks his card up and may look at it: he decides whether it unmasks (MB-48).
            self._learn(seat, cid)
            self._emit_lazy("saw", (seat,), partial(_saw, str(arg), cid))
        elif kind == "diplomat":
            holder, cid = self._my_prisoners()[arg]  # type: ignore[index]
            index = self.prison[holder].index(cid)
            self.prison[holder].remove(cid)
            self._begin_placing(cid, "free")
            self._emit("free", seat=seat, prison=holder, index=index)
        else:
            g, cid = self._graves()[arg]  # type: ignore[index]
            index = self.grave[g].index(cid)
            self.grave[g].remove(cid)
            self._begin_placing(cid, "resurrect")
            self._emit("resurrect", seat=seat, graveyard=g, index=index)

    def _end_movement(self) -> None:
        """The seed's order: an ability comes after the moves, so every card acting so far that
        has not moved declines its move (none is bound to: abilities wait for those)."""
        acts = self.acts
        for cid, flags in acts.items():
            if flags & F_MOVE:
                acts[cid] = (flags | F_DECLINED) & ~(F_MOVE | F_MUST)

    def _pick_invoker(self, kind: str, action: Action) -> int:
        """The first acting card (in the order they began to act) whose ability does this."""
        return next(
            c
            for c, f in self.acts.items()
            if f & F_INV
            and not self.up[c]
            and ABILITY.get(self.rank[c]) == kind
            and action in self._ability_list(c)
        )

    def _begin_placing(self, cid: int, kind: str) -> None:
        self.pos[cid] = LIMBO
        self.placing = (cid, kind)
        self.phase = PLACE
        self._learn(self.seat, cid)  # he holds it and may look at it before placing it (MB-17)

    def _ability_list(self, cid: int) -> list[Action]:
        out: list[Action] = []
        self._ability_actions(cid, out)
        return out

    def _drop(self, seat: int, where: object) -> None:
        cid = self.delivering
        self.delivering = EMPTY
        self.phase = MAIN
        flags = self.acts.get(cid, 0)
        # The delivered card may still invoke its own ability, not make a normal move (MB-16).
        new = (flags | F_MOVED | (0 if flags & F_INVOKED else F_INV)) & ~(F_MOVE | F_MUST)
        self.acts[cid] = new
        src = self._name_of(cid)
        dst = str(where)
        defender = self._card_named(dst) if dst != "ball" else EMPTY
        self._lift(cid)
        if defender != EMPTY:
            self.pos[cid] = ATTACKING
            self.pending.append((cid, defender, src))
        elif dst == "ball":
            self._to_ball(cid)
        else:
            sq = self.geo.index[dst]
            if self.zone:
                self.axis[cid] = AXES4[self.geo.court[sq]]  # it enters facing its new courtroom
            self._put(cid, sq)
        self._emit("drop", seat=seat, frm=src, to=dst, attack=defender != EMPTY)

    # -- the end of a turn: verdicts, untap, winning, conquests, release windows -----------
    def _end_turn(self, seat: int) -> None:
        for attacker, defender, origin in self.pending:
            self._verdict(attacker, defender, origin)
        self.acts = {}
        self.turns += 1
        if self.pending:
            self.fought = self.turns
            self.pending = []
        self._emit("untap", seat=seat)
        if self._drop_empty_sides():
            return
        conquests = self._check_thrones()
        if conquests and self.players == 2:
            self._end_game({seat}, f"{self._side(self.ent)} held the enemy throne for a full turn")
            return
        if conquests:
            self.todo = [*(("conquer", c) for c in conquests), ("close", EMPTY)]
        else:  # the common case, without building the step list
            cap = self.options["max_turns"]
            if cap is not None and self.turns >= cap:
                self._cut_off()
                return
            windows = self._window_order()
            if not windows:
                self._next_entourage()
                return
            self.todo = [("window", e) for e in windows]
        self._proceed()

    def _proceed(self) -> None:
        """Run the steps between two turns until one waits for a decision or the game ends."""
        while self.todo:
            step, arg = self.todo.pop(0)
            if step == "conquer":
                if self._conquer(arg):
                    return
            elif step == "close":
                if self._check_last_standing():
                    return
                cap = self.options["max_turns"]
                if cap is not None and self.turns >= cap:
                    self._cut_off()
                    return
                self.todo += [("window", e) for e in self._window_order()]
            elif self._open_window(arg):
                return
        self._next_entourage()

    def _verdict(self, a: int, d: int, origin: str) -> None:
        where = self.pos[d]
        square = self._name_of(d)
        d_masked = not self.up[d]
        result = self._result(a, d)
        def_ent = self.owner[d]
        # A masked defender's owner picks up both cards; else the attacker judges (MB-18).
        judge = self.ctrl[def_ent] if d_masked else self.ctrl[self.owner[a]]
        self._learn(judge, a)
        self._learn(judge, d)
        self._emit_lazy("judged", (judge,), partial(_judged, square, a, d))
        if result.flip_attacker:
            self.up[a] = True
            self._reveal_to_all(a)
        if result.flip_defender:
            self.up[d] = True
            self._reveal_to_all(d)
        winner = result.winner
        if winner == ATTACKER:
            self._lift(d)
            self._to_zone(d, GRAVE, def_ent)
            if where >= 0:
                self._put(a, where)
            else:
                self._to_ball(a)
        elif winner == DEFENDER:
            self._to_zone(a, PRISON, def_ent)
        else:
            self._lift(d)
            self._to_zone(d, GRAVE, def_ent)
            self._to_zone(a, PRISON, def_ent)
        shown = (a if result.flip_attacker else EMPTY, d if result.flip_defender else EMPTY)
        self._emit_lazy("verdict", None, partial(_verdict_data, square, origin, winner, *shown))

    def _result(self, a: int, d: int) -> Verdict:
        """The Circle of Power on two cards as they stand (the determinizer forces it)."""
        return VERDICTS[self.rank[a]][self.rank[d]][not self.up[a]][not self.up[d]]

    def _throne_cond(self, seat: int, court: int) -> bool:
        """MB-20: nobody of the courtroom's side on its thrones and one of ``seat``'s there."""
        holder = self.ctrl[court]
        mine = False
        for sq in self.geo.thrones[court]:
            cid = self.board[sq]
            if cid == EMPTY:
                continue
            s = self.ctrl[self.owner[cid]]
            if s == holder:
                return False
            if s == seat:
                mine = True
        return mine

    def _check_thrones(self) -> list[int]:
        """Track who holds which enemy thrones (MB-20); the courtrooms conquered by this turn."""
        me = self.seat
        n = self.players
        conquered = []
        for s in range(n):
            for c in range(n):
                k = s * n + c
                if self.ctrl[c] in (s, NOBODY) or s not in self.ctrl:
                    self.holding[k] = False
                    continue
                held = self._throne_cond(s, c)
                if s != me:
                    if not held:
                        self.holding[k] = False
                elif held and self.holding[k]:
                    conquered.append(c)
                else:
                    self.holding[k] = held
        return conquered

    def _conquer(self, court: int) -> bool:
        """MB-27: four players; the seat whose turn ended held ``court``'s thrones for a round.

        His own characters in its prison go home at once; then, if there is anything to decide
        (other players' prisoners to release, MB-47, or handing the courtroom back, MB-28), a
        conquest window opens (True); otherwise he takes the courtroom.
        """
        seat = self.seat
        loser = self.ctrl[court]
        self.ctrl[court] = NOBODY  # nobody's until the conqueror takes it or hands it back
        n = self.players
        for s in range(n):
            self.holding[s * n + court] = False
        self._emit("conquered", seat=seat, side=court, previous=loser)
        if loser not in self.ctrl:
            self._emit("eliminated", seat=loser)
        prison = self.prison[court]
        for cid in [c for c in prison if self.ctrl[self.owner[c]] == seat]:
            prison.remove(cid)
            self._to_zone(cid, HAND, self.owner[cid])
        # MB-28: its first owner (seat number = courtroom number) lost it earlier and is out.
        self.liberable = court != seat and loser != court and court not in self.ctrl
        if not self.liberable and not prison:
            self._take(court, seat)
            return False
        self.phase = CONQUEST
        self.win = court
        self.deciding = seat
        return True

    def _take(self, court: int, seat: int) -> None:
        """The conqueror controls the courtroom; its hand joins the hand that conquered it."""
        self.ctrl[court] = seat
        self.hand[self.ent] += self.hand[court]
        self.hand[court] = []
        self._look_at_own(seat)

    def _liberate(self, court: int) -> None:
        """MB-28: the courtroom goes back to its first owner, who re-enters the game."""
        self.ctrl[court] = court
        self._emit("liberated", seat=self.deciding, side=court)
        self._look_at_own(court)

    def _window_order(self) -> list[int]:
        """MB-46: the entourages whose prisons may be emptied between this turn and the next:
        every one with prisoners, in turn order, but the next to play (it releases in its turn).
        """
        if self.options["release"] != "any" or not any(self.prison):
            return []
        n, ctrl = self.players, self.ctrl
        order = [(self.ent + k) % n for k in range(1, n + 1)]
        live = [e for e in order if ctrl[e] != NOBODY]
        return [e for e in live[1:] if self.prison[e]]

    def _open_window(self, e: int) -> bool:
        if self.ctrl[e] == NOBODY or not self.prison[e]:
            return False
        self.phase = WINDOW
        self.win = e
        self.deciding = self.ctrl[e]
        return True

    def _close_window(self, liberate: bool = False) -> None:
        court = self.win
        if self.phase == CONQUEST:
            if liberate:
                self._liberate(court)
            else:
                self._take(court, self.deciding)
        self.win = EMPTY
        self.deciding = NOBODY
        self.liberable = False
        self._proceed()

    def _check_last_standing(self) -> bool:
        alive = {s for s in self.ctrl if s != NOBODY}
        if len(alive) == 1:
            (winner,) = alive
            self._end_game({winner}, f"seat {winner} controls every courtroom left")
            return True
        return False

    def _next_entourage(self) -> None:
        """The next side clockwise that has a controller and cards (MB-23, MB-27)."""
        for _ in range(self.players):
            self.ent = (self.ent + 1) % self.players
            e = self.ent
            if self.ctrl[e] == NOBODY:
                continue
            if self.hand[e] or self._on_board(e):
                self._begin_turn()
                return
            if self.players == 2:
                loser = self.ctrl[e]
                self._end_game({1 - loser}, f"{self._side(e)} has no card left")
                return
            self._eliminate_empty(e)
            if self.phase == OVER:
                return
        self._end_game(set(), "nobody has a card left")

    def _drop_empty_sides(self) -> bool:
        """MB-23, MB-45: right after the verdicts, before anything else (conquests, the cap, a
        release that could revive it), every side left with no card on the board or in hand
        loses; whether that ended the game."""
        empty = [
            e
            for e in range(self.players)
            if self.ctrl[e] != NOBODY and not self.hand[e] and not self._on_board(e)
        ]
        if not empty:
            return False
        if self.players == 2:
            names = " and ".join(self._side(e) for e in empty)
            winners = {self.ctrl[e] for e in range(2) if e not in empty}
            verb = "have" if len(empty) > 1 else "has"
            self._end_game(winners, f"{names} {verb} no card left")
            return True
        for e in empty:
            self._eliminate_empty(e)
            if self.phase == OVER:
                return True
        if all(c == NOBODY for c in self.ctrl):
            self._end_game(set(), "nobody has a card left")
            return True
        return False

    def _eliminate_empty(self, e: int) -> None:
        """Four players: a side with no card left is vacant; a seat with no side left is out."""
        seat = self.ctrl[e]
        self.ctrl[e] = NOBODY
        self._emit("vacant", side=e, seat=seat)
        if seat not in self.ctrl:
            self._emit("eliminated", seat=seat)
        self._check_last_standing()

    def _end_game(self, winners: set[int], reason: str) -> None:
        self._finish_ball(Outcome.win_loss(self.players, winners, reason))

    def _cut_off(self) -> None:
        """The ``max_turns`` cap: a draw among the seats still at the ball (ruling MB-54)."""
        reason = f"the ball was cut off after {self.turns} turns"
        self._finish_ball(
            Outcome.draw_among(self.players, {s for s in self.ctrl if s >= 0}, reason, capped=True)
        )

    def _finish_ball(self, outcome: Outcome) -> None:
        self.phase = OVER
        self.acts = {}
        self._legal = None
        # The masks come off when the ball ends (ruling MB-53): every seat learns every card,
        # which the views then show and the belief model takes as seen.
        for cid in range(len(self.rank)):
            self._reveal_to_all(cid)
        self._finish(outcome)

    # -- views ------------------------------------------------------------------------------
    def _card_views(self, cids: Iterable[int], seat: int | None) -> list[dict[str, Any]]:
        """What ``seat``'s view shows of each card of ``cids``: owner, suit, face up, rank
        (None: not shown), the axis in the four-player palace, and for a card acting this
        turn whether it acts and has moved. A rank shows face up, to everyone once the ball
        is over, and to a seat that knows the card where `_shows` lets it (always under
        perfect memory). One loop with the state's lists at hand: views are made at every
        step (OpenSpiel's rl_environment asks every seat's after every move)."""
        up, rank, acts, owner, suits = self.up, self.rank, self.acts, self.owner, self.suits
        axis = self.axis if self.zone else None
        over = self.phase == OVER
        known = 0 if seat is None else self.known[seat]
        perfect = self.options["memory"] == "perfect"
        viewer = -1 if seat is None else seat  # `_shows` is asked only for a known card
        shows = self._shows
        views = []
        for c in cids:
            shown = up[c] or over or (known >> c & 1 and (perfect or shows(viewer, c)))
            card = {
                "side": owner[c],
                "suit": suits[c // CARDS],
                "up": up[c],
                "rank": RANK_LABELS[rank[c]] if shown else None,
            }
            if axis is not None:
                card["axis"] = AXIS_NAMES[axis[c]]
            flags = acts.get(c)
            if flags is not None:
                card["acting"] = bool(flags & (F_MOVE | F_INV))
                card["moved"] = bool(flags & F_MOVED)
            views.append(card)
        return views

    def _card_view(self, c: int, seat: int | None) -> dict[str, Any]:
        """`_card_views` of the one card ``c``, without the set-up that pays off only over
        many cards: a search's rollouts read a four-player ball's board a few squares at a
        time (the Masquerade Ball's heuristic). A test keeps the two the same."""
        up = self.up[c]
        shown = up or self.phase == OVER or (seat is not None and self._shows(seat, c))
        card = {
            "side": self.owner[c],
            "suit": self.suits[c // CARDS],
            "up": up,
            "rank": RANK_LABELS[self.rank[c]] if shown else None,
        }
        if self.zone:
            card["axis"] = AXIS_NAMES[self.axis[c]]
        flags = self.acts.get(c)
        if flags is not None:
            card["acting"] = bool(flags & (F_MOVE | F_INV))
            card["moved"] = bool(flags & F_MOVED)
        return card

    def _shows(self, seat: int, cid: int) -> bool:
        if not self.known[seat] >> cid & 1:
            return False
        if self.options["memory"] == "perfect" or self.ctrl[self.owner[cid]] != seat:
            return True
        pos = self.pos[cid]
        # Concentration: an own board card shows only while it acts or sits on its own throne.
        return cid in self.acts or pos < 0 or self.geo.throne_of[pos] == self.owner[cid]

    def _pile_view(self, pile: list[int], seat: int | None, mine: bool) -> dict[str, Any]:
        rank = self.rank
        if mine:
            return {"count": len(pile), "cards": [RANK_LABELS[rank[c]] for c in pile]}
        if self.phase == OVER:  # MB-53: the masks are off, for spectators too
            known = pile
        elif seat is None or not pile:
            return {"count": len(pile), "known": []}
        else:
            mask = self.known[seat]
            known = [c for c in pile if mask >> c & 1]
        return {"count": len(pile), "known": sorted([RANK_LABELS[rank[c]] for c in known])}

    def essentials(self, seat: int) -> dict[str, Any]:
        """What a player decides on: `view(seat)` without its texts (names, prompt) and the
        parts a decision can do without (turn count, cap, placing, obligations, whose cards
        lie in the graveyards); the same values for the keys it has. The search bot's
        rollouts read it many times a second, so it is built without the rest."""
        return {"seat": seat, **self._view(seat, full=False)}

    def _board_view(self, seat: int | None) -> dict[str, dict[str, Any]]:
        """The view's ``board``: each occupied square's name and the card seen there."""
        names = self.geo.names
        squares = [sq for sq, cid in enumerate(self.board) if cid != EMPTY]
        shown = self._card_views([self.board[sq] for sq in squares], seat)
        return {names[sq]: card for sq, card in zip(squares, shown, strict=True)}

    def _side_view(self, e: int, seat: int | None, full: bool = True) -> dict[str, Any]:
        """Side ``e`` of the view's ``sides``: its suit, controller, piles and thrones."""
        mine = seat is not None and self.ctrl[e] == seat
        side = {
            "side": e,
            "suit": self.suits[e],
            "controller": self.ctrl[e],
            "hand": self._pile_view(self.hand[e], seat, mine),
            "prison": self._pile_view(self.prison[e], seat, mine),
            "prisoners_of": [self.owner[c] for c in self.prison[e]],
            "graveyard": self._pile_view(self.grave[e], seat, mine),
            "thrones": [self.geo.names[sq] for sq in self.geo.thrones[e]],
        }
        if full:
            side["name"] = self._side(e)
            side["graveyard_of"] = [c // CARDS for c in self.grave[e]]
        return side

    def _view(self, seat: int | None, full: bool = True) -> dict[str, Any]:
        attackers = self._card_views([a for a, _, _ in self.pending], seat)
        view = {
            "players_board": self.players,
            "phase": self.phase,
            "side_to_play": self.ent,
            "board": self._board_view(seat),
            "ballroom": self._card_views(self.ball, seat) if self.zone else None,
            "sides": [self._side_view(e, seat, full) for e in range(self.players)],
            "pending": [
                {"attacker": attacker, "from": o, "to": self._name_of(d)}
                for attacker, (_, d, o) in zip(attackers, self.pending, strict=True)
            ],
            "delivering": None if self.phase != DROP else self._name_of(self.delivering),
            "played": self.played,
            "holding": [
                {"seat": k // self.players, "side": k % self.players}
                for k, held in enumerate(self.holding)
                if held
            ],
            "window": None
            if self.deciding < 0
            else {
                "kind": self.phase,
                "side": self.win,
                "seat": self.deciding,
                "liberate": self.liberable,
            },
            "repeats": self.repeats,
        }
        if full:
            view.update(self._view_texts(seat))
        return view

    def _view_texts(self, seat: int | None) -> dict[str, Any]:
        """The parts of the view only people and the full view need (`essentials` lacks)."""
        placing = None
        if self.phase == PLACE:
            cid, kind = self.placing
            placing = {
                "how": kind,
                "rank": RANK_LABELS[self.rank[cid]] if seat == self.seat else None,
            }
        return {
            "turn": self.turns if self.phase == OVER else self.turns + 1,
            "max_turns": self.options["max_turns"],
            "placing": placing,
            # Only the mover knows his acting cards: to others, an obligation would tell a rank.
            "must_move": [self._name_of(c) for c in self._obligations()]
            if self.phase == MAIN and seat is not None and seat == self.seat
            else [],
            "prompt": self._prompt(),
        }

    def _prompt(self) -> str:
        who = self._side(self.ent)
        if self.phase == WINDOW:
            side = self._side(self.win)
            return f"seat {self.deciding}: release prisoners of {side}'s prison, or pass"
        if self.phase == CONQUEST:
            side = self._side(self.win)
            back = ", hand it back to its owner ('liberate')" if self.liberable else ""
            return (
                f"seat {self.deciding}: you conquered {side}'s courtroom: release other players' "
                f"prisoners from its prison{back}, or take it ('pass')"
            )
        return {
            OVER: "the ball is over",
            INSPECT: f"{who}: inspect one of your cards",
            PLACE: f"{who}: place the card on an empty square of your courtroom",
            DROP: f"{who}: say where the Nun delivers the card",
            MAIN: f"{who}: play a card from your hand"
            if self.must_play
            else f"{who}: move, attack or unmask your acting cards, then end the turn",
        }[self.phase]

    def _lazy_payload(self, data: Callable[..., dict[str, Any]]) -> dict[str, Any]:
        """Payloads naming ranks are functions of the rank table, read here: a determinized
        sample shares its log with the plan it was drawn from and differs only in its ranks
        (belief.py)."""
        return data(self.rank)

    # -- sampling what a seat cannot see ----------------------------------------------------
    def determinize(self, seat: int, rng: Rng) -> BallState:
        from .belief import determinize

        return determinize(self, seat, rng)

    def rank_at(self, place: str) -> str | None:
        """The rank on a named place: a secret, for referees and tests only."""
        cid = self._card_named(place)
        return None if cid == EMPTY else RANK_LABELS[self.rank[cid]]


class MasqueradeBall(Game):
    """Two to four masked entourages storm each other's thrones through a palace."""

    id = "masquerade-ball"
    name = "The Masquerade Ball"
    summary = "Masked court cards dance by their pips; the Circle of Power decides every attack."
    # "2 to 4 players" [MB L17]; three play the four-player palace without West (MB-30).
    player_counts = (2, 3, 4)
    options = OPTIONS
    action_table = ACTIONS
    state_class = BallState
