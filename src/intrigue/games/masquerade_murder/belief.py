"""What a seat can still believe: role deals and targets consistent with its observations.

A seat observes, each finished night, the public harms (captured, distracted, poisoned), the
final seat positions and departures, and privately its own colour. Nights are independent given
the roles (positions and who is in the game are public), so a role deal is consistent when every
finished night admits at least one choice of the other players' targets that reproduces what the
seat saw. `determinize` samples such a deal uniformly, then targets for each night uniformly
among the consistent ones (at the end, when the roles and every seat's GREEN count are public,
uniformly among the whole sequences adding up to those counts), and, during a draft, the cards
the other drawers took as far as the seat cannot see them; then it rebuilds the whole game by
replay so every part of the sample (other seats' logs included) agrees with it. Nothing is read
that the seat has not seen: two states it cannot tell apart sample alike for the same generator.
"""

from __future__ import annotations

from collections.abc import Iterator
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
def consistent_targets(*night: Any) -> tuple[tuple[int, ...], ...]:
    """Every full target assignment under ``roles`` that shows ``seat`` what it observed, in
    a fixed order (by the targets, seat by seat). Arguments: see `_matching_targets`."""
    return tuple(sorted(_matching_targets(*night)))


@lru_cache(maxsize=65536)
def admits_targets(*night: Any) -> bool:
    """Whether `consistent_targets` (same arguments) finds any assignment: it stops at the
    first, which is all that deciding which role deals remain needs."""
    return next(_matching_targets(*night), None) is not None


def _matching_targets(
    board: str,
    roles: tuple[int, ...],
    active: tuple[bool, ...],
    cells: tuple[str | None, ...],
    seat: int,
    own_target: int,
    observed: tuple[Any, ...],
) -> Iterator[tuple[int, ...]]:
    """The full target assignments under ``roles`` that show ``seat`` what it observed."""
    # A target out of reach does nothing (MM-3): every such target of one player resolves the
    # night alike, so each player's out-of-reach targets are tried once, as one class.
    neighbours = BOARDS[board].neighbours
    others = [p for p in range(PLAYERS) if active[p] and p != seat]
    classes = []
    for p in others:
        near = neighbours[cells[p]]  # type: ignore[index]
        reach = [t for t in range(PLAYERS) if active[t] and t != p]
        far = tuple(t for t in reach if cells[t] not in near)
        classes.append([(t,) for t in reach if cells[t] in near] + ([far] if far else []))
    targets = [NOBODY] * PLAYERS
    targets[seat] = own_target
    for combo in product(*classes):
        for p, members in zip(others, combo, strict=True):
            targets[p] = members[0]
        res = resolve(roles, active, targets, cells, neighbours)
        if (res.captured, res.distracted, res.poisoned, res.colours[seat]) == observed:
            for picked in product(*combo):
                for p, t in zip(others, picked, strict=True):
                    targets[p] = t
                yield tuple(targets)


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
        if all(admits_targets(board, roles, *night[:2], seat, *night[2:]) for night in nights)
    )


def night_targets(
    state: MurderState, roles: tuple[int, ...], record: NightRecord, seat: int
) -> tuple[tuple[int, ...], ...]:
    """Every full target assignment of the finished night ``record`` that shows ``seat`` what
    it saw, under the deal ``roles`` (`consistent_targets` for that night)."""
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
    """Cards for the drawers of the draft in progress, as ``seat`` may believe they went.

    What ``seat`` knows (RULINGS §1.2, MM-14): the draft's cards (public), and, once it drew,
    its own card and the pile it saw then (the drawer now: the pile it sees). The drawers
    before it took the cards missing from that pile, as a set; the drawers after it took any
    of the others but its own. Who took which within those sets is drawn at random, and
    nothing is read from the true picks: two drafts ``seat`` cannot tell apart sample alike.
    """
    from .rules import ALL_CARDS

    drawers = state.drawers[: state.drawn]
    # The draft's cards, public since it opened (the "draft" event), in a fixed order.
    held = {*state.pile, *(state.cards[p] for p in drawers)}
    full = [card for card in ALL_CARDS if card in held]
    own: str | None = None
    if seat in drawers:
        at, seen, own = drawers.index(seat), set(state.seen[seat] or ()), state.cards[seat]
    elif state.drawers[state.drawn] == seat:
        at, seen = len(drawers), set(state.pile)
    else:  # it has not drawn yet (or is out of the game): it knows only the draft's cards
        at, seen = -1, set(full)
    before = [c for c in full if c not in seen]
    rng.shuffle(before)
    picks = dict(zip(drawers[: max(at, 0)], before, strict=True))
    after = [c for c in full if c in seen and c != own]
    rng.shuffle(after)
    picks.update(zip(drawers[at + 1 :], after, strict=False))  # the rest stays in the pile
    if own is not None:
        picks[seat] = own
    return picks


