"""The Masquerade Ball's fixed-size tensor (see docs/interop.md for the layout table).

Both palaces share one grid of *places*: four courtrooms (North, East, South, West) of 3 rows
by 6 files, counted from each courtroom's throne row, then 16 ballroom slots. The two-player
palace uses North (rows 1-3), South (rows 7-5) and ballroom slots 0-5 (row 4, files a-f); the
four-player palace uses all four courtrooms and ``ball0``..``ball15`` (cards past the 16th are
only counted in ``ball_overflow``).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from intrigue.engine import Action

from .base import (
    Canvas,
    Encoder,
    Field,
    Layout,
    Section,
    common_fields,
    common_section,
    counts,
    one_hot,
    scaled,
    seat_index,
    vocab,
)

SEATS = SIDES = 4
FILES = "abcdef"
COURTS = "nesw"
COURT_PLACES = 3 * len(FILES)
BALL_SLOTS = 16
PLACES = len(COURTS) * COURT_PLACES + BALL_SLOTS
RANKS = vocab(("Q", "K", "J", "10", "9", "8", "A", "Joker", "7", "6", "5", "4", "3", "2"))
PHASES = vocab(("inspect", "main", "place", "drop", "over"))
PLACING = vocab(("play", "free", "resurrect"))
AXES = vocab(("NS", "EW"))
CARD = 4 + 1 + len(RANKS) + 2 + 2  # side, up, rank, acting+moved, axis
TURN_CAP = 200  # turns scale by max_turns when set, else by this
SIDE_VOCAB = vocab(range(SIDES))


def place_index(name: Any) -> int | None:
    """The shared-grid index of a square name of either palace (None if it names none)."""
    return _place_index(name) if name.__class__ is str else None


@functools.cache
def _place_index(name: str) -> int | None:
    if name.startswith("ball") and name[4:].isdigit():
        slot = int(name[4:])
        return len(COURTS) * COURT_PLACES + slot if slot < BALL_SLOTS else None
    if len(name) == 3 and name[0] in COURTS:
        court, file, row = COURTS.index(name[0]), name[1], name[2]
    elif len(name) == 2 and name[1].isdigit():
        file, number = name[0], int(name[1])
        if number == 4:  # the two-player ballroom row
            return len(COURTS) * COURT_PLACES + FILES.index(file) if file in FILES else None
        court, row = (0, str(number)) if number <= 3 else (2, str(8 - number))
    else:
        return None
    if file not in FILES or row not in "123":
        return None
    return court * COURT_PLACES + (int(row) - 1) * len(FILES) + FILES.index(file)


LAYOUT = Layout(
    [
        *common_fields(SEATS),
        Field("phase", (len(PHASES),), "one-hot: inspect, main, place, drop, over"),
        Field("turn", (1,), "turn number / max_turns (or / 200 when unlimited)"),
        Field("side_to_play", (SIDES,), "one-hot: the entourage whose turn it is"),
        Field("played", (1,), "1 once a card was played from the hand this turn"),
        Field(
            "places",
            (PLACES, CARD),
            "per place: side one-hot (4), face up, rank one-hot if known (Q K J 10 9 8 A Joker"
            " 7 6 5 4 3 2), acting, moved, axis NS/EW",
        ),
        Field("ball_overflow", (1,), "ballroom cards beyond slot 15 / 40"),
        Field("controller", (SIDES, SEATS + 1), "per side one-hot: controlling seat, or nobody"),
        Field("mine", (SIDES,), "1 for each side the observing seat controls"),
        Field("hand_count", (SIDES,), "cards in each side's hand / 14"),
        Field("hand_ranks", (SIDES, len(RANKS)), "known ranks in each hand (count / 2)"),
        Field("prison_count", (SIDES,), "cards in each side's prison / 28"),
        Field("prison_ranks", (SIDES, len(RANKS)), "known ranks in each prison (count / 2)"),
        Field("prisoners_of", (SIDES, SIDES), "prison of side i: cards owned by side j / 14"),
        Field("grave_count", (SIDES,), "cards in each side's graveyard / 14"),
        Field("grave_ranks", (SIDES, len(RANKS)), "known ranks in each graveyard (count / 2)"),
        Field("graveyard_of", (SIDES, SIDES), "graveyard of side i: cards of entourage j / 14"),
        Field("placing_how", (len(PLACING),), "place phase: one-hot play, free, resurrect"),
        Field("placing_rank", (len(RANKS),), "place phase: the card's rank (its placer only)"),
        Field("delivering", (PLACES,), "drop phase: one-hot, the card the Nun delivers"),
        Field("must_move", (PLACES,), "cards that must move (MB-10)"),
        Field("pending_from", (PLACES,), "declared attacks: squares the attackers came from"),
        Field("pending_to", (PLACES,), "declared attacks: squares attacked"),
        Field("pending_cards", (2, CARD), "the first two declared attackers, as in `places`"),
        Field("holding", (SEATS, SIDES), "seat i has held side j's thrones since its last turn"),
    ]
)


def _fill_header(canvas: Canvas, view: Mapping[str, Any]) -> None:
    one_hot(canvas["phase"], PHASES, view.get("phase"))
    canvas["turn"][0] = scaled(view.get("turn"), view.get("max_turns") or TURN_CAP)
    one_hot(canvas["side_to_play"], SIDE_VOCAB, view.get("side_to_play"))
    canvas["played"][0] = float(bool(view.get("played")))


def _fill_sides(canvas: Canvas, view: Mapping[str, Any]) -> None:
    me = seat_index(view.get("seat"), SEATS)
    for side in view.get("sides") or []:
        _fill_side(canvas, side, me)


def _card(out: np.ndarray, card: Mapping[str, Any]) -> None:
    """The `CARD` features of one card view."""
    get = card.get
    key = (get("side"), get("up"), get("rank"), get("acting"), get("moved"), get("axis"))
    try:
        features = _CARDS.get(key)
    except TypeError:  # an unhashable value: encode it the slow way
        features = None
    if features is None:
        features = _card_features(*key)
        with contextlib.suppress(TypeError):
            _CARDS[key] = features
    out[...] = features


_CARDS: dict[tuple[Any, ...], np.ndarray] = {}  # card views repeat: their features, encoded once


def _card_features(side: Any, up: Any, rank: Any, acting: Any, moved: Any, axis: Any) -> np.ndarray:
    out = np.zeros(CARD, np.float32)
    if (s := seat_index(side, SIDES)) is not None:
        out[s] = 1.0
    out[4] = float(bool(up))
    one_hot(out[5 : 5 + len(RANKS)], RANKS, rank)
    out[5 + len(RANKS)] = float(bool(acting))
    out[6 + len(RANKS)] = float(bool(moved))
    one_hot(out[7 + len(RANKS) :], AXES, axis)
    return out


def _fill_places(canvas: Canvas, view: Mapping[str, Any]) -> None:
    places = canvas["places"]
    for i, card in _place_rows(view).items():
        _card(places[i], card)


def _place_rows(view: Mapping[str, Any]) -> dict[int, Any]:
    """The card view on each place of the shared grid: the board's, then the ballroom's first
    `BALL_SLOTS` (a later card on the same place wins)."""
    rows = {}
    for name, card in (view.get("board") or {}).items():
        if name.__class__ is str and (i := _place_index(name)) is not None:  # place_index
            rows[i] = card
    for k, card in enumerate((view.get("ballroom") or [])[:BALL_SLOTS]):
        rows[len(COURTS) * COURT_PLACES + k] = card
    return rows


def _fill_place(canvas: Canvas, i: int, card: Any, view: Mapping[str, Any]) -> None:
    if card is not None:
        _card(canvas["places"][i], card)


def _fill_overflow(canvas: Canvas, view: Mapping[str, Any]) -> None:
    canvas["ball_overflow"][0] = scaled(len(view.get("ballroom") or []) - BALL_SLOTS, 40)


def _fill_side(canvas: Canvas, side: Mapping[str, Any], me: int | None) -> None:
    e = seat_index(side.get("side"), SIDES)
    if e is None:
        return
    ctrl = seat_index(side.get("controller"), SEATS)
    canvas["controller"][e, SEATS if ctrl is None else ctrl] = 1.0
    canvas["mine"][e] = float(ctrl is not None and ctrl == me)
    for pile, cap in (("hand", 14), ("prison", 28), ("grave", 14)):
        data = side.get("graveyard" if pile == "grave" else pile) or {}
        canvas[f"{pile}_count"][e] = scaled(data.get("count"), cap)
        ranks = data.get("cards") if "cards" in data else data.get("known")
        counts(canvas[f"{pile}_ranks"][e], RANKS, ranks, 2)
    counts(canvas["prisoners_of"][e], SIDE_VOCAB, side.get("prisoners_of"), 14)
    counts(canvas["graveyard_of"][e], SIDE_VOCAB, side.get("graveyard_of"), 14)


def _fill_turn_state(canvas: Canvas, view: Mapping[str, Any]) -> None:
    placing = view.get("placing") or {}
    one_hot(canvas["placing_how"], PLACING, placing.get("how"))
    one_hot(canvas["placing_rank"], RANKS, placing.get("rank"))
    if (i := place_index(view.get("delivering"))) is not None:
        canvas["delivering"][i] = 1.0
    for name in view.get("must_move") or ():
        if (i := place_index(name)) is not None:
            canvas["must_move"][i] = 1.0
    for k, attack in enumerate(view.get("pending") or []):
        for key in ("from", "to"):
            if (i := place_index(attack.get(key))) is not None:
                canvas[f"pending_{key}"][i] = 1.0
        if k < 2:
            _card(canvas["pending_cards"][k], attack.get("attacker") or {})
    for held in view.get("holding") or ():
        seat, side = seat_index(held.get("seat"), SEATS), seat_index(held.get("side"), SIDES)
        if seat is not None and side is not None:
            canvas["holding"][seat, side] = 1.0


SIDE_FIELDS = tuple(
    f"{pile}_{what}" for pile in ("hand", "prison", "grave") for what in ("count", "ranks")
)
TURN_STATE = (
    "placing_how", "placing_rank", "delivering", "must_move", "pending_from", "pending_to",
    "pending_cards", "holding",
)  # fmt: skip


# Other seats see that a card was played from a hand, not which one (only its suit).
def _public_action(action: Action) -> Action | None:
    return None if action.verb == "play" else action


ENCODER = Encoder(
    "masquerade-ball",
    LAYOUT,
    [
        common_section(SEATS),
        Section(
            ("phase", "turn", "max_turns", "side_to_play", "played"),
            ("phase", "turn", "side_to_play", "played"),
            _fill_header,
        ),
        Section(
            ("board", "ballroom"),
            ("places",),
            _fill_places,
            row_keys=("board", "ballroom"),
            rows=_place_rows,
            fill_row=_fill_place,
        ),
        Section(("ballroom",), ("ball_overflow",), _fill_overflow),
        Section(
            ("sides", "seat"),
            ("controller", "mine", *SIDE_FIELDS, "prisoners_of", "graveyard_of"),
            _fill_sides,
        ),
        Section(
            ("placing", "delivering", "must_move", "pending", "holding"),
            TURN_STATE,
            _fill_turn_state,
        ),
    ],
    public_action=_public_action,
)
