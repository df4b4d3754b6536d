"""The seating boards (RULINGS §1.5), as data.

A board is drawn as rows of cells: ``.`` is a seat, ``#`` is a table (never occupied). Columns
are lettered from ``a``, rows numbered from 1, so the top-left cell is ``a1``. Two cubes touch
when their seats share an edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

LAYOUTS: dict[str, tuple[str, ...]] = {
    # The default: two banquet tables (b2-b3 and d2-d3) on a 5x4 floor; 16 seats (MM-1).
    "theta16": (
        ".....",
        ".#.#.",
        ".#.#.",
        ".....",
    ),
    # The documented alternative: one 1x3 table in a 5x3 floor; 12 seats in a single ring.
    "ring12": (
        ".....",
        ".###.",
        ".....",
    ),
}

COLUMNS = "abcdefghij"


def cell_name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


@dataclass(frozen=True)
class Board:
    """A seating board: seat names, their grid positions and orthogonal adjacency."""

    name: str
    rows: tuple[str, ...]

    @cached_property
    def seats(self) -> tuple[str, ...]:
        """Seat names in reading order (row by row, left to right)."""
        return tuple(
            cell_name(c, r)
            for r, line in enumerate(self.rows)
            for c, ch in enumerate(line)
            if ch == "."
        )

    @cached_property
    def tables(self) -> tuple[str, ...]:
        return tuple(
            cell_name(c, r)
            for r, line in enumerate(self.rows)
            for c, ch in enumerate(line)
            if ch == "#"
        )

    @cached_property
    def neighbours(self) -> dict[str, frozenset[str]]:
        """Seats sharing an edge with each seat."""
        free = set(self.seats)
        result = {}
        for r, line in enumerate(self.rows):
            for c, ch in enumerate(line):
                if ch != ".":
                    continue
                around = {
                    cell_name(c + dc, r + dr)
                    for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 0 <= c + dc < len(line) and 0 <= r + dr < len(self.rows)
                }
                result[cell_name(c, r)] = frozenset(around & free)
        return result

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "rows": list(self.rows), "seats": list(self.seats)}


BOARDS: dict[str, Board] = {name: Board(name, rows) for name, rows in LAYOUTS.items()}

ALL_CELLS: tuple[str, ...] = tuple(
    sorted(
        {cell for board in BOARDS.values() for cell in board.seats},
        key=lambda cell: (int(cell[1:]), cell[0]),
    )
)
