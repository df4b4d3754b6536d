"""Project Assassination's fixed-size tensor (see docs/interop.md for the layout table).

The bar is a 7x7 grid; cell ``<column><row>`` (a-g, 1-7) is index ``(row - 1) * 7 + column``.
Everything but the decks' order is public, so both seats' tensors differ only in ``seat``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from intrigue.games.project_assassination import board

from .base import (
    Canvas,
    Encoder,
    Field,
    Layout,
    Section,
    common_fields,
    common_section,
    counts,
    multi_hot,
    one_hot,
    scaled,
    seat_index,
    vocab,
)

SEATS = 2
SIZE = 7
COLUMNS = "abcdefg"
CELLS = SIZE * SIZE
# The card vocabularies are the game's own lists, so a new card cannot be missed here.
ITEMS = vocab(board.ITEMS)
COLLECTIBLES = vocab(board.COLLECTIBLES)
LOOSE = vocab((*COLLECTIBLES, "sniper"))
WEAPONS = vocab(("pistol", "uzi", "shotgun", "sniper", "paralysis_pistol"))
WEAPON = len(WEAPONS) + 2  # kind one-hot, sight, muzzle
ENEMIES = vocab(("grunt", "heavy", "medic", "boss"))
PHASES = vocab(("turn", "choice", "placement", "over"))
STAGES = vocab(("draw", "items", "actions"))
PROMPTS = vocab(("weapon", "attach", "loot", "cage", "grenade", "teleport"))
TURN_CAP = 60  # player turns scale by max_turns when set, else by this
SEAT_VOCAB = vocab(range(SEATS))


def cell_index(name: Any) -> int | None:
    """Index of a cell name on the 7x7 grid, None for anything else."""
    return _cell_index(name) if name.__class__ is str else None


@functools.cache
def _cell_index(name: str) -> int | None:
    if len(name) != 2 or name[0] not in COLUMNS:
        return None
    if not name[1].isdigit() or not 1 <= int(name[1]) <= SIZE:
        return None
    return (int(name[1]) - 1) * SIZE + COLUMNS.index(name[0])


LAYOUT = Layout(
    [
        *common_fields(SEATS),
        Field("round", (1,), "round / max_turns (or / 60)"),
        Field("turns", (1,), "player turns played / max_turns (or / 60)"),
        Field("phase", (len(PHASES),), "one-hot: turn, choice, placement, over"),
        Field("first", (SEATS,), "one-hot: the seat that is Player 1"),
        Field("current", (SEATS,), "one-hot: the seat whose turn it is"),
        Field("obstacles", (CELLS,), "1 on each obstacle"),
        Field("enemy_kind", (CELLS, len(ENEMIES)), "one-hot per cell: grunt, heavy, medic, boss"),
        Field("enemy_hp", (CELLS,), "enemy HP / 10"),
        Field("enemy_paralysed", (CELLS,), "1 for a paralysed enemy"),
        Field("enemy_caged", (CELLS,), "1 for a caged enemy"),
        Field("loose", (CELLS, len(LOOSE)), "cards lying on the board, by kind"),
        Field("position", (SEATS, CELLS), "one-hot per seat: where its assassin stands"),
        Field("spawn", (SEATS, CELLS), "one-hot per seat: its spawn"),
        Field("point", (SEATS, CELLS), "one-hot per seat: its rendezvous point"),
        Field("number", (SEATS, 2), "per seat one-hot: Player 1, Player 2"),
        Field("hp", (SEATS,), "HP / 10"),
        Field("vp", (SEATS,), "VP / 12"),
        Field(
            "weapons",
            (SEATS, 2, WEAPON),
            "per seat, slot: kind one-hot (pistol uzi shotgun sniper paralysis_pistol), sight,"
            " muzzle",
        ),
        Field("pistol", (SEATS, 3), "per seat: pistol sight, muzzle, usable"),
        Field("boots", (SEATS,), "boots worn / 2"),
        Field("reserve", (SEATS, len(ITEMS)), "Items in reserve by kind / 5"),
        Field("point_cards", (SEATS, len(COLLECTIBLES)), "cards on the point by kind / 3"),
        Field("ambushed", (SEATS,), "1 while ambushed"),
        Field("loses_next_turn", (SEATS,), "1 if paralysed for the next turn"),
        Field("stage", (len(STAGES),), "turn: one-hot draw, items, actions"),
        Field("turn_flags", (2,), "turn: may draw, cover active"),
        Field("actions_left", (1,), "turn: actions left / 4"),
        Field("attacks", (2,), "turn: attacks made / 2, attack allowance / 2"),
        Field("fired", (2,), "turn: weapon slots 1 and 2 already fired"),
        Field("prompt", (len(PROMPTS),), "one-hot: weapon, attach, loot, cage, grenade, teleport"),
        Field("prompt_card", (len(COLLECTIBLES),), "one-hot: the card the prompt is about"),
        Field("teleports", (CELLS,), "teleport prompt: the squares offered"),
        Field("placement", (SEATS + len(ENEMIES),), "placement: placer one-hot, enemy one-hot"),
        Field("decks", (3,), "cards left: Item / 15, Collectible / 30, Enemy / 5"),
        Field("enemy_bottom", (len(ENEMIES),), "enemies put under the Enemy deck, by kind"),
        Field("item_discard", (len(ITEMS),), "Item discard by kind / 6"),
        Field("collectible_discard", (len(COLLECTIBLES),), "Collectible discard by kind / 5"),
        Field("sniper_discard", (1,), "1 once the Sniper is discarded"),
        Field("coins", (2,), "placement coins flipped: heads / 10, tails / 10"),
    ]
)


def _fill_header(canvas: Canvas, view: Mapping[str, Any]) -> None:
    cap = view.get("max_turns") or TURN_CAP
    canvas["round"][0] = scaled(view.get("round"), cap)
    canvas["turns"][0] = scaled(view.get("turns"), cap)
    one_hot(canvas["phase"], PHASES, view.get("phase"))
    one_hot(canvas["first"], SEAT_VOCAB, view.get("first"))
    one_hot(canvas["current"], SEAT_VOCAB, view.get("current"))


def _fill_players(canvas: Canvas, view: Mapping[str, Any]) -> None:
    for s, player in _player_rows(view).items():
        _fill_player(canvas, s, player)


def _player_rows(view: Mapping[str, Any]) -> dict[int, Any]:
    """Each player's view by seat (a later one of the same seat wins)."""
    rows = {}
    for player in view.get("players") or []:
        if isinstance(player, Mapping) and (s := seat_index(player.get("seat"), SEATS)) is not None:
            rows[s] = player
    return rows


