"""The night's resolution (RULINGS §1.3), as one pure function.

Given who holds which role, who is still in the game, everyone's target and where every cube
sits, `resolve` says which actions ran, who was captured, distracted and poisoned, and the
colour each player's cube shows. Both the referee and the determinizer call it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

CONSTABLE, THUG, SEDUCTRESS, ASSASSIN, DUKE = range(5)
ROLE_NAMES = ("constable", "thug", "seductress", "assassin", "duke")
ROLE_INDEX = {name: i for i, name in enumerate(ROLE_NAMES)}
EVIL = frozenset({SEDUCTRESS, ASSASSIN})
GOOD_SIDE = frozenset({CONSTABLE, THUG})

GREY, GREEN, RED = "GREY", "GREEN", "RED"
NOBODY = -1


class NightResult(NamedTuple):
    """What happened in one night. Sets are of seats; ``colours`` has one entry per seat."""

    captured: int  # the seat captured, or NOBODY
    distracted: int
    poisoned: int
    attacked: frozenset[int]  # "targeted by A. or S." (MM-6)
    executed: tuple[bool, ...]
    colours: tuple[str | None, ...]  # None for seats no longer in the game


def resolve(
    roles: Sequence[int],
    active: Sequence[bool],
    targets: Sequence[int],
    cells: Sequence[str | None],
    neighbours: Mapping[str, frozenset[str]],
) -> NightResult:
    """Resolve one night exactly as §1.3 prescribes (see rulings MM-2 to MM-10, MM-25)."""
    holder = [NOBODY] * 5
    for seat, role in enumerate(roles):
        if active[seat]:
            holder[role] = seat
    c, t, s, a, d = holder

    def executes(actor: int) -> bool:
        """The actor is in the game and touches its target (MM-3: final positions)."""
        return actor != NOBODY and cells[targets[actor]] in neighbours[cells[actor]]  # type: ignore[index]

    exec_c = executes(c)
    captured = targets[c] if exec_c else NOBODY
    exec_s = s != captured and executes(s)
    t_s = targets[s] if exec_s else NOBODY
    exec_t = t != captured and t_s != t and executes(t)
    guarded = targets[t] if exec_t else NOBODY
    distracted = t_s if t_s not in (NOBODY, captured, guarded, c) else NOBODY
    exec_a = a not in (captured, distracted) and executes(a)
    t_a = targets[a] if exec_a else NOBODY
    poisoned = t_a if t_a not in (NOBODY, captured, guarded) else NOBODY
    exec_d = d not in (captured, distracted) and executes(d)
    attacked = frozenset(x for x in (t_s if t_s != c else NOBODY, t_a) if x != NOBODY)

    executed = [False] * len(roles)
    for seat, ran in ((c, exec_c), (t, exec_t), (s, exec_s), (a, exec_a), (d, exec_d)):
        if seat != NOBODY:
            executed[seat] = ran

    colours: list[str | None] = [None] * len(roles)
    for seat, role in enumerate(roles):
        if not active[seat]:
            continue
        if not executed[seat]:
            colours[seat] = GREY
            continue
        target_role = roles[targets[seat]]
        if role == CONSTABLE:
            good = target_role in EVIL or targets[seat] in attacked
        elif role == THUG:
            good = targets[seat] in attacked
        elif role == SEDUCTRESS:
            # MM-8: distracting the Assassin is GREEN only if it saved her from his poison.
            good = target_role in (THUG, DUKE) or (
                target_role == ASSASSIN
                and distracted == a
                and targets[a] == s
                and cells[s] in neighbours[cells[a]]  # type: ignore[index]
            )
        elif role == ASSASSIN:
            # MM-9: poisoning the Thug is GREEN when the Thug guarded the Duke that night.
            good = target_role in (CONSTABLE, DUKE) or (
                target_role == THUG and exec_t and guarded == d
            )
        else:
            good = target_role in GOOD_SIDE
        colours[seat] = GREEN if good else RED

    return NightResult(captured, distracted, poisoned, attacked, tuple(executed), tuple(colours))
