"""What a seat can still believe: role deals and targets consistent with its observations.

A seat observes, each finished night, the public harms (captured, distracted, poisoned), the
final seat positions and departures, and privately its own colour. Nights are independent given
the roles (positions and who is in the game are public), so a role deal is consistent when every
finished night admits at least one choice of the other players' targets that reproduces what the
seat saw. `determinize` samples such a deal uniformly, then targets for each night uniformly
among the consistent ones, then rebuilds the whole game by replay so every part of the sample
(other seats' logs included) agrees with it.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product
from typing import TYPE_CHECKING, Any

from intrigue.engine import Action

from .boards import BOARDS
from .resolution import ASSASSIN, DUKE, NOBODY, ROLE_NAMES, resolve

if TYPE_CHECKING:
    from .rules import MurderState, NightRecord

PLAYERS = 5


def _observation(record: NightRecord, seat: int) -> tuple[Any, ...]:
    res = record.result
    return (res.captured, res.distracted, res.poisoned, res.colours[seat])


@lru_cache(maxsize=65536)
def consistent_targets(
    board: str,
    roles: tuple[int, ...],
    active: tuple[bool, ...],
    cells: tuple[str | None, ...],
    seat: int,
    own_target: int,
    observed: tuple[Any, ...],
) -> tuple[tuple[int, ...], ...]:
    """Every full target assignment under ``roles`` that shows ``seat`` what it observed."""
    neighbours = BOARDS[board].neighbours
    others = [p for p in range(PLAYERS) if active[p] and p != seat]
    choices = [[t for t in range(PLAYERS) if active[t] and t != p] for p in others]
    found = []
    targets = [NOBODY] * PLAYERS
    targets[seat] = own_target
    for combo in product(*choices):
        for p, t in zip(others, combo, strict=True):
            targets[p] = t
        res = resolve(roles, active, targets, cells, neighbours)
        if (res.captured, res.distracted, res.poisoned, res.colours[seat]) == observed:
            found.append(tuple(targets))
    return tuple(found)


def consistent_roles(state: MurderState, seat: int) -> list[tuple[int, ...]]:
    """Every role deal consistent with what ``seat`` has observed so far."""
    if state.is_over:  # the roles were unmasked for everyone
        return [state.roles]
    gone = tuple(p for p in range(PLAYERS) if state.fate[p] is not None)
    nights = tuple(
        (r.active, r.cells, r.targets[seat], _observation(r, seat)) for r in state.nights
    )
    return list(_consistent_roles(state.board.name, seat, state.roles[seat], gone, nights))


@lru_cache(maxsize=4096)
def _consistent_roles(
    board: str, seat: int, own: int, gone: tuple[int, ...], nights: tuple[Any, ...]
) -> tuple[tuple[int, ...], ...]:
    # The game is still on, so nobody who has left was the Duke or the Assassin (MM-19).
    deals = [
        p
        for p in permutations(range(PLAYERS))
        if p[seat] == own and all(p[g] not in (DUKE, ASSASSIN) for g in gone)
    ]
    return tuple(
        roles
        for roles in deals
        if all(consistent_targets(board, roles, *night[:2], seat, *night[2:]) for night in nights)
    )


def _night_targets(
    state: MurderState, roles: tuple[int, ...], record: NightRecord, seat: int
) -> tuple[tuple[int, ...], ...]:
    return consistent_targets(
        state.board.name,
        roles,
        record.active,
        record.cells,
        seat,
        record.targets[seat],
        _observation(record, seat),
    )


def _sample_draft(state: MurderState, seat: int, rng: Any) -> dict[int, str]:
    """Cards for the drawers of the draft in progress, as ``seat`` may believe they went."""
    drawers = state.drawers[: state.drawn]
    from .rules import ALL_CARDS

    # In a fixed order: the sample must depend on what seat knows, not on who holds what.
    held = {*state.pile, *(state.cards[p] for p in drawers)}
    full = [card for card in ALL_CARDS if card in held]
    picks: dict[int, str] = {}
    if seat in drawers or state.drawers[state.drawn] == seat:
        # seat saw the pile when it drew (or sees it now): earlier picks are known as a set.
        seen = state.seen[seat] if seat in drawers else tuple(state.pile)
        at = drawers.index(seat) if seat in drawers else len(drawers)
        before = [c for c in full if c not in seen]
        rng.shuffle(before)
        picks.update(zip(drawers[:at], before, strict=True))
        rest = [c for c in seen if c not in state.pile and c != state.cards[seat]]
        rng.shuffle(rest)
        picks.update(zip(drawers[at + 1 :], rest, strict=True))
        if seat in drawers:
            picks[seat] = state.cards[seat]  # type: ignore[assignment]
    else:
        taken = [c for c in full if c not in state.pile]
        rng.shuffle(taken)
        picks.update(zip(drawers, taken, strict=True))
    return picks


def determinize(state: MurderState, seat: int, rng: Any) -> MurderState:
    """A full game consistent with everything ``seat`` has seen (see the module docstring)."""
    from .rules import DRAFT_PHASE, DRAW, TARGET

    deals = consistent_roles(state, seat)
    roles = deals[rng.randrange(len(deals))]
    if state.is_over:
        # The outcome makes every seat's GREEN count public (the tie-scores), which ties the
        # nights together; with nothing left to decide, the real targets are kept.
        night_targets = [record.targets for record in state.nights]
    else:
        night_targets = []
        for record in state.nights:
            choices = _night_targets(state, roles, record, seat)
            night_targets.append(choices[rng.randrange(len(choices))])
    picks = _sample_draft(state, seat, rng) if state.phase == DRAFT_PHASE else {}

    options = dict(state.options)
    options["roles"] = [ROLE_NAMES[r] for r in roles]
    options["seating"] = [str(s) for s in state.seating]
    if state.first_deal:
        options["first_cards"] = list(state.first_deal)
    sample = state.game.new(state.players, rng.randrange(1 << 62), **options)
    for actor, action in state.history:
        if actor != seat:
            action = _substitute(sample, actor, action, night_targets, picks, rng, TARGET, DRAW)
        sample.apply(actor, action)
    return sample  # type: ignore[return-value]


def _substitute(
    sample: MurderState,
    actor: int,
    action: Action,
    night_targets: list[Any],
    picks: dict[int, str],
    rng: Any,
    target: Any,
    draw: Any,
) -> Action:
    if action.verb == "target":
        if sample.night <= len(night_targets):
            return target[night_targets[sample.night - 1][actor]]
        return rng.choice(sample.legal_actions(actor))
    if action.verb == "draw" and actor in picks and sample.night == len(night_targets) + 1:
        return draw[picks[actor]]
    return action
