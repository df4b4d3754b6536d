"""How to play Project Assassination, in our own words (the terminal's ``rules``, the page's panel).

Numbers (range, damage, HP, VP) come from the game's own tables, so the guide cannot drift from
the rules. The full rules with every ruling are in ``docs/games/project-assassination.md``.
"""

from __future__ import annotations

from intrigue.engine.guide import Entry, Guide, Section

from .board import COLLECTIBLES, ENEMY_STATS, GRENADE_DAMAGE, ITEMS, WEAPON_STATS

ENEMY_NOTES = {
    "grunt": "The gang's foot soldier.",
    "heavy": "Hits hard from two squares away.",
    "medic": "Never attacks; each round heals every other damaged enemy around it by 1.",
    "boss": "Enters last, once five enemies are on the board (or it is the last card).",
}


def _enemy(kind: str) -> Entry:
    stats = ENEMY_STATS[kind]
    reach = (
        f"hits you for {stats.damage} whenever you end a move within {stats.range} "
        "square(s) of it in a straight line (obstacles block)"
        if stats.range
        else "deals no damage"
    )
    text = f"{stats.hp} HP, worth {stats.vp} VP to whoever kills it; {reach}. {ENEMY_NOTES[kind]}"
    facts = (("range", stats.range), ("damage", stats.damage))  # the board marks the range
    return Entry(kind, kind.capitalize(), text, facts)


WEAPON_NOTES = {
    "pistol": "Printed on weapon slot 2: usable while that slot holds no collected weapon.",
    "uzi": "Hits one target in a straight line.",
    "shotgun": "Hits the three squares in front of you (with a Sight, also the one beyond).",
    "sniper": "Fires along the whole line, through everything, obstacles too. Single use.",
    "paralysis_pistol": "One target in line, up to the first obstacle: a paralysed enemy does "
    "no damage, a paralysed rival loses his next turn. Single use.",
}


def _weapon(kind: str) -> Entry:
    stats = WEAPON_STATS[kind]
    reach = f"reach {stats.range}, " if 0 < stats.range < 7 else ""
    mods = " Takes a Sight (+1 reach) and a Muzzle (+1 damage)." if stats.moddable else ""
    name = kind.replace("_", " ").title().replace("Uzi", "UZI")
    text = f"{reach}damage {stats.damage}. {WEAPON_NOTES[kind]}{mods}"
    return Entry(kind, name, text[0].upper() + text[1:])


ITEM_TEXT = {
    "obstacle": "Put an obstacle on an empty square: it blocks moves and shots until an attack "
    "destroys it.",
    "strategy": "Push an enemy or an obstacle up to two squares in a straight line.",
    "ambush": "Your rival may neither enter his rendezvous point nor draw collectibles on his "
    "next turn.",
    "cover": "No enemy damages you for the rest of this turn.",
}
COLLECTIBLE_TEXT = {
    "boot": "+1 action per turn from your next turn (two boots at most).",
    "health_pack": "+5 HP (10 at most).",
    "cage": "An enemy becomes invulnerable and immovable until your next turn; it still hurts.",
    "loot_crate": "Take the top two cards of the item discard pile into your reserve.",
    "sight": "Fits a Pistol, UZI or Shotgun: +1 reach.",
    "muzzle": "Fits a Pistol, UZI or Shotgun: +1 damage.",
    "grenade": f"Used at once: {GRENADE_DAMAGE} damage to everything in a 2x2 block, you "
    "included; destroys obstacles there.",
}


def _card(kind: str, texts: dict[str, str]) -> Entry:
    return Entry(kind, kind.replace("_", " ").title(), texts[kind])


ENEMIES = Section("Enemies", tuple(_enemy(kind) for kind in ENEMY_STATS))
WEAPONS = Section("Weapons", tuple(_weapon(kind) for kind in WEAPON_STATS))
ITEM_CARDS = Section("Item cards (blue deck)", tuple(_card(k, ITEM_TEXT) for k in ITEMS))
COLLECTIBLE_CARDS = Section(
    "Collectibles (green deck)",
    tuple(_card(k, COLLECTIBLE_TEXT) for k in COLLECTIBLES if k not in WEAPON_STATS),
)
BOARD = Section(
    "The bar",
    (
        Entry("spawn", "Spawn (S1, S2)", "Where each assassin starts and returns to."),
        Entry(
            "point",
            "Rendezvous point (R1, R2)",
            "Collectibles you draw land on your own point; step on it to collect them all, "
            "then you are teleported back to your spawn. You may never enter your rival's.",
        ),
        Entry("tunnel", "Tunnel", "Step in and come out of its partner at once."),
        Entry("heal", "Heal point", "+2 HP when you step on it (once per heal point a turn)."),
        Entry("obstacle", "Obstacle", "Blocks moves and shots; any attack destroys it."),
        Entry(
            "decks",
            "Decks",
            "Item (blue) and Collectible (green) you may draw from, once a turn; the Enemy "
            "deck (red) brings a new enemy every round.",
        ),
    ),
)

GUIDE = Guide(
    goal=(
        "Two rival assassins in a gang's bar race for Victory Points: killing gang members "
        "and shooting each other earns them. Reach 12 VP, outlive your rival, or hold the most "
        "VP when the gang is gone."
    ),
    turn=(
        "Draw one card if you like: an item into your reserve, or a collectible onto your "
        "rendezvous point.",
        "Play items (obstacle, strategy, ambush, cover) before your first move or attack.",
        "Spend your actions (2, +1 per boot): move one square north, east, south or west.",
        "Attack once (twice with two collected weapons): each hit on your rival is 1 VP.",
        "End the turn. After both turns a new enemy is placed by the player with fewer VP.",
    ),
    sections=(ENEMIES, WEAPONS, ITEM_CARDS, COLLECTIBLE_CARDS, BOARD),
    notes=(
        "Every enemy whose range covers the square where you end a move hits you there, each "
        "time; obstacles block its line, players do not.",
    ),
)
