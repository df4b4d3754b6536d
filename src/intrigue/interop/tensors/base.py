"""Building blocks of the fixed-size observation tensors.

A `Layout` is an ordered list of named fields; each field is a block of a flat float32 tensor
with a shape and a one-line meaning, so the same object sizes the tensor, hands OpenSpiel its
named pieces and prints the layout table of docs/interop.md. An encoder fills a `Canvas` (a
zeroed tensor with a writable view per field) from ``state.view(seat)`` alone: nothing else
about the state is read, so two states a seat cannot tell apart give it the same tensor.

Every value written lies in [0, 1]: flags and one-hots are 0/1 and counts are divided by a
documented cap and clipped (`scaled`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Field:
    """One named block of the tensor."""

    name: str
    shape: tuple[int, ...]
    doc: str
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", math.prod(self.shape))


class Layout:
    """Ordered fields of a flat tensor: offsets, total size and the documentation table."""

    def __init__(self, fields: Sequence[Field]) -> None:
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise ValueError("duplicate field names in a layout")
        self.fields = tuple(fields)
        self.offsets: dict[str, int] = {}
        offset = 0
        for f in self.fields:
            self.offsets[f.name] = offset
            offset += f.size
        self.size = offset

    def canvas(self) -> Canvas:
        return Canvas(self)

    def markdown(self) -> str:
        """The layout as a Markdown table (docs/interop.md holds one per game)."""
        rows = ["| field | offset | shape | meaning |", "|---|---|---|---|"]
        for f in self.fields:
            shape = "x".join(map(str, f.shape))
            rows.append(f"| `{f.name}` | {self.offsets[f.name]} | {shape} | {f.doc} |")
        rows.append(f"| *total* | | {self.size} | |")
        return "\n".join(rows)


class Canvas(dict[str, np.ndarray]):
    """A zeroed float32 tensor with one reshaped, writable view per field: ``canvas[name]``.

    Making the views costs far more than filling them, so an owner (an environment, an
    observer, an encoder) makes one canvas and reuses it for every encoding. The canvas is the
    dict of its views (a lookup in C: encoders make dozens per step).
    """

    __slots__ = ("data", "layout", "memo")

    def __init__(self, layout: Layout, data: np.ndarray | None = None) -> None:
        super().__init__()
        self.layout = layout
        self.data = np.zeros(layout.size, np.float32) if data is None else data
        # Encodings of view parts that a game hands out unchanged (shared, immutable lists):
        # an encoder may keep them here and copy them back instead of encoding them again.
        self.memo: dict[Any, Any] = {}
        for f in layout.fields:
            start = layout.offsets[f.name]
            self[f.name] = self.data[start : start + f.size].reshape(f.shape)

    def zero(self) -> None:
        """Set every value of the tensor to 0 (the views stay)."""
        self.data.fill(0.0)

    def __eq__(self, other: object) -> bool:  # a canvas is itself (its arrays do not compare)
        return self is other

    __hash__ = object.__hash__


@dataclass(frozen=True)
class Section:
    """A part of an encoder: the view keys it reads, the fields it writes, and the function that
    writes them. Sections of an encoder write disjoint fields that together cover the layout,
    so a view whose ``keys`` are unchanged leaves the section's fields as they were.

    A section may also be written row by row, where each of its fields has one row per slot
    (a province, a square, a player): ``rows(view)`` gives the view's row of each slot it
    fills, ``fill_row(canvas, slot, row, view)`` writes one slot on zeros (``row`` None: the
    view leaves the slot out) exactly as ``fill`` writes it. When only ``row_keys`` changed,
    only the slots whose rows changed are written again."""

    keys: tuple[str, ...]
    fields: tuple[str, ...]
    fill: Callable[[Canvas, Mapping[str, Any]], None]
    row_keys: tuple[str, ...] = ()
    rows: Callable[[Mapping[str, Any]], dict[int, Any]] | None = None
    fill_row: Callable[[Canvas, int, Any, Mapping[str, Any]], None] | None = None


class Encoder:
    """A game's tensor: its layout and the sections that fill a canvas from a view.

    ``public_action`` gives what other seats see of an action: the action itself, a public
    form of it (an action of the table without its secret part), or None when they never
    see which it was (a secret target, a card taken from a hidden pile). `History` records
    it so in other seats' records.

    ``alike`` says that every seat's view of a position is the same but for the engine's own
    keys (the game hides nothing from anyone): a seat's encoding is then best made from
    another seat's encoding of the same position (`adopt`), where only the common section
    differs.
    """

    def __init__(
        self,
        game_id: str,
        layout: Layout,
        sections: Sequence[Section],
        public_action: Callable[[Any], Any] | None = None,
        alike: bool = False,
    ) -> None:
        written = [name for section in sections for name in section.fields]
        if sorted(written) != sorted(f.name for f in layout.fields):
            raise ValueError(f"{game_id}: the sections must write every field exactly once")
        self.game_id = game_id
        self.layout = layout
        self.sections = tuple(sections)
        self.public_action = public_action or _public
        self.alike = alike
        # Where each section writes, and per row section where each slot writes (slot i of a
        # field of offset o and row size z is [o + i * z, o + (i + 1) * z)), as one index into
        # the flat tensor: a section or slot is cleared or copied by one numpy call.
        self._cells = [
            _cells([(layout.offsets[n], _size(layout, n)) for n in section.fields])
            for section in self.sections
        ]
        self._row_cells = [_row_cells(layout, section) for section in self.sections]
        # The canvas that last encoded each section (and each row of a row section), with the
        # parts it encoded. Seats see most parts alike (OpenSpiel asks every seat's tensor at
        # every step), so another seat's canvas copies them instead of encoding them again.
        self._latest: list[tuple[tuple[Any, ...], Canvas] | None] = [None] * len(self.sections)
        self._latest_rows: dict[tuple[int, int], tuple[Any, Canvas]] = {}
        self._scratch: Canvas | None = None

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """A fresh float32 vector of `size` values for ``view``."""
        if self._scratch is None:
            self._scratch = self.layout.canvas()
        self.encode_into(self._scratch, view)
        return self._scratch.data.copy()

    def encode_into(self, canvas: Canvas, view: Mapping[str, Any]) -> None:
        """Overwrite ``canvas`` (made from this encoder's layout) with ``view``'s encoding."""
        canvas.zero()
        for index, section in enumerate(self.sections):
            section.fill(canvas, view)
            if section.rows is not None:
                canvas.memo[index] = section.rows(view)
        canvas.memo["view"] = view

    def update(self, canvas: Canvas, view: Mapping[str, Any]) -> None:
        """`encode_into`, incrementally: ``canvas`` holds the encoding of the view it last
        encoded (of the same seat, usually one action earlier), and only the sections whose
        view keys changed since are written again (of a row section, only the changed rows);
        a section whose parts equal those of the encoder's latest encoding of it (for any
        canvas) is copied from there. Views are plain JSON, so comparing a part (in C) costs
        far less than encoding it."""
        before = canvas.memo.get("view")
        if before is None:
            self.encode_into(canvas, view)
            return
        data = canvas.data
        latest = self._latest
        was, now = before.get, view.get
        for index, section in enumerate(self.sections):
            row_keys = section.row_keys
            rows_only = None  # whether only row keys changed (None: nothing changed)
            for key in section.keys:
                old, new = was(key), now(key)
                if old is not new and old != new:
                    rows_only = key in row_keys and rows_only is not False
                    if not rows_only:
                        break
            if rows_only is None:
                continue
            if rows_only:
                self._update_rows(canvas, index, view)
                continue
            cells = self._cells[index]
            # Seats that see alike share encodings by `adopt`: no other canvas holds theirs.
            parts = None if self.alike else tuple(map(now, section.keys))
            source = None if parts is None else self._holder(index, parts)
            if source is not None:
                data[cells] = source.data[cells]
            else:
                data[cells] = 0.0
                section.fill(canvas, view)
                if parts is not None:
                    latest[index] = (parts, canvas)
            if section.rows is not None:
                canvas.memo[index] = section.rows(view)
        canvas.memo["view"] = view

    def adopt(self, canvas: Canvas, source: Canvas) -> None:
        """Make ``canvas`` hold ``source``'s encoding, as if it had encoded the same view; a
        later `update` of ``canvas`` then writes only what its view has otherwise."""
        canvas.data[:] = source.data
        # The memo's entries are replaced, never changed in place, so both may hold them.
        canvas.memo = source.memo.copy()

    def _update_rows(self, canvas: Canvas, index: int, view: Mapping[str, Any]) -> None:
        """Write again the slots of row section ``index`` whose rows changed."""
        section = self.sections[index]
        assert section.rows is not None and section.fill_row is not None
        old_rows, rows = canvas.memo[index], section.rows(view)
        data = canvas.data
        latest = self._latest_rows
        slots = self._row_cells[index]
        for slot in old_rows.keys() | rows.keys():
            old, new = old_rows.get(slot), rows.get(slot)
            if old is new or old == new:
                continue
            source = None if self.alike else self._row_holder(index, slot, new, view)
            cells = slots[slot]
            data[cells] = 0.0 if source is None else source.data[cells]
            if source is None:
                section.fill_row(canvas, slot, new, view)
                if not self.alike:
                    latest[index, slot] = (new, canvas)
        canvas.memo[index] = rows

    def _holder(self, index: int, parts: tuple[Any, ...]) -> Canvas | None:
        """The canvas that last encoded section ``index``, if it still holds ``parts``."""
        known = self._latest[index]
        if known is None or known[0] != parts:
            return None
        source = known[1]
        held = source.memo.get("view")
        if held is None or tuple([held.get(k) for k in self.sections[index].keys]) != parts:
            return None
        return source

    def _row_holder(
        self, index: int, slot: int, row: Any, view: Mapping[str, Any]
    ) -> Canvas | None:
        """The canvas that last encoded row ``slot`` of section ``index``, if it holds ``row``
        and the section's other keys (a row may be written differently for another seat) as
        ``view`` has them."""
        known = self._latest_rows.get((index, slot))
        if known is None or (known[0] is not row and known[0] != row):
            return None
        source = known[1]
        held = source.memo.get(index, {}).get(slot)
        if held is not row and held != row:
            return None
        section, held_view = self.sections[index], source.memo.get("view")
        for key in section.keys:
            if key not in section.row_keys:
                old, new = held_view.get(key), view.get(key)
                if old is not new and old != new:
                    return None
        return source


class History:
    """The decisions a seat has seen, one row per decision of the game so far (up to ``rows``):
    the acting seat (one-hot over ``players``), then 1 and ``(index + 1) / num_actions`` of
    the action as the observer saw it (its own action; another seat's `Encoder.public_action`),
    or 0 and 0 if it never saw which action it was. With the observation tensor this gives
    perfect recall: what a seat observed is still in its view or recorded here (tests check
    it on random games)."""

    def __init__(
        self,
        action_ids: Mapping[Any, int],
        players: int,
        rows: int,
        public_action: Callable[[Any], Any],
    ) -> None:
        self.ids = action_ids
        self.players = players
        self.rows = rows
        self.public_action = public_action
        self.shape = (rows, players + 2)
        self.size = rows * (players + 2)

    def encode_into(
        self, out: np.ndarray, history: Sequence[tuple[int, Any]], observer: int | None
    ) -> None:
        """Fill ``out`` (of `shape`) with ``history`` (seat, action) as ``observer`` saw it."""
        out.fill(0.0)
        seen, value = self.players, self.players + 1
        scale = 1.0 / len(self.ids)
        for t, (seat, action) in enumerate(history[: self.rows]):
            row = out[t]
            row[seat] = 1.0
            seen_as = action if seat == observer else self.public_action(action)
            if seen_as is not None:
                row[seen] = 1.0
                row[value] = (self.ids[seen_as] + 1) * scale


def _public(action: Any) -> Any:
    return action


Cells = slice | np.ndarray  # an index into a flat tensor: a slice where the cells are contiguous


def _cells(blocks: Iterable[tuple[int, int]]) -> Cells:
    """The cells of the (offset, size) ``blocks`` as one index: a slice if they are contiguous,
    else an array of their positions."""
    spans = sorted((offset, offset + size) for offset, size in blocks)
    if all(stop == start for (_, stop), (start, _) in itertools.pairwise(spans)):
        return slice(spans[0][0], spans[-1][1])
    return np.concatenate([np.arange(start, stop) for start, stop in spans])


def _row_cells(layout: Layout, section: Section) -> list[Cells]:
    """Per slot of a row section, the cells it writes (empty for other sections)."""
    if section.rows is None:
        return []
    fields = [(layout.offsets[n], _size(layout, n) // _rows(layout, n)) for n in section.fields]
    slots = _rows(layout, section.fields[0])
    return [_cells((off + slot * size, size) for off, size in fields) for slot in range(slots)]


def _rows(layout: Layout, name: str) -> int:
    """The number of rows (the first dimension) of field ``name``."""
    return next(f.shape[0] for f in layout.fields if f.name == name)


def _size(layout: Layout, name: str) -> int:
    return next(f.size for f in layout.fields if f.name == name)


# -- small writers ---------------------------------------------------------------------------


def scaled(value: Any, cap: float) -> float:
    """``value / cap`` clipped to [0, 1]; None and non-numbers give 0."""
    kind = value.__class__
    if kind is not int and kind is not float:
        return 0.0
    share = value / cap
    return 0.0 if share <= 0.0 else 1.0 if share >= 1.0 else share


def one_hot(out: np.ndarray, vocab: Mapping[Any, int], value: Any) -> None:
    """Set ``out[vocab[value]]`` to 1; values outside the vocabulary leave ``out`` at 0."""
    try:
        index = vocab.get(value)
    except TypeError:  # an unhashable value (a list, a dict) is in no vocabulary
        return
    if index is not None:
        out[index] = 1.0


def multi_hot(out: np.ndarray, vocab: Mapping[Any, int], values: Iterable[Any] | None) -> None:
    """Set a 1 for every value of ``values`` found in the vocabulary."""
    for value in values or ():
        one_hot(out, vocab, value)


def counts(
    out: np.ndarray, vocab: Mapping[Any, int], values: Iterable[Any] | None, cap: float
) -> None:
    """Count each vocabulary value in ``values`` into ``out`` (zeros); divide by ``cap`` and clip.
    (In Python: a numpy clip of a few values costs more than the counting.)"""
    tally: dict[int, int] = {}
    for value in values or ():
        try:
            index = vocab.get(value)
        except TypeError:
            continue
        if index is not None:
            tally[index] = tally.get(index, 0) + 1
    for index, n in tally.items():
        out[index] = min(n / cap, 1.0)


def seat_index(value: Any, seats: int) -> int | None:
    """``value`` if it is a seat number below ``seats`` (JSON keys may be digit strings)."""
    if value.__class__ is int:  # the common case, first
        return value if 0 <= value < seats else None
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        return None
    return value


def vocab(values: Iterable[Any]) -> dict[Any, int]:
    """value -> position, for one-hot encodings."""
    return {v: i for i, v in enumerate(values)}


COMMON_FIELDS = ("seat", "to_move", "is_over", "winners", "capped")
COMMON_KEYS = ("seat", "to_move", "is_over", "outcome")


def common_section(seats: int) -> Section:
    """The section of `common_fields`."""
    return Section(
        COMMON_KEYS, COMMON_FIELDS, lambda canvas, view: fill_common(canvas, view, seats)
    )


def common_fields(seats: int) -> list[Field]:
    """The engine's own view keys, shared by every game."""
    return [
        Field("seat", (seats,), "one-hot: the observing seat (all 0 for a spectator)"),
        Field("to_move", (seats,), "1 for each seat that must decide now"),
        Field("is_over", (1,), "1 once the game has ended"),
        Field("winners", (seats,), "1 for each winning seat (game over only)"),
        Field("capped", (1,), "1 if the game was cut off by `max_turns`"),
    ]


def fill_common(canvas: Canvas, view: Mapping[str, Any], seats: int) -> None:
    """Write the fields of `common_fields` from the engine's part of ``view``."""
    seat = seat_index(view.get("seat"), seats)
    if seat is not None:
        canvas["seat"][seat] = 1.0
    for s in view.get("to_move") or ():
        if (i := seat_index(s, seats)) is not None:
            canvas["to_move"][i] = 1.0
    canvas["is_over"][0] = float(bool(view.get("is_over")))
    outcome = view.get("outcome") or {}
    for s in outcome.get("winners") or ():
        if (i := seat_index(s, seats)) is not None:
            canvas["winners"][i] = 1.0
    canvas["capped"][0] = float(bool(outcome.get("capped")))