def _fill_player_row(canvas: Canvas, s: int, player: Any, view: Mapping[str, Any]) -> None:
    if player is not None:
        _fill_player(canvas, s, player)


def _mark(out: np.ndarray, name: Any) -> None:
    if (c := cell_index(name)) is not None:
        out[c] = 1.0


def _fill_board(canvas: Canvas, view: Mapping[str, Any]) -> None:
    for name in view.get("obstacles") or ():
        _mark(canvas["obstacles"], name)
    for enemy in view.get("enemies") or ():
        if (c := cell_index(enemy.get("cell"))) is None:
            continue
        one_hot(canvas["enemy_kind"][c], ENEMIES, enemy.get("kind"))
        canvas["enemy_hp"][c] = scaled(enemy.get("hp"), 10)
        canvas["enemy_paralysed"][c] = float(bool(enemy.get("paralysed")))
        canvas["enemy_caged"][c] = float(bool(enemy.get("caged")))
    for name, card in (view.get("loose") or {}).items():
        if (c := cell_index(name)) is not None:
            one_hot(canvas["loose"][c], LOOSE, card)


def _weapon(out: np.ndarray, weapon: Mapping[str, Any] | None) -> None:
    if not weapon:
        return
    one_hot(out[: len(WEAPONS)], WEAPONS, weapon.get("kind"))
    out[len(WEAPONS)] = float(bool(weapon.get("sight")))
    out[len(WEAPONS) + 1] = float(bool(weapon.get("muzzle")))


