"""Shadows over Japan's fixed-size tensor (see docs/interop.md for the layout table).

Provinces are indexed in the order of the game's map data (``data/map.json``, 72 provinces).
The view lists only provinces that hold something or changed hands; every other province is
empty and owned by its home Noble, which the encoder fills in from the same static map data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from intrigue.engine import Action
from intrigue.games.shadows_over_japan.data import HOME, HONOUR_KEYS, INTELLIGENCE, KEYS, NOBLES

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

SEATS = 4
PROVINCES = vocab(KEYS)
NP = len(KEYS)
NOBLE = vocab(NOBLES)
STYLES = vocab(("stone", "scissor", "paper"))
SAMURAI = vocab((*STYLES, "hidden"))
HONOURS = vocab(HONOUR_KEYS)
INTEL = vocab(card for cards in INTELLIGENCE for card in cards)
PHASES = vocab(("setup", "actions", "spend", "discard", "over"))
SEASONS = vocab(("summer", "winter"))
ROUND_CAP = 30  # seasons scale by max_turns when set, else by this
SEAT_VOCAB = vocab(range(SEATS))
# (key, cap) of each Noble's public figures, in tensor order
NOBLE_STATS = (
    ("economy", 60),
    ("military", 60),
    ("armies", 5),
    ("samurai", 24),
    ("provinces", 36),
    ("conquered", 10),
    ("lost", 10),
    ("intelligence_at_capital", 3),
    ("honours", 6),
    ("development_supply", 20),
    ("army_supply", 5),
)
PLAYER_STATS = (("gold", 10), ("hand_size", 10), ("ninjas", 6), ("pool", 6))

LAYOUT = Layout(
    [
        *common_fields(SEATS),
        Field("phase", (len(PHASES),), "one-hot: setup, actions, spend, discard, over"),
        Field("round", (1,), "season number / max_turns (or / 30)"),
        Field("season", (len(SEASONS),), "one-hot: summer, winter"),
        Field("year", (1,), "year / 15"),
        Field("current", (SEATS,), "one-hot: the seat whose turn it is"),
        Field("order", (SEATS, SEATS), "turn order: position i -> one-hot seat"),
        Field("actions_left", (1,), "ninja actions left / 10"),
        Field("rules", (3,), "options: per_interaction cost, rival missions, open neutral"),
        Field("setup_provinces", (SEATS, NP), "each seat's set-up ninja provinces"),
        Field("owner", (NP, len(NOBLE)), "per province one-hot: owning Noble"),
        Field("developments", (NP,), "developments / 3"),
        Field("samurai", (NP, len(SAMURAI)), "per province one-hot: stone, scissor, paper, hidden"),
        Field("army", (NP, len(NOBLE)), "per province one-hot: the Noble of its army"),
        Field("army_moved", (NP,), "1 if the army there marched this season"),
        Field("occupier", (NP, len(NOBLE)), "per province one-hot: occupying Noble"),
        Field("ninja", (NP, SEATS), "per province one-hot: the seat of the ninja there"),
        Field("ninja_mine", (NP,), "1 where the observing seat's ninja stands"),
        Field("ninja_revealed", (NP,), "1 for a revealed ninja"),
        Field("ninja_style", (NP, len(STYLES)), "the ninja's style, if revealed or yours"),
        Field("ninja_infiltrating", (NP,), "1 for a ninja infiltrating the army there"),
        Field(
            "nobles",
            (len(NOBLE), len(NOBLE_STATS)),
            "per Noble: economy/60, military/60, armies/5, samurai/24, provinces/36,"
            " conquered/10, lost/10, intelligence at capital/3, honours/6, development"
            " supply/20, army supply/5",
        ),
        Field("marker", (SEATS, SEATS), "per seat one-hot: turn marker 1..4"),
        Field("player_stats", (SEATS, len(PLAYER_STATS)), "gold/10, hand/10, ninjas/6, pool/6"),
        Field("intelligence", (SEATS, len(INTEL)), "Intelligence cards each seat holds"),
        Field("ruled_out", (SEATS, len(NOBLE)), "Nobles publicly ruled out for each seat"),
        Field("noble", (SEATS, len(NOBLE)), "each seat's Noble, where known (yours; all at end)"),
        Field("honour_up", (len(HONOURS),), "one-hot: the face-up Honour card"),
        Field("honour_deck", (1,), "Honour cards left / 12"),
        Field("honours_awarded", (len(HONOURS), len(NOBLE) + 1), "Honour -> Noble (or nobody)"),
        Field("deck_size", (1,), "territory deck / 72"),
        Field("discard", (NP,), "territory cards in the discard pile"),
        Field("samurai_supply", (len(STYLES) + 1,), "supply by style / 8, hidden flag"),
        Field("gold_supply", (1,), "gold in the supply / 25"),
        Field("unbacked", (len(NOBLE),), "Nobles known to be backed by nobody"),
        Field("you_hand", (NP,), "your territory cards"),
        Field("you_pool", (len(STYLES),), "your pool by style / 2"),
        Field("you_claimable", (NP,), "missions you may claim now"),
    ]
)


def _fill_header(canvas: Canvas, view: Mapping[str, Any]) -> None:
    one_hot(canvas["phase"], PHASES, view.get("phase"))
    canvas["round"][0] = scaled(view.get("round"), view.get("max_turns") or ROUND_CAP)
    one_hot(canvas["season"], SEASONS, view.get("season"))
    canvas["year"][0] = scaled(view.get("year"), 15)
    one_hot(canvas["current"], SEAT_VOCAB, view.get("current"))
    for i, s in enumerate((view.get("order") or [])[:SEATS]):
        one_hot(canvas["order"][i], SEAT_VOCAB, s)
    canvas["actions_left"][0] = scaled(view.get("actions_left"), 10)


def _fill_rules(canvas: Canvas, view: Mapping[str, Any]) -> None:
    rules = view.get("options") or {}
    canvas["rules"][:] = [
        float(rules.get("interaction_cost") == "per_interaction"),
        float(rules.get("missions") == "rival"),
        float(rules.get("neutral") == "open"),
    ]
    for s, provinces in enumerate((view.get("setup_provinces") or [])[:SEATS]):
        multi_hot(canvas["setup_provinces"][s], PROVINCES, provinces)


def _home_owners() -> np.ndarray:
    owners = np.zeros((NP, len(NOBLE)), np.float32)
    owners[np.arange(NP), HOME] = 1.0
    return owners


HOME_OWNERS = _home_owners()  # the owner block of a board where nothing changed hands


def _fill_provinces(canvas: Canvas, view: Mapping[str, Any]) -> None:
    canvas["owner"][...] = HOME_OWNERS
    me = seat_index(view.get("seat"), SEATS)
    for p, row in _province_rows(view).items():
        canvas["owner"][p] = 0.0
        _fill_province(canvas, p, row, me)


def _province_rows(view: Mapping[str, Any]) -> dict[int, Any]:
    """Each listed province's row by its index (a later row of the same province wins)."""
    rows = {}
    for row in view.get("provinces") or ():
        if (p := PROVINCES.get(row.get("key"))) is not None:
            rows[p] = row
    return rows


