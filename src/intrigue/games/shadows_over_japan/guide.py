"""How to play Shadows over Japan, in our own words (the terminal's ``rules``, the page's panel).

Nobles, styles, Honours and missions are read from the game's data files, so every one has an
entry. The full rules with every ruling are in ``docs/games/shadows-over-japan.md``.
"""

from __future__ import annotations

import re

from intrigue.engine.guide import Entry, Guide, Section

from .data import (
    CAPITAL_OF,
    CARDS,
    HONOURS,
    MISSION_TEXT,
    NAMES,
    NOBLE_COLOURS,
    NOBLE_NAMES,
    NOBLES,
    STYLE_INDEX,
    STYLE_NAMES,
    STYLES,
)


def _clause(text: str) -> str:
    """A data text ("most Intelligence (at the capital, SJ-23)") as the end of a sentence."""
    text = re.sub(r",? ?SJ-\d+", "", text).replace("()", "").strip()
    return text[0].lower() + text[1:] + ("" if text.endswith(".") else ".")


NOBLE_SECTION = Section(
    "Nobles",
    tuple(
        Entry(
            key,
            NOBLE_NAMES[n],
            f"{NOBLE_COLOURS[n].capitalize()} provinces, capital {NAMES[CAPITAL_OF[n]]}. Each "
            "clan secretly backs one Noble; his Political Power is its score.",
        )
        for n, key in enumerate(NOBLES)
    ),
)

STYLE_SECTION = Section(
    "Fighting styles",
    tuple(
        Entry(
            style["key"],
            STYLE_NAMES[STYLE_INDEX[style["key"]]],
            f"Beats {STYLE_NAMES[STYLE_INDEX[style['beats']]]}; the same style is a tie (the "
            "mover goes back). A concealed ninja's style is secret until it fights.",
        )
        for style in CARDS["styles"]
    ),
)
assert {e.key for e in STYLE_SECTION.entries} == set(STYLES)

HONOUR_SECTION = Section(
    "Honour cards",
    tuple(
        Entry(
            h["key"],
            h["name"],
            f"Awarded in Winter, +1 Political Power, to the Noble with the {_clause(h['text'])}",
        )
        for h in HONOURS
    ),
)

MISSION_SECTION = Section(
    "Missions (on territory cards)",
    tuple(
        Entry(key, key.capitalize(), f"Claim 1 gold when {text}.")
        for key, text in MISSION_TEXT.items()
    ),
)

PIECES = Section(
    "On the map",
    (
        Entry(
            "ninja",
            "Ninja",
            "Yours move, fight, steal and sabotage. Concealed ninjas hide their style; a ninja "
            "revealed by a fight or a theft stays revealed until a Substitution.",
        ),
        Entry(
            "samurai",
            "Samurai",
            "Defends its province: a ninja entering fights it (whoever's side it is on).",
        ),
        Entry(
            "army",
            "Army",
            "Defends its province. A concealed ninja may infiltrate it, then march it (1 gold).",
        ),
        Entry(
            "occupier",
            "Occupying force",
            "An army that conquered another Noble's province; it never moves again.",
        ),
        Entry(
            "development",
            "Development",
            "Economy of the province's owner; sabotage removes one.",
        ),
        Entry(
            "intelligence",
            "Intelligence",
            "Three lie at each capital; steal them with a ninja: +1 Political Power each.",
        ),
    ),
)

GUIDE = Guide(
    goal=(
        "Four Nobles fight for Japan and your ninja clan secretly backs one of them. When the "
        "last Honour card is awarded, the clan whose Noble has the most Political Power wins."
    ),
    turn=(
        "Spend up to six ninja actions: move (fighting samurai and other ninja you meet), "
        "substitute, steal Intelligence, sabotage, seppuku.",
        "Spend gold: march an army your ninja infiltrates, recruit a ninja, buy cards, buy an "
        "extra action or take the initiative.",
        "Claim a mission right after the action that completed it (+1 gold).",
        "Draw a territory card; then three more cards develop their provinces.",
    ),
    sections=(NOBLE_SECTION, STYLE_SECTION, HONOUR_SECTION, MISSION_SECTION, PIECES),
    notes=(
        "Political Power = Honour cards + awards for the best economy and military + conquered "
        "provinces + Intelligence, minus lost provinces.",
    ),
)