def _final_targets(
    state: MurderState, roles: tuple[int, ...], seat: int, rng: Any
) -> list[tuple[int, ...]]:
    """Targets for every night of a finished game, as ``seat`` may believe they were.

    The roles are public by now and so is every seat's GREEN count (the outcome's scores),
    which ties the nights together; the targets stay secret. Each night's targets are drawn
    among those that show ``seat`` what it saw, uniformly over the whole sequences whose
    GREEN counts add up to the scores: counted forward over the nights, drawn backward.
    """
    assert state.outcome is not None and state.outcome.scores is not None
    want = tuple(int(score) for score in state.outcome.scores)
    neighbours = BOARDS[state.board.name].neighbours
    nights = []  # per night: GREEN vector -> the targets giving it, in a fixed order
    for record in state.nights:
        by_green: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for targets in night_targets(state, roles, record, seat):
            res = resolve(roles, record.active, targets, record.cells, neighbours)
            green = tuple(
                int(active and colour == "GREEN")
                for active, colour in zip(record.active, res.colours, strict=True)
            )
            by_green.setdefault(green, []).append(targets)
        nights.append(by_green)
    # reach[n][v]: how many target sequences of the first n nights give GREEN counts v.
    reach: list[dict[tuple[int, ...], int]] = [{(0,) * PLAYERS: 1}]
    for by_green in nights:
        step: dict[tuple[int, ...], int] = {}
        for counts, ways in reach[-1].items():
            for green, choices in by_green.items():
                total = tuple(a + b for a, b in zip(counts, green, strict=True))
                if all(t <= w for t, w in zip(total, want, strict=True)):
                    step[total] = step.get(total, 0) + ways * len(choices)
        reach.append(step)
    out: list[tuple[int, ...]] = []
    counts = want
    for n in range(len(nights) - 1, -1, -1):
        options = []
        for green, choices in nights[n].items():
            before = tuple(a - b for a, b in zip(counts, green, strict=True))
            ways = reach[n].get(before, 0)
            options += [(targets, before, ways) for targets in choices if ways]
        pick = rng.randrange(sum(ways for _, _, ways in options))
        for targets, before, ways in options:
            if pick < ways:
                out.append(targets)
                counts = before
                break
            pick -= ways
    out.reverse()
    return out


def determinize(
    state: MurderState,
    seat: int,
    rng: Any,
    roles: tuple[int, ...] | None = None,
    targets: list[tuple[int, ...]] | None = None,
    current: dict[int, int] | None = None,
) -> MurderState:
    """A full game consistent with everything ``seat`` has seen (see the module docstring).

    ``roles``, ``targets`` and ``current``: the deal, every finished night's targets and the
    other seats' targets of the night in progress (by seat) to use instead of drawing them
    uniformly, for a belief that weighs them otherwise (the `hard` bot's reading of the public
    play) or for research (``bench/murder_roles.py``); they must be consistent with what
    ``seat`` saw, as `consistent_roles` and `consistent_targets` give them (tonight's targets
    are unseen: any seat in the game but the chooser will do).
    `MurderState.determinize` never passes them."""
    from .rules import DRAFT_PHASE, DRAW, TARGET

    if roles is None:
        deals = consistent_roles(state, seat)
        roles = deals[rng.randrange(len(deals))]
    if targets is not None and not state.is_over:
        chosen = list(targets)
    elif state.is_over:
        chosen = _final_targets(state, roles, seat, rng)
    else:
        chosen = []
        for record in state.nights:
            choices = night_targets(state, roles, record, seat)
            chosen.append(choices[rng.randrange(len(choices))])
    picks = _sample_draft(state, seat, rng) if state.phase == DRAFT_PHASE else {}

    options = dict(state.options)
    options["roles"] = [ROLE_NAMES[r] for r in roles]
    options["seating"] = [str(s) for s in state.seating]
    if state.first_deal:
        options["first_cards"] = list(state.first_deal)
    sample = state.game.new(state.players, rng.randrange(1 << 62), **options)
    for actor, action in state.history:
        if actor != seat:
            action = _substitute(
                sample, actor, action, chosen, current or {}, picks, rng, TARGET, DRAW
            )
        sample.apply(actor, action)
    return sample  # type: ignore[return-value]


def _substitute(
    sample: MurderState,
    actor: int,
    action: Action,
    night_targets: list[Any],
    current: dict[int, int],
    picks: dict[int, str],
    rng: Any,
    target: Any,
    draw: Any,
) -> Action:
    if action.verb == "target":
        if sample.night <= len(night_targets):
            return target[night_targets[sample.night - 1][actor]]
        if actor in current:
            return target[current[actor]]
        return rng.choice(sample.legal_actions(actor))
    if action.verb == "draw" and actor in picks and sample.night == len(night_targets) + 1:
        return draw[picks[actor]]
    return action