def _fill_province_row(canvas: Canvas, p: int, row: Any, view: Mapping[str, Any]) -> None:
    """Province ``p`` on zeros: its row, or its home Noble if the view leaves it out."""
    if row is None:
        canvas["owner"][p] = HOME_OWNERS[p]
    else:
        _fill_province(canvas, p, row, seat_index(view.get("seat"), SEATS))


def _fill_province(canvas: Canvas, p: int, row: Mapping[str, Any], me: int | None) -> None:
    one_hot(canvas["owner"][p], NOBLE, row.get("owner"))
    canvas["developments"][p] = scaled(row.get("developments"), 3)
    one_hot(canvas["samurai"][p], SAMURAI, row.get("samurai"))
    one_hot(canvas["army"][p], NOBLE, row.get("army"))
    canvas["army_moved"][p] = float(bool(row.get("army_moved")))
    one_hot(canvas["occupier"][p], NOBLE, row.get("occupier"))
    ninja = row.get("ninja")
    if ninja:
        _fill_ninja(canvas, p, ninja, me)


def _fill_ninja(canvas: Canvas, p: int, ninja: Mapping[str, Any], me: int | None) -> None:
    owner = seat_index(ninja.get("seat"), SEATS)
    if owner is not None:
        canvas["ninja"][p, owner] = 1.0
    canvas["ninja_mine"][p] = float(owner is not None and owner == me)
    canvas["ninja_revealed"][p] = float(bool(ninja.get("revealed")))
    one_hot(canvas["ninja_style"][p], STYLES, ninja.get("style"))
    canvas["ninja_infiltrating"][p] = float(bool(ninja.get("infiltrating")))


