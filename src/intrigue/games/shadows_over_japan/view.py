"""The per-seat view of a Shadows over Japan state: the single place where secrets are
redacted (RULINGS §4.2).

Public: the board (owners, developments, samurai styles once revealed, armies, occupying
forces, ninja owners and the styles of revealed ninjas), gold, turn markers, hand sizes, the
Intelligence each player holds, the discard pile, the Honour cards. Secret: each seat's Noble
(until the end), its hand, the styles of its concealed ninjas and of its pool.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .data import (
    CAPITAL_OF,
    CARD_IDS,
    HOME,
    HONOUR_KEYS,
    IS_CAPITAL,
    KEYS,
    MISSION,
    MISSION_TYPES,
    NAMES,
    NOBLE_NAMES,
    NOBLES,
    STYLES,
)

if TYPE_CHECKING:
    from .rules import JapanState

NP = len(KEYS)
KEY_INDEX = {key: p for p, key in enumerate(KEYS)}


def _noble(n: int) -> str | None:
    return None if n < 0 else NOBLES[n]


def provinces_view(state: JapanState, seat: int | None) -> list[dict[str, Any]]:
    """Every province holding something or held by a conqueror; any other province is empty
    and owned by its home Noble (static data: data/map.json). One pass with the state's lists
    at hand: views are built before every move, and this is most of one."""
    owner, dev, sam, army, occ, nin = (
        state.owner, state.dev, state.sam, state.army, state.occ, state.nin
    )  # fmt: skip
    moved, nrev, nsty, infil = state.moved, state.nrev, state.nsty, state.infil
    hidden_samurai = state.phase == "setup"  # face down until every ninja is placed
    out = []
    for p in range(NP):
        o, d, s, a, c, n = owner[p], dev[p], sam[p], army[p], occ[p], nin[p]
        if not d and s < 0 and a < 0 and c < 0 and n < 0 and o == HOME[p]:
            continue
        ninja = None
        if n >= 0:
            shown = nrev[p] or n == seat
            ninja = {
                "seat": n,
                "revealed": nrev[p],
                "style": STYLES[nsty[p]] if shown else None,
                "infiltrating": infil[p],
            }
        out.append(
            {
                "key": KEYS[p],
                "owner": NOBLES[o],
                "developments": d,
                "samurai": None if s < 0 else ("hidden" if hidden_samurai else STYLES[s]),
                "army": None if a < 0 else NOBLES[a],
                "army_moved": moved[p] if a >= 0 else False,
                "occupier": None if c < 0 else NOBLES[c],
                "ninja": ninja,
            }
        )
    return out


def card_view(state: JapanState, c: int) -> dict[str, Any]:
    return {
        "key": KEYS[c],
        "card": CARD_IDS[c],
        "name": NAMES[c],
        "noble": NOBLES[HOME[c]],
        "capital": IS_CAPITAL[c],
        "mission": MISSION_TYPES[MISSION[c]],
        "against": NOBLES[state.mission_target(c)],
    }


def _nobles_view(state: JapanState) -> list[dict[str, Any]]:
    economy, samurai, provinces, conquered, lost, _ = state.tallies()
    armies = [state.armies(n) for n in range(4)]
    return [
        {
            "key": NOBLES[n],
            "name": NOBLE_NAMES[n],
            "capital": KEYS[CAPITAL_OF[n]],
            "economy": economy[n],
            "military": 2 * armies[n] + samurai[n],
            "armies": armies[n],
            "samurai": samurai[n],
            "provinces": provinces[n],
            "conquered": conquered[n],
            "lost": lost[n],
            "intelligence_at_capital": state.intel_cap[n],
            "honours": state.honours_won[n],
            "development_supply": state.dev_supply[n],
            "army_supply": state.army_supply[n],
        }
        for n in range(4)
    ]


def _players_view(state: JapanState, seat: int | None) -> list[dict[str, Any]]:
    over = state.phase == "over"
    rows = []
    for s in range(state.players):
        known = over or s == seat
        rows.append(
            {
                "seat": s,
                "marker": state.markers[s],
                "gold": state.gold[s],
                "hand_size": len(state.hand[s]),
                "intelligence": list(state.intel_hand[s]),
                "ninjas": len(state.ninjas[s]),
                "pool": sum(state.pool[s]),  # ninjas off the board (6 less those on it)
                "ruled_out": [NOBLES[n] for n in range(4) if state.not_noble[s] >> n & 1],
                "noble": NOBLES[state.nobles[s]] if known else None,
            }
        )
    return rows


def _private_view(state: JapanState, seat: int) -> dict[str, Any]:
    counts = state.pool[seat]
    return {
        "noble": NOBLES[state.nobles[seat]],
        "hand": [card_view(state, c) for c in state.hand[seat]],
        "intelligence": list(state.intel_hand[seat]),
        "pool": {STYLES[s]: counts[s] for s in range(3)},
        "claimable": [KEYS[c] for c in state.claimable] if seat == state.current else [],
    }


def public_parts(state: JapanState) -> dict[str, Any]:
    """The parts of a view that every seat sees alike (shared views keep them per position;
    they must never be changed)."""
    over = state.phase == "over"
    return {
        "setup_provinces": [[KEYS[p] for p in cards] for cards in state.setup_cards],
        "provinces": provinces_view(state, None),
        "nobles": _nobles_view(state),
        "honours": {
            "face_up": None if state.honour_up < 0 else HONOUR_KEYS[state.honour_up],
            "deck_size": len(state.honour_deck),
            "awarded": [
                {"honour": HONOUR_KEYS[h], "noble": _noble(n)} for h, n in state.honour_log
            ],
        },
        "discard": [KEYS[c] for c in state.discard],
        # Face-down set-up samurai would show through the supply: hidden until revealed.
        "samurai_supply": None
        if state.phase == "setup"
        else {STYLES[s]: state.sam_supply[s] for s in range(3)},
        "options": {
            "interaction_cost": state.options["interaction_cost"],
            "missions": state.options["missions"],
            "neutral": state.options["neutral"],
        },
        "unbacked": [NOBLES[n] for n in range(4) if n not in state.nobles]
        if state.open_neutral or over
        else None,
    }


def _own_ninjas(state: JapanState, seat: int, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public province rows as ``seat`` sees them: its concealed ninjas show their style."""
    out = rows
    for i, row in enumerate(rows):
        ninja = row["ninja"]
        if ninja is not None and ninja["seat"] == seat and not ninja["revealed"]:
            if out is rows:
                out = list(rows)
            style = STYLES[state.nsty[KEY_INDEX[row["key"]]]]
            out[i] = {**row, "ninja": {**ninja, "style": style}}
    return out


def build_view(
    state: JapanState, seat: int | None, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """``seat``'s view; ``public``: `public_parts` of this position, kept by the caller."""
    parts = public_parts(state) if public is None else public
    over = state.phase == "over"
    provinces = parts["provinces"]
    return {
        "phase": state.phase,
        "round": state.round + (0 if over else 1),
        "season": state.season,
        "year": state.year,
        "max_turns": state.options["max_turns"],
        "current": None if over else state.current,
        "order": list(state.order),
        "actions_left": state.actions_left,
        "prompt": state.prompt(seat),
        "setup_provinces": parts["setup_provinces"],
        "provinces": provinces if seat is None else _own_ninjas(state, seat, provinces),
        "nobles": parts["nobles"],
        "players": _players_view(state, seat),
        "honours": parts["honours"],
        "deck_size": len(state.deck),
        "discard": parts["discard"],
        "samurai_supply": parts["samurai_supply"],
        "gold_supply": state.gold_supply,
        "options": parts["options"],
        "unbacked": parts["unbacked"],
        "you": None if seat is None else _private_view(state, seat),
        "final": state.final,
    }
