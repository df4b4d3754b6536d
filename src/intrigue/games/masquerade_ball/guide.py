"""How to play the Masquerade Ball, in our own words (the terminal's ``rules``, the page's panel).

Entries are keyed by the rank labels the views use ("Q", "10", "Joker"), so the page can explain
any card it draws. The full rules with every ruling are in ``docs/games/masquerade-ball.md``.
"""

from __future__ import annotations

from intrigue.engine.guide import Entry, Guide, Section

from .board import RANK_LABELS, RANK_NAMES, RANKS
from .circle import CLASS_OF

_KING_STEP = "one square in any direction (it may stand still)"
MOVES = {
    2: "one square forward or back (sideways too in the ballroom); it must move if it can",
    3: "one square forward or back (sideways too in the ballroom); it may stand still",
    4: "one square diagonally; it must move if it can",
    5: "one square diagonally; it may stand still",
    6: "one square diagonally or sideways; it must move if it can",
    7: "one square diagonally or sideways; it may stand still",
    8: "one square diagonally, or a jump two forward or back and one to the side; it must move",
    9: "one square diagonally, or a jump two forward or back and one to the side; it may stand",
    10: "one square forward, back or diagonally, or a jump two forward or back and one to the "
    "side; it must move if it can",
}
ABILITIES = {
    1: "Automatic: masked, it always beats a State or Church card it attacks, and flips up.",
    14: "Automatic: masked, it always beats a State or Church card (or an unmasked Assassin) "
    "that attacks it, and flips up.",
    6: "Unmask to bring one of your prisoners back to your hand or onto your courtroom.",
    5: "Unmask to turn any other face-down card face up for everyone.",
    4: "Unmask to raise a card from a graveyard onto your courtroom, as yours.",
    3: "Unmask to turn another face-up card face down again (its ability comes back).",
    2: "Unmask to deliver one of your cards that has not moved anywhere (not onto an enemy "
    "throne); onto an enemy it is an attack.",
}
CLASS_NAMES = {
    "royalty": "Royalty",
    "aristocracy": "Aristocracy",
    "state": "State",
    "church": "Church",
    "proletariat": "Proletariat",
}


def _card(rank: int) -> Entry:
    klass = CLASS_NAMES[CLASS_OF[rank]]
    text = f"{klass}. Moves {MOVES.get(rank, _KING_STEP)}."
    if rank in ABILITIES:
        text += " " + ABILITIES[rank]
    label, name = RANK_LABELS[rank], RANK_NAMES[rank]
    return Entry(label, name if label == name else f"{label} {name}", text)


CARDS = Section("Cards", tuple(_card(rank) for rank in RANKS))

CIRCLE = Section(
    "The Circle of Power",
    (
        Entry(
            "circle",
            "Who beats whom",
            "Royalty (Q > K > J) beats Aristocracy (10 > 9 > 8) and State (7 > 6 > 5); "
            "Aristocracy beats State and Church (4 > 3 > 2); State beats Church and "
            "Proletariat (A > Joker); Church beats Proletariat and Royalty; Proletariat beats "
            "Royalty and Aristocracy. Inside a class the higher card wins; the same rank ties.",
        ),
        Entry(
            "attacker",
            "Attacker wins",
            "The defender goes to its owner's graveyard and the attacker takes the square.",
        ),
        Entry("defender", "Defender wins", "The attacker goes to the defender's prison."),
        Entry("tie", "Tie", "Both cards leave the board; the square is empty."),
    ),
)

SQUARES = Section(
    "The palace",
    (
        Entry(
            "throne",
            "Throne",
            "Two per courtroom. Hold both enemy thrones (and keep yours) from one of your "
            "turns to the next to win.",
        ),
        Entry(
            "step",
            "Ascension step",
            "A card here may move to or attack either throne of its courtroom.",
        ),
        Entry("courtroom", "Courtroom", "Your home squares; you play cards from hand here."),
        Entry("ballroom", "Ballroom", "The squares between the courtrooms."),
        Entry(
            "masked",
            "Masked card (?)",
            "A face-down card: nobody but its owner may have seen it, and even he only after "
            "inspecting it.",
        ),
        Entry(
            "prison",
            "Prison",
            "Enemy cards you captured. Release them to their owner's hand whenever you like.",
        ),
    ),
)

GUIDE = Guide(
    goal=(
        "Each player leads a face-down entourage of 14 court cards. Win by holding the enemy's "
        "two thrones with your cards, with no enemy on them, from the end of one of your "
        "turns to the end of the next; a player with no card left loses."
    ),
    turn=(
        "Inspect one of your cards on the board: you alone see it, and it now acts.",
        "If you like, play one card from your hand face down onto your courtroom; it acts too.",
        "Move each acting card once by its pips; moving onto an enemy card attacks it.",
        "Unmask acting cards to use their abilities (they turn face up and lose them).",
        "End the turn: every attack is judged by the Circle of Power.",
    ),
    sections=(CARDS, CIRCLE, SQUARES),
    notes=(
        "With four players the courtrooms sit round one ballroom; conquering a courtroom hands "
        "you its entourage, and the last player holding a courtroom wins.",
    ),
)