def _fill_nobles(canvas: Canvas, view: Mapping[str, Any]) -> None:
    for row in view.get("nobles") or ():
        n = NOBLE.get(row.get("key"))
        if n is not None:
            canvas["nobles"][n] = [scaled(row.get(key), cap) for key, cap in NOBLE_STATS]


def _fill_players(canvas: Canvas, view: Mapping[str, Any]) -> None:
    for row in view.get("players") or ():
        s = seat_index(row.get("seat"), SEATS)
        if s is None:
            continue
        one_hot(canvas["marker"][s], vocab(range(1, SEATS + 1)), row.get("marker"))
        canvas["player_stats"][s] = [scaled(row.get(key), cap) for key, cap in PLAYER_STATS]
        multi_hot(canvas["intelligence"][s], INTEL, row.get("intelligence"))
        multi_hot(canvas["ruled_out"][s], NOBLE, row.get("ruled_out"))
        one_hot(canvas["noble"][s], NOBLE, row.get("noble"))


def _fill_cards(canvas: Canvas, view: Mapping[str, Any]) -> None:
    honours = view.get("honours") or {}
    one_hot(canvas["honour_up"], HONOURS, honours.get("face_up"))
    canvas["honour_deck"][0] = scaled(honours.get("deck_size"), len(HONOURS))
    for award in honours.get("awarded") or ():
        h = HONOURS.get(award.get("honour"))
        if h is not None:
            canvas["honours_awarded"][h, NOBLE.get(award.get("noble"), len(NOBLE))] = 1.0
    canvas["deck_size"][0] = scaled(view.get("deck_size"), NP)
    multi_hot(canvas["discard"], PROVINCES, view.get("discard"))
    supply = view.get("samurai_supply")
    if supply is None:
        canvas["samurai_supply"][len(STYLES)] = 1.0
    else:
        for style, i in STYLES.items():
            canvas["samurai_supply"][i] = scaled(supply.get(style), 8)
    canvas["gold_supply"][0] = scaled(view.get("gold_supply"), 25)
    multi_hot(canvas["unbacked"], NOBLE, view.get("unbacked"))


def _fill_you(canvas: Canvas, view: Mapping[str, Any]) -> None:
    you = view.get("you")
    if not you:
        return
    multi_hot(canvas["you_hand"], PROVINCES, [card.get("key") for card in you.get("hand") or ()])
    pool = you.get("pool") or {}
    for style, i in STYLES.items():
        canvas["you_pool"][i] = scaled(pool.get(style), 2)
    multi_hot(canvas["you_claimable"], PROVINCES, you.get("claimable"))


HEADER = ("phase", "round", "season", "year", "current", "order", "actions_left")
PROVINCE_FIELDS = (
    "owner", "developments", "samurai", "army", "army_moved", "occupier", "ninja",
    "ninja_mine", "ninja_revealed", "ninja_style", "ninja_infiltrating",
)  # fmt: skip
PLAYER_FIELDS = ("marker", "player_stats", "intelligence", "ruled_out", "noble")
CARD_FIELDS = (
    "honour_up", "honour_deck", "honours_awarded", "deck_size", "discard", "samurai_supply",
    "gold_supply", "unbacked",
)  # fmt: skip
CARD_KEYS = ("honours", "deck_size", "discard", "samurai_supply", "gold_supply", "unbacked")


# Other seats never see the style of a ninja placed at set-up or of a samurai recruited, nor
# whether a substitution swapped the two ninjas (they see the two provinces).
def _public_action(action: Action) -> Action | None:
    if action.verb in {"style", "recruit"}:
        return None
    if action.verb == "substitute":
        return Action("substitute", *action.args[:2])
    return action


ENCODER = Encoder(
    "shadows-over-japan",
    LAYOUT,
    [
        common_section(SEATS),
        Section(
            ("phase", "round", "max_turns", "season", "year", "current", "order", "actions_left"),
            HEADER,
            _fill_header,
        ),
        Section(("options", "setup_provinces"), ("rules", "setup_provinces"), _fill_rules),
        Section(
            ("provinces", "seat"),
            PROVINCE_FIELDS,
            _fill_provinces,
            row_keys=("provinces",),
            rows=_province_rows,
            fill_row=_fill_province_row,
        ),
        Section(("nobles",), ("nobles",), _fill_nobles),
        Section(("players",), PLAYER_FIELDS, _fill_players),
        Section(CARD_KEYS, CARD_FIELDS, _fill_cards),
        Section(("you",), ("you_hand", "you_pool", "you_claimable"), _fill_you),
    ],
    public_action=_public_action,
)
