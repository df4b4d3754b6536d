"""The palace as data: squares, courtrooms, thrones, ascension steps, pip maps and move tables.

Two boards share one model. The two-player palace is the 6-wide by 7-long grid of the seed
(rows 1-3 North's courtroom, row 4 the ballroom, rows 5-7 South's courtroom). The four-player
palace (RULINGS §2.6) is four 3x6 courtrooms around a ballroom that is one zone (`BALL`).
A square is an integer index; every table below is built once at import.
"""

from __future__ import annotations

from typing import NamedTuple

FILES = "abcdef"

# -- ranks --------------------------------------------------------------------------------------
ACE, JACK, QUEEN, KING, JOKER = 1, 11, 12, 13, 14
RANKS = (QUEEN, KING, JACK, 10, 9, 8, ACE, JOKER, 7, 6, 5, 4, 3, 2)  # the 14 of an entourage
RANK_TOKENS = {
    ACE: "a",
    **{n: str(n) for n in range(2, 11)},
    JACK: "j",
    QUEEN: "q",
    KING: "k",
    JOKER: "jk",
}
TOKEN_RANKS = {token: rank for rank, token in RANK_TOKENS.items()}
RANK_LABELS = {**{r: t.upper() for r, t in RANK_TOKENS.items()}, JOKER: "Joker"}
RANK_NAMES = {
    QUEEN: "Queen",
    KING: "King",
    JACK: "Jack",
    10: "Lord",
    9: "Duchess",
    8: "Baron",
    ACE: "Assassin",
    JOKER: "Joker",
    7: "Ambassador",
    6: "Diplomat",
    5: "Spy",
    4: "Bishop",
    3: "Priest",
    2: "Nun",
}
ARISTOCRACY = frozenset((8, 9, 10))

# -- pip maps (RULINGS §2.4) ----------------------------------------------------------------------
# Five rows (row offset -2..+2, + toward the opponent) by three columns (file offset -1..+1).
# "o" is a pip (a destination), "@" a pip in the centre (may stand still), "x" an empty centre
# (must move when a pip destination is empty, MB-6). Distance-2 pips are jumps (MB-7).
PIP_ART: dict[str, tuple[str, ...]] = {
    "2": ("...", ".o.", ".x.", ".o.", "..."),
    "3": ("...", ".o.", ".@.", ".o.", "..."),
    "4": ("...", "o.o", ".x.", "o.o", "..."),
    "5": ("...", "o.o", ".@.", "o.o", "..."),
    "6": ("...", "o.o", "oxo", "o.o", "..."),
    "7": ("...", "o.o", "o@o", "o.o", "..."),
    "8A": ("o.o", "o.o", ".x.", "o.o", "o.o"),
    "8B": ("o.o", ".o.", "oxo", ".o.", "o.o"),
    "9": ("o.o", "o.o", ".@.", "o.o", "o.o"),
    "10": ("o.o", "ooo", ".x.", "ooo", "o.o"),
    "royal": ("...", "ooo", "o@o", "ooo", "..."),
}


class Pattern(NamedTuple):
    name: str
    offsets: tuple[tuple[int, int], ...]  # every pip
    centre: bool  # may stand still

    @property
    def near(self) -> tuple[tuple[int, int], ...]:
        """The one-square pips (the aristocracy's "first step", MB-8)."""
        return tuple((dr, dc) for dr, dc in self.offsets if abs(dr) <= 1)


def _parse_art(name: str, art: tuple[str, ...]) -> Pattern:
    offsets = []
    centre = False
    for i, line in enumerate(art):
        for j, ch in enumerate(line):
            dr, dc = i - 2, j - 1
            if ch == "o":
                offsets.append((dr, dc))
            elif ch == "@":
                centre = True
    return Pattern(name, tuple(offsets), centre)


PATTERNS: dict[str, Pattern] = {name: _parse_art(name, art) for name, art in PIP_ART.items()}


def pattern_name(rank: int, eight: str = "A") -> str:
    """The pip map a rank moves by (`eight` picks the 8's drawing, MB-4)."""
    if rank in (ACE, JACK, QUEEN, KING, JOKER):
        return "royal"  # MB-5: the Joker and the Assassin move like royalty
    if rank == 8:
        return "8" + eight
    return str(rank)


# -- the boards ---------------------------------------------------------------------------------
# Local coordinates of a courtroom: row 0 is the throne row, row 2 the front row; files a-f.
LOCAL_THRONES = ((0, 2), (0, 3))
LOCAL_STEPS = ((0, 1), (0, 4), (1, 1), (1, 2), (1, 3), (1, 4))
LOCAL_START = (
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    *((1, f) for f in range(6)),
    *((2, f) for f in range(1, 5)),
)


