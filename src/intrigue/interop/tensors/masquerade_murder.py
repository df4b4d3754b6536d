"""Masquerade Murder's fixed-size tensor (see docs/interop.md for the layout table).

Cells of either board are placed on one 5x4 grid (columns a-e, rows 1-4): cell ``c<r>`` is
index ``(r - 1) * 5 + column``. The two most recent nights are encoded in full; older nights
only through the per-seat totals (captures, poisons and distractions).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from intrigue.engine import Action
from intrigue.engine.game import SharedList

from .base import (
    Canvas,
    Encoder,
    Field,
    Layout,
    Section,
    common_fields,
    common_section,
    multi_hot,
    one_hot,
    scaled,
    seat_index,
    vocab,
)

SEATS = 5
ROLES = vocab(("constable", "thug", "seductress", "assassin", "duke"))
CARDS = vocab(("ace", "two", "jack", "queen", "king", "joker"))
PHASES = vocab(("target", "draft", "placement", "over"))
BOARDS = vocab(("theta16", "ring12"))
STATUS = vocab(("in", "jailed", "dead"))
COLOURS = vocab(("GREY", "GREEN", "RED"))
EFFECTS = vocab(("captured", "distracted", "poisoned"))
LEFT = vocab(("jailed", "dead"))
COLUMNS, ROWS = "abcde", 4
CELLS = len(COLUMNS) * ROWS
NIGHT_CAP = 30  # nights scale by max_turns when set, else by this
RECENT = 2  # nights encoded in full, most recent first
SEAT_VOCAB = vocab(range(SEATS))


def cell_index(name: Any) -> int | None:
    """Index of a cell name on the shared 5x4 grid, None for anything else."""
    return _cell_index(name) if name.__class__ is str else None


@functools.cache
def _cell_index(name: str) -> int | None:
    if len(name) != 2 or name[0] not in COLUMNS:
        return None
    if not name[1].isdigit() or not 1 <= int(name[1]) <= ROWS:
        return None
    return (int(name[1]) - 1) * len(COLUMNS) + COLUMNS.index(name[0])


def _night_fields(k: int) -> list[Field]:
    ago = "last night" if k == 0 else f"{k + 1} nights ago"
    return [
        Field(f"n{k}_present", (1,), f"1 if there was a night {ago}"),
        Field(f"n{k}_cells", (SEATS, CELLS), f"{ago}: the cell each seat sat on"),
        Field(f"n{k}_cards", (SEATS, len(CARDS)), f"{ago}: the order card each seat showed"),
        Field(f"n{k}_effects", (SEATS, len(EFFECTS)), f"{ago}: captured, distracted, poisoned"),
        Field(f"n{k}_left", (SEATS, len(LEFT)), f"{ago}: seats that left (jailed, dead)"),
    ]


LAYOUT = Layout(
    [
        *common_fields(SEATS),
        Field("night", (1,), "night number / max_turns (or / 30 when unlimited)"),
        Field("phase", (len(PHASES),), "one-hot: target, draft, placement, over"),
        Field("board", (len(BOARDS),), "one-hot: theta16, ring12"),
        Field(
            "seating", (SEATS, SEATS), "row i: one-hot of the seat i-th in the seating, clockwise"
        ),
        Field("status", (SEATS, len(STATUS)), "per seat one-hot: in, jailed, dead"),
        Field("captures", (SEATS,), "captures so far / 3"),
        Field("poisons", (SEATS,), "poisons so far / 3"),
        Field("distractions", (SEATS,), "nights distracted so far / 10"),
        Field("decided", (SEATS,), "target phase: 1 for each seat that has chosen"),
        Field("table_card", (SEATS, len(CARDS)), "placement: each seat's order card"),
        Field("table_cell", (SEATS, CELLS), "placement: the cell each seat has taken"),
        Field("draft_drawers", (SEATS,), "draft: seats that draw this night"),
        Field("draft_drawn", (SEATS,), "draft: seats that have drawn"),
        Field("draft_drawer", (SEATS,), "draft: one-hot, the seat drawing now"),
        Field("draft_pile_size", (1,), "draft: cards left in the pile / 6"),
        Field("draft_pile", (len(CARDS),), "draft: the pile, seen only by its drawer"),
        Field("place_order", (len(CARDS), SEATS), "placement: slot i -> one-hot seat"),
        Field("place_slot", (len(CARDS),), "placement: one-hot, the slot playing now"),
        Field("place_extra", (len(CARDS),), "placement: one-hot, the extra card"),
        Field("place_joker", (SEATS,), "placement: one-hot, the Joker holder"),
        *(f for k in range(RECENT) for f in _night_fields(k)),
        Field("you_role", (len(ROLES),), "one-hot: your role"),
        Field("you_target", (SEATS,), "one-hot: your target this night"),
        Field("you_card", (len(CARDS),), "one-hot: your order card this night"),
        Field("you_pile_seen", (len(CARDS),), "the cards of the pile when you drew"),
        Field("you_colours", (SEATS, len(COLOURS)), "colour seen on each target / 10, all nights"),
        Field("you_last_target", (SEATS,), "one-hot: your target in your latest result"),
        Field("you_last_colour", (len(COLOURS),), "one-hot: the colour of your latest result"),
        Field("you_last_effects", (len(EFFECTS),), "effects on you in your latest result"),
        Field("roles", (SEATS, len(ROLES)), "every seat's role, shown when the game is over"),
    ]
)


def _fill_header(canvas: Canvas, view: Mapping[str, Any]) -> None:
    cap = view.get("max_turns") or NIGHT_CAP
    canvas["night"][0] = scaled(view.get("night"), cap)
    one_hot(canvas["phase"], PHASES, view.get("phase"))
    one_hot(canvas["board"], BOARDS, (view.get("board") or {}).get("name"))


def _fill_roles(canvas: Canvas, view: Mapping[str, Any]) -> None:
    for s, role in enumerate((view.get("roles") or [])[:SEATS]):
        one_hot(canvas["roles"][s], ROLES, role)


def _fill_seating(canvas: Canvas, view: Mapping[str, Any]) -> None:
    for i, seat in enumerate((view.get("seating") or [])[:SEATS]):
        if (s := seat_index(seat, SEATS)) is not None:
            canvas["seating"][i, s] = 1.0


def _fill_table(canvas: Canvas, view: Mapping[str, Any]) -> None:
    # Rows repeat from one position to the next: each distinct row is turned into its writes
    # once (`_row_writes`), then replayed; this section changes at almost every decision.
    for row in view.get("table") or ():
        try:
            key = tuple(row.items())
            writes = _ROWS.get(key)
        except TypeError:  # an unhashable value: the slow way, not kept
            key, writes = None, None
        if writes is None:
            writes = _row_writes(row)
            if key is not None:
                _ROWS[key] = writes
        for name, index, value in writes:
            canvas[name][index] = value


_ROWS: dict[tuple[Any, ...], tuple[tuple[str, tuple[int, ...], float], ...]] = {}


def _row_writes(row: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, ...], float], ...]:
    """The (field, index, value) writes of one table row."""
    s = seat_index(row.get("seat"), SEATS)
    if s is None:
        return ()
    writes = [
        ("captures", (s,), scaled(row.get("captures"), 3)),
        ("poisons", (s,), scaled(row.get("poisons"), 3)),
        ("decided", (s,), float(bool(row.get("decided")))),
    ]
    for name, vocabulary, value in (("status", STATUS, "status"), ("table_card", CARDS, "card")):
        try:
            index = vocabulary.get(row.get(value))
        except TypeError:
            index = None
        if index is not None:
            writes.append((name, (s, index), 1.0))
    if (c := cell_index(row.get("cell"))) is not None:
        writes.append(("table_cell", (s, c), 1.0))
    return tuple(writes)


def _fill_draft(canvas: Canvas, view: Mapping[str, Any]) -> None:
    draft = view.get("draft")
    if not draft:
        return
    seats = vocab(range(SEATS))
    multi_hot(canvas["draft_drawers"], seats, draft.get("drawers"))
    multi_hot(canvas["draft_drawn"], seats, draft.get("drawn"))
    one_hot(canvas["draft_drawer"], seats, draft.get("drawer"))
    canvas["draft_pile_size"][0] = scaled(draft.get("pile_size"), len(CARDS))
    multi_hot(canvas["draft_pile"], CARDS, draft.get("pile"))


def _fill_placement(canvas: Canvas, view: Mapping[str, Any]) -> None:
    placement = view.get("placement")
    if not placement:
        return
    seats = vocab(range(SEATS))
    for i, s in enumerate((placement.get("order") or [])[: len(CARDS)]):
        one_hot(canvas["place_order"][i], seats, s)
    one_hot(canvas["place_slot"], vocab(range(len(CARDS))), placement.get("slot"))
    one_hot(canvas["place_extra"], CARDS, placement.get("extra"))
    one_hot(canvas["place_joker"], seats, placement.get("joker"))


NIGHT_FIELDS = tuple(
    f.name for f in LAYOUT.fields if f.name == "distractions" or f.name[:2] in {"n0", "n1"}
)


def _fill_nights(canvas: Canvas, view: Mapping[str, Any]) -> None:
    """The finished nights. `State.shared_view` hands out the same list (to every seat) until
    another night ends, so the latest list's encoding is kept and copied back while it is the
    same object (held here, so no other list can take its identity)."""
    global _NIGHTS
    nights = view.get("nights") or []
    kept = _NIGHTS  # one read: the pair stays consistent even if another thread replaces it
    if kept[0] is nights:
        for name, saved in zip(NIGHT_FIELDS, kept[1], strict=True):
            canvas[name][...] = saved
        return
    _fill_distractions(canvas, nights)
    for k, night in enumerate(reversed(nights[-RECENT:])):
        _fill_night(canvas, f"n{k}", night)
    if isinstance(nights, SharedList):  # a list the game promises never to change
        _NIGHTS = (nights, [canvas[name].copy() for name in NIGHT_FIELDS])


_NIGHTS: tuple[Any, Any] = (None, None)  # the last shared list of nights and its encoding


def _fill_distractions(canvas: Canvas, nights: list[Mapping[str, Any]]) -> None:
    for night in nights:
        for s in night.get("distracted") or ():
            if (i := seat_index(s, SEATS)) is not None:
                canvas["distractions"][i] += 0.1
    canvas["distractions"].clip(0.0, 1.0, out=canvas["distractions"])


def _fill_night(canvas: Canvas, prefix: str, night: Mapping[str, Any]) -> None:
    canvas[f"{prefix}_present"][0] = 1.0
    for key, cell in (night.get("cells") or {}).items():
        s, c = seat_index(key, SEATS), cell_index(cell)
        if s is not None and c is not None:
            canvas[f"{prefix}_cells"][s, c] = 1.0
    for key, card in (night.get("cards") or {}).items():
        if (s := seat_index(key, SEATS)) is not None:
            one_hot(canvas[f"{prefix}_cards"][s], CARDS, card)
    for effect, column in EFFECTS.items():
        for key in night.get(effect) or ():
            if (s := seat_index(key, SEATS)) is not None:
                canvas[f"{prefix}_effects"][s, column] = 1.0
    for departure in night.get("left") or ():
        if (s := seat_index(departure.get("seat"), SEATS)) is not None:
            one_hot(canvas[f"{prefix}_left"][s], LEFT, departure.get("how"))


def _fill_you(canvas: Canvas, view: Mapping[str, Any]) -> None:
    you = view.get("you")
    if not you:
        return
    one_hot(canvas["you_role"], ROLES, you.get("role"))
    one_hot(canvas["you_target"], SEAT_VOCAB, you.get("target"))
    one_hot(canvas["you_card"], CARDS, you.get("card"))
    multi_hot(canvas["you_pile_seen"], CARDS, you.get("pile_seen"))
    results = you.get("results") or []
    if results:
        _fill_results(canvas, results)


def _fill_results(canvas: Canvas, results: list[Mapping[str, Any]]) -> None:
    """A seat's night results. The game keeps each seat's list until another night ends, so
    its encoding is kept per seat's list (held, as for the nights) and copied back."""
    saved = _RESULTS.get(id(results))
    if saved is not None and saved[0] is results:
        for name, block in zip(RESULT_FIELDS, saved[1], strict=True):
            canvas[name][...] = block
        return
    colours = canvas["you_colours"]
    for result in results:
        t, colour = seat_index(result.get("target"), SEATS), COLOURS.get(result.get("colour"))
        if t is not None and colour is not None:
            colours[t, colour] += 0.1
    colours.clip(0.0, 1.0, out=colours)
    last = results[-1]
    one_hot(canvas["you_last_target"], SEAT_VOCAB, last.get("target"))
    one_hot(canvas["you_last_colour"], COLOURS, last.get("colour"))
    multi_hot(canvas["you_last_effects"], EFFECTS, last.get("effects"))
    if len(_RESULTS) >= 4 * SEATS:  # a few games' worth; older lists are not asked again
        _RESULTS.clear()
    _RESULTS[id(results)] = (results, [canvas[name].copy() for name in RESULT_FIELDS])