def _fill_player(canvas: Canvas, s: int, player: Mapping[str, Any]) -> None:
    for field in ("position", "spawn", "point"):
        _mark(canvas[field][s], player.get("cell" if field == "position" else field))
    one_hot(canvas["number"][s], {1: 0, 2: 1}, player.get("number"))
    canvas["hp"][s] = scaled(player.get("hp"), 10)
    canvas["vp"][s] = scaled(player.get("vp"), 12)
    for slot, weapon in enumerate((player.get("weapons") or [])[:2]):
        _weapon(canvas["weapons"][s, slot], weapon)
    pistol = player.get("pistol") or {}
    canvas["pistol"][s] = [float(bool(pistol.get(k))) for k in ("sight", "muzzle", "usable")]
    canvas["boots"][s] = scaled(player.get("boots"), 2)
    counts(canvas["reserve"][s], ITEMS, player.get("reserve"), 5)
    counts(canvas["point_cards"][s], COLLECTIBLES, player.get("point_cards"), 3)
    canvas["ambushed"][s] = float(bool(player.get("ambushed")))
    canvas["loses_next_turn"][s] = float(bool(player.get("loses_next_turn")))


def _fill_turn(canvas: Canvas, view: Mapping[str, Any]) -> None:
    turn, prompt, placement = view.get("turn"), view.get("prompt"), view.get("placement")
    if turn:
        one_hot(canvas["stage"], STAGES, turn.get("stage"))
        canvas["turn_flags"][:] = [
            float(bool(turn.get("may_draw"))),
            float(bool(turn.get("cover"))),
        ]
        canvas["actions_left"][0] = scaled(turn.get("actions_left"), 4)
        canvas["attacks"][0] = scaled(turn.get("attacks_made"), 2)
        canvas["attacks"][1] = scaled(turn.get("attack_allowance"), 2)
        multi_hot(canvas["fired"], {1: 0, 2: 1}, turn.get("fired"))
    if prompt:
        one_hot(canvas["prompt"], PROMPTS, prompt.get("kind"))
        one_hot(canvas["prompt_card"], COLLECTIBLES, prompt.get("card"))
        for name in prompt.get("teleports") or ():
            _mark(canvas["teleports"], name)
    if placement:
        one_hot(canvas["placement"][:SEATS], SEAT_VOCAB, placement.get("placer"))
        one_hot(canvas["placement"][SEATS:], ENEMIES, placement.get("enemy"))


def _fill_cards(canvas: Canvas, view: Mapping[str, Any]) -> None:
    decks = view.get("decks") or {}
    canvas["decks"][:] = [
        scaled(decks.get("item"), 15),
        scaled(decks.get("collectible"), 30),
        scaled(decks.get("enemy"), 5),
    ]
    multi_hot(canvas["enemy_bottom"], ENEMIES, decks.get("enemy_bottom"))
    discards = view.get("discards") or {}
    counts(canvas["item_discard"], ITEMS, discards.get("item"), 6)
    counts(canvas["collectible_discard"], COLLECTIBLES, discards.get("collectible"), 5)
    canvas["sniper_discard"][0] = float(bool(discards.get("sniper")))
    coins = list(view.get("coins") or [])
    canvas["coins"][:] = [scaled(coins.count("heads"), 10), scaled(coins.count("tails"), 10)]


HEADER = ("round", "turns", "phase", "first", "current")
BOARD = ("obstacles", "enemy_kind", "enemy_hp", "enemy_paralysed", "enemy_caged", "loose")
PLAYERS = (
    "position", "spawn", "point", "number", "hp", "vp", "weapons", "pistol", "boots",
    "reserve", "point_cards", "ambushed", "loses_next_turn",
)  # fmt: skip
TURN = (
    "stage", "turn_flags", "actions_left", "attacks", "fired", "prompt", "prompt_card",
    "teleports", "placement",
)  # fmt: skip
CARDS = ("decks", "enemy_bottom", "item_discard", "collectible_discard", "sniper_discard", "coins")
# Every action is public.
ENCODER = Encoder(
    "project-assassination",
    LAYOUT,
    [
        common_section(SEATS),
        Section(("max_turns", "round", "turns", "phase", "first", "current"), HEADER, _fill_header),
        Section(("obstacles", "enemies", "loose"), BOARD, _fill_board),
        Section(
            ("players",),
            PLAYERS,
            _fill_players,
            row_keys=("players",),
            rows=_player_rows,
            fill_row=_fill_player_row,
        ),
        Section(("turn", "prompt", "placement"), TURN, _fill_turn),
        Section(("decks", "discards", "coins"), CARDS, _fill_cards),
    ],
    alike=True,
)
