"""How to play Masquerade Murder, in our own words (the terminal's ``rules``, the page's panel).

The full rules with every ruling are in ``docs/games/masquerade-murder.md``.
"""

from __future__ import annotations

from intrigue.engine.guide import Entry, Guide, Section

ROLES = Section(
    "Roles",
    (
        Entry(
            "constable",
            "Constable",
            "Good. Captures his target: the target is shielded from everything else and his own "
            "action is cancelled; a third capture sends him to jail. Nothing stops the "
            "Constable. He wants to jail the Assassin.",
        ),
        Entry(
            "thug",
            "Thug",
            "Protects his target from distraction and poison (not from a capture). He wins if "
            "he is still in the game at the end, whichever side wins.",
        ),
        Entry(
            "seductress",
            "Seductress",
            "Evil. Distracts her target: his action is cancelled (never the Constable's). She "
            "does not know who the Duke is; she helps the Assassin.",
        ),
        Entry(
            "assassin",
            "Assassin",
            "Evil. Poisons his target; the third dose kills. He wants to kill the Duke.",
        ),
        Entry(
            "duke",
            "Duke",
            "Good. Reads his target: learns whether he is good (Constable, Thug) or evil "
            "(Seductress, Assassin). He must survive the ball.",
        ),
    ),
)

CARDS = Section(
    "Order cards",
    (
        Entry("ace", "Ace", "Places the first cube of the night; next night draws first."),
        Entry("two", "Two", "Places the second cube."),
        Entry("jack", "Jack", "Places the third cube."),
        Entry("queen", "Queen", "Places the fourth cube."),
        Entry("king", "King", "Places the fifth cube."),
        Entry(
            "joker",
            "Joker",
            "Plays in the slot of the card nobody took, and may then swap: sit on a placed "
            "cube's seat and move that cube to any empty seat.",
        ),
    ),
)

RESULTS = Section(
    "Your night's result",
    (
        Entry(
            "GREY",
            "GREY",
            "Your action was not performed: you were not sitting next to your target, or you "
            "were captured or distracted.",
        ),
        Entry(
            "GREEN",
            "GREEN",
            "Your action was performed and went the way your side hopes: e.g. the Duke read a "
            "good player, the Thug's target really was attacked.",
        ),
        Entry(
            "RED",
            "RED",
            "Your action was performed but the target was the wrong kind: e.g. the Duke read "
            "an evil player, the Assassin poisoned the Seductress.",
        ),
    ),
)

BOARD = Section(
    "On the board",
    (
        Entry("seat", "Seat", "An empty square where a cube may sit down."),
        Entry("table", "Table", "A banquet table: nobody sits there and it separates seats."),
        Entry("cube", "Cube", "A player sitting down; numbered by seat."),
        Entry(
            "neighbour",
            "Next to",
            "Two cubes are next to each other when their squares share a side; an action only "
            "works on a target next to you when the last cube is down.",
        ),
    ),
)

GUIDE = Guide(
    goal=(
        "Five masked guests, each with a secret role. Evil (Seductress and Assassin) wins "
        "when the Duke dies or is jailed; Good (Constable and Duke) wins when the Assassin is "
        "jailed or the Duke survives the last night."
    ),
    turn=(
        "Secretly choose a target: another player still at the ball.",
        "From night 2, draw an order card from the pile as it passes round the table.",
        "When your card's turn comes, sit your cube on an empty seat (the Joker may swap).",
        "When every cube is down, actions work only on targets sitting next to their actor.",
        "Everyone learns who was captured, distracted or poisoned; you also see the colour of "
        "your own result.",
    ),
    sections=(ROLES, CARDS, RESULTS, BOARD),
    notes=(
        "Three captures send a player to jail, three poisons kill; roles stay secret until "
        "the end. Talk is free, and nothing said binds anyone.",
    ),
)