RESULT_FIELDS = ("you_colours", "you_last_target", "you_last_colour", "you_last_effects")
_RESULTS: dict[int, tuple[list[Any], list[Any]]] = {}


def _fields(prefix: str) -> tuple[str, ...]:
    return tuple(f.name for f in LAYOUT.fields if f.name.startswith(prefix))


TABLE_FIELDS = ("status", "captures", "poisons", "decided", "table_card", "table_cell")


# Other seats never see a secret target or which order card was taken from the pile.
def _public_action(action: Action) -> Action | None:
    return None if action.verb in {"target", "draw"} else action


ENCODER = Encoder(
    "masquerade-murder",
    LAYOUT,
    [
        common_section(SEATS),
        Section(
            ("night", "max_turns", "phase", "board"), ("night", "phase", "board"), _fill_header
        ),
        Section(("seating",), ("seating",), _fill_seating),
        Section(("table",), TABLE_FIELDS, _fill_table),
        Section(("draft",), _fields("draft_"), _fill_draft),
        Section(("placement",), _fields("place_"), _fill_placement),
        Section(("nights",), NIGHT_FIELDS, _fill_nights),
        Section(("you",), _fields("you_"), _fill_you),
        Section(("roles",), ("roles",), _fill_roles),
    ],
    public_action=_public_action,
)
