"""The Circle of Power (RULINGS §2.3): five classes in a cycle, ranks inside a class, and the
automatic abilities of the Assassin and the Joker layered on top (MB-19).

`verdict` is a pure function; `VERDICTS` tabulates it for every pair of ranks and masks so the
referee only indexes a table.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import ACE, JACK, JOKER, KING, QUEEN

# The cycle as data, strongest first, anticlockwise (MB-1): each class beats the next two.
CYCLE = ("royalty", "aristocracy", "state", "church", "proletariat")
CLASS_RANKS: dict[str, tuple[int, ...]] = {  # strongest first inside the class
    "royalty": (QUEEN, KING, JACK),
    "aristocracy": (10, 9, 8),
    "state": (7, 6, 5),
    "church": (4, 3, 2),
    "proletariat": (ACE, JOKER),
}
CLASS_OF: dict[int, str] = {r: c for c, ranks in CLASS_RANKS.items() for r in ranks}
_POWER = {r: len(ranks) - i for ranks in CLASS_RANKS.values() for i, r in enumerate(ranks)}

ATTACKER, DEFENDER, TIE = "attacker", "defender", "tie"
LURED_BY = frozenset(("state", "church"))  # plus an unmasked Assassin (MB-19)


def class_beats(a: str, d: str) -> bool:
    """Whether class ``a`` beats class ``d`` (each class beats the next two in the cycle)."""
    return (CYCLE.index(d) - CYCLE.index(a)) % len(CYCLE) in (1, 2)


def stronger(a: int, d: int) -> str:
    """The plain circle: ATTACKER if rank ``a`` beats rank ``d``, DEFENDER if it loses, TIE."""
    ca, cd = CLASS_OF[a], CLASS_OF[d]
    if ca == cd:
        if a == d:
            return TIE
        return ATTACKER if _POWER[a] > _POWER[d] else DEFENDER
    return ATTACKER if class_beats(ca, cd) else DEFENDER


class Verdict(NamedTuple):
    """Who wins an attack and which cards flip face up (their automatic ability fired)."""

    winner: str
    flip_attacker: bool
    flip_defender: bool


def verdict(a: int, d: int, a_masked: bool, d_masked: bool) -> Verdict:
    """The result of rank ``a`` attacking rank ``d`` with the given mask states (§2.3, MB-19)."""
    if a == ACE and d == JOKER and a_masked and d_masked:
        return Verdict(ATTACKER, False, False)  # the abilities cancel; A wins in class
    if d == JOKER and d_masked and (CLASS_OF[a] in LURED_BY or (a == ACE and not a_masked)):
        return Verdict(DEFENDER, False, True)  # the lure: invincible defence
    if a == ACE and a_masked and CLASS_OF[d] in LURED_BY:
        return Verdict(ATTACKER, True, False)  # assassination: invincible attack
    return Verdict(stronger(a, d), False, False)


ALL_RANKS = (ACE, *range(2, 11), JACK, QUEEN, KING, JOKER)
# VERDICTS[a][d][a_masked][d_masked]
VERDICTS: list[list[tuple[tuple[Verdict, Verdict], tuple[Verdict, Verdict]]]] = [
    [
        (
            (verdict(a, d, False, False), verdict(a, d, False, True)),
            (verdict(a, d, True, False), verdict(a, d, True, True)),
        )
        if a in CLASS_OF and d in CLASS_OF
        else ((Verdict(TIE, False, False),) * 2,) * 2
        for d in range(JOKER + 1)
    ]
    for a in range(JOKER + 1)
]