class Board:
    """Static geometry of one palace: names, courtrooms and the move tables per pattern."""

    def __init__(self, name: str, courts: int) -> None:
        self.name = name
        self.courts = courts
        self.names: list[str] = []
        self.court: list[int] = []  # courtroom of each square, -1 for the ballroom row
        self.local: list[tuple[int, int]] = []  # (row, file) inside its courtroom
        self.cells: dict[tuple[int, int, int], int] = {}  # (court, row, file) -> square
        if courts == 2:
            self._grid_two()
        else:
            self._grid_four()
        self.index = {n: i for i, n in enumerate(self.names)}
        self.size = len(self.names)
        self.thrones = tuple(
            tuple(self.cells[c, r, f] for r, f in LOCAL_THRONES) for c in range(courts)
        )
        self.steps = tuple(
            tuple(self.cells[c, r, f] for r, f in LOCAL_STEPS) for c in range(courts)
        )
        self.start = tuple(
            tuple(self.cells[c, r, f] for r, f in LOCAL_START) for c in range(courts)
        )
        self.squares_of = tuple(
            tuple(sq for sq in range(self.size) if self.court[sq] == c) for c in range(courts)
        )
        self.throne_of = [-1] * self.size
        self.step_of = [-1] * self.size
        for c in range(courts):
            for sq in self.thrones[c]:
                self.throne_of[sq] = c
            for sq in self.steps[c]:
                self.step_of[sq] = c
        self.front = tuple(tuple(self.cells[c, 2, f] for f in range(6)) for c in range(courts))
        self.second = tuple(tuple(self.cells[c, 1, f] for f in range(6)) for c in range(courts))
        self.links = tuple(self._links(sq) for sq in range(self.size))
        self.tables = {name: self._tables(pat) for name, pat in PATTERNS.items()}

    # -- grids ---------------------------------------------------------------------------------
    def _grid_two(self) -> None:
        """Rows 1-7 top to bottom: North's courtroom (its row 0 = board row 1), ballroom, South."""
        for row in range(7):
            for f in range(6):
                sq = len(self.names)
                self.names.append(f"{FILES[f]}{row + 1}")
                if row < 3:
                    court, local = 0, (row, f)
                elif row == 3:
                    court, local = -1, (-1, f)
                else:
                    court, local = 1, (6 - row, f)
                self.court.append(court)
                self.local.append(local)
                if court >= 0:
                    self.cells[court, local[0], local[1]] = sq

    def _grid_four(self) -> None:
        """Courtrooms n, e, s, w; a square is named by its courtroom, file and local row."""
        for c, prefix in enumerate("nesw"):
            for r in range(3):
                for f in range(6):
                    sq = len(self.names)
                    self.names.append(f"{prefix}{FILES[f]}{r + 1}")
                    self.court.append(c)
                    self.local.append((r, f))
                    self.cells[c, r, f] = sq

    # -- geometry ------------------------------------------------------------------------------
    def shift(self, sq: int, dr: int, dc: int) -> int | None:
        """The square ``dr`` rows toward the enemy and ``dc`` files over, None off the board.

        For the four-player board, leaving a courtroom forward is handled by the rules (the
        ballroom is a zone), so this only answers inside the courtroom.
        """
        c = self.court[sq]
        r, f = self.local[sq]
        nf = f + dc
        if not 0 <= nf < 6:
            return None
        if self.courts == 2:
            # Every pip map is symmetric, so "toward the enemy" needs no sign per side.
            row = sq // 6 + dr
            return row * 6 + nf if 0 <= row < 7 else None
        nr = r + dr
        if not 0 <= nr < 3:
            return None
        return self.cells[c, nr, nf]

    def _links(self, sq: int) -> tuple[int, ...]:
        """Ascension links: steps <-> either throne of the same courtroom (MB-9)."""
        c = self.throne_of[sq]
        if c >= 0:
            return self.steps[c]
        c = self.step_of[sq]
        if c >= 0:
            return self.thrones[c]
        return ()

    def _tables(self, pat: Pattern) -> MoveTable:
        pips, must, comp = [], [], []
        lateral = pat.name in ("2", "3")
        for sq in range(self.size):
            dests = [d for d in (self.shift(sq, dr, dc) for dr, dc in pat.offsets) if d is not None]
            must.append(tuple(dests))
            if lateral and self.courts == 2 and self.court[sq] == -1:
                dests += [d for d in (self.shift(sq, 0, dc) for dc in (-1, 1)) if d is not None]
            direct = list(dict.fromkeys(dests + list(self.links[sq])))
            pips.append(tuple(direct))
            composite: dict[int, list[int]] = {}
            for dr, dc in pat.near:
                via = self.shift(sq, dr, dc)
                if via is None or self.step_of[via] < 0:
                    continue
                for throne in self.thrones[self.step_of[via]]:
                    if throne != sq and throne not in direct:
                        composite.setdefault(throne, []).append(via)
            comp.append(tuple((t, tuple(v)) for t, v in composite.items()))
        return MoveTable(tuple(pips), tuple(must), tuple(comp))


class MoveTable(NamedTuple):
    """Per square: direct destinations (pips, ballroom lateral, ascension links), the plain pip
    destinations that decide "must move", the aristocracy two-steps (throne, the steps it may
    be reached through). Four-player ballroom moves are zone rules, in the referee."""

    direct: tuple[tuple[int, ...], ...]
    must: tuple[tuple[int, ...], ...]
    composite: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]


TWO = Board("two-player palace", 2)
FOUR = Board("four-player palace", 4)
BALL = FOUR.size  # the four-player ballroom zone
