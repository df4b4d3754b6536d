"""A Shadows over Japan clan that works for its Noble from its own view, as the seed suggests.

The score is the Noble's Political Power: Honours, the military and economy awards, conquests,
Intelligence, less lost provinces. So the clan hurts the other Nobles and spares its own: it
steals Intelligence from other capitals, sabotages their developments, kills their samurai with
a style that beats them, marches armies into their provinces, completes missions for gold and
spends it on recruits (using the cards it could not claim), marches and extra actions. It never
touches its own Noble's samurai, developments or provinces, which would also show everyone
whom it backs. Ninjas walk toward the nearest target on the map; a revealed ninja hides again
by a Substitution when it can. Every action gets a value and the best one is played (random
among equals); ``end`` is played when nothing is worth doing.

Only the view and the game's static map data are used.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate
from typing import Any

from intrigue.engine import Action
from intrigue.games.shadows_over_japan.belief import consistent_nobles, determinize
from intrigue.games.shadows_over_japan.data import (
    BEATS,
    CAPITAL_OF,
    HOME,
    INDEX,
    IS_CAPITAL,
    KEYS,
    NINJA_ADJ,
    NOBLE_INDEX,
    NOBLE_NAMES,
    STYLE_INDEX,
)
from intrigue.games.shadows_over_japan.view import card_view

from ..base import RandomSource
from .valuation import luce_evaluation, per_seat_evaluation

NP = len(KEYS)
FAR = 8  # distances are capped here: beyond it every province is "far"
HARD_MISSIONS = {"espionage": 3, "conquest": 2, "infiltrate": 1}  # discarded first


def _distances() -> tuple[tuple[int, ...], ...]:
    rows = []
    for start in range(NP):
        dist = [FAR] * NP
        dist[start] = 0
        todo = deque([start])
        while todo:
            p = todo.popleft()
            if dist[p] + 1 >= FAR:
                continue
            for q in NINJA_ADJ[p]:
                if dist[q] > dist[p] + 1:
                    dist[q] = dist[p] + 1
                    todo.append(q)
        rows.append(tuple(dist))
    return tuple(rows)


DIST = _distances()
PROVINCES = range(NP)
# NEAREST[p]: the provinces nearer than FAR to ``p``, ``p`` itself left out, nearest first.
NEAREST = tuple(
    tuple(sorted((q for q in range(NP) if q != p and DIST[p][q] < FAR), key=DIST[p].__getitem__))
    for p in range(NP)
)


class Board:
    """The seat's view of the board, indexed like the map data."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.seat: int = view["seat"]
        you = view["you"]
        self.noble = NOBLE_INDEX[you["noble"]]
        self.owner = list(HOME)
        self.dev = [0] * NP
        self.sam = [-1] * NP
        self.army = [-1] * NP
        self.occupied = [False] * NP
        self.clan, self.shown, self.styles = [-1] * NP, [False] * NP, [-1] * NP
        for entry in view["provinces"]:
            p = INDEX[entry["key"]]
            self.owner[p] = NOBLE_INDEX[entry["owner"]]
            self.dev[p] = entry["developments"]
            if entry["samurai"] in STYLE_INDEX:
                self.sam[p] = STYLE_INDEX[entry["samurai"]]
            if entry["army"]:
                self.army[p] = NOBLE_INDEX[entry["army"]]
            self.occupied[p] = entry["occupier"] is not None
            if (ninja := entry["ninja"]) is not None:
                self.clan[p], self.shown[p] = ninja["seat"], ninja["revealed"]
                self.styles[p] = STYLE_INDEX.get(ninja["style"], -1)  # None: concealed
        self.intel = {NOBLE_INDEX[n["key"]]: n["intelligence_at_capital"] for n in view["nobles"]}
        self.gold = view["players"][self.seat]["gold"]
        self.hand = you["hand"]
        self._finish()

    @classmethod
    def from_state(cls, state: Any, seat: int, hand: bool = True) -> Board:
        """The same board read straight from a determinization, as ``seat``'s view shows it:
        the styles of other clans' concealed ninjas stay unknown (``hand=False``: its hand
        left out too, for a board any seat may read)."""
        board = cls.__new__(cls)
        board.seat = seat
        board.noble = state.nobles[seat]
        board.owner = list(state.owner)
        board.dev = list(state.dev)
        board.sam = list(state.sam)
        board.army = list(state.army)
        board.occupied = [o >= 0 for o in state.occ]
        nin, nrev, nsty = state.nin, state.nrev, state.nsty
        board.clan, board.shown = list(nin), list(nrev)
        board.styles = [
            nsty[p] if (c := nin[p]) >= 0 and (nrev[p] or c == seat) else -1 for p in PROVINCES
        ]
        board.intel = dict(enumerate(state.intel_cap))
        board.gold = state.gold[seat]
        board.hand = [card_view(state, c) for c in state.hand[seat]] if hand else []
        board._finish()
        return board

    def _finish(self) -> None:
        self.scouts = {
            INDEX[c["key"]]
            for c in self.hand
            if c["mission"] == "scout" and NOBLE_INDEX[c["against"]] != self.noble
        }
        # The provinces worth walking to, found when a decision first weighs a walk (`distance`):
        # many moves of a rollout weigh none (spending, discarding, ending a turn).
        self.targets: frozenset[int] | None = None

    def mine(self, p: int) -> bool:
        return self.clan[p] == self.seat

    def style(self, p: int) -> int:
        """The style of the ninja in ``p`` as the seat sees it (-1: none, or concealed)."""
        return self.styles[p]

    def rival(self, p: int) -> bool:
        return self.owner[p] != self.noble

    def _targets(self) -> list[int]:
        """Provinces worth walking to: undefended rival developments and capitals, rival
        samurai, armies to infiltrate, provinces named by Scout missions in hand."""
        anyone, owned = self.walk_targets()
        noble = self.noble
        return [*self.scouts, *anyone, *(p for p, n in owned if n != noble), *self.capitals(noble)]

    def walk_targets(self) -> tuple[list[int], list[tuple[int, int]]]:
        """The targets that do not depend on the Noble the clan backs (armies to infiltrate),
        and the undefended developments and samurai with their owners (targets for the clans
        of every other Noble); provinces where the seat's own ninja stands are left out."""
        anyone, owned = [], []
        army, dev, sam, owner, clan = self.army, self.dev, self.sam, self.owner, self.clan
        occupied, seat = self.occupied, self.seat
        for p in PROVINCES:
            here = clan[p]
            if here == seat:
                continue  # our own ninja stands there
            if army[p] >= 0:
                if not occupied[p] and here < 0:
                    anyone.append(p)  # an army to infiltrate
            elif dev[p] or sam[p] >= 0:
                owned.append((p, owner[p]))  # a sabotage or a duel
        return anyone, owned

    def capitals(self, noble: int) -> list[int]:
        """The other Nobles' capitals that still hold Intelligence to steal."""
        return [cap for n, cap in enumerate(CAPITAL_OF) if n != noble and self.intel[n]]

    def distance(self, p: int) -> int:
        """Steps from ``p`` to the nearest target other than ``p`` itself (at most ``FAR``)."""
        targets = self.targets
        if targets is None:
            targets = self.targets = frozenset(self._targets())
        return _distance(p, targets)


def _distance(p: int, targets: frozenset[int]) -> int:
    """`Board.distance`: the first target met walking out from ``p``, nearest first."""
    for q in NEAREST[p]:
        if q in targets:
            return DIST[p][q]
    return FAR


def choose(view: dict[str, Any], legal_actions: list[Action], rng: RandomSource) -> Action:
    """The heuristic move for the step the view is at."""
    phase = view["phase"]
    if phase == "setup":
        return legal_actions[rng.randrange(len(legal_actions))]
    return _decide(Board(view), phase, view["actions_left"], legal_actions, rng)


def _decide(
    board: Board, phase: str, actions_left: int, legal: list[Action], rng: RandomSource
) -> Action:
    if phase == "discard":
        return _discard(board, legal, rng)
    scored = [(_value(board, phase, actions_left, a), a) for a in legal]
    best = max(score for score, _ in scored)
    top = [a for score, a in scored if score == best]
    return top[rng.randrange(len(top))]


def _discard(board: Board, legal: list[Action], rng: RandomSource) -> Action:
    """Keep one card of our own Noble for a recruit; drop the hardest missions first."""
    worth = _discard_worth(board, legal)
    least = min(worth)
    worst = [a for a, w in zip(legal, worth, strict=True) if w == least]
    return worst[rng.randrange(len(worst))]


def _discard_worth(board: Board, legal: list[Action]) -> list[float]:
    """How much each card of the ``discard`` actions is worth keeping."""
    by_key = {c["key"]: c for c in board.hand}
    own = [a for a in legal if NOBLE_INDEX[by_key[a.args[0]]["against"]] == board.noble]

    def worth(action: Action) -> float:
        card = by_key[action.args[0]]  # type: ignore[index]
        if NOBLE_INDEX[card["against"]] == board.noble:
            return 1.0 if len(own) == 1 else -1.0
        return 2.0 - HARD_MISSIONS.get(card["mission"], 0)

    return [worth(a) for a in legal]


def _value(board: Board, phase: str, actions_left: int, action: Action) -> float:
    verb, args = action.verb, action.args
    if verb == "end":
        return 0.5 if phase == "actions" else 0.0
    if verb == "claim":
        return 20.0
    if verb == "steal":
        return 12.0 if HOME[INDEX[args[0]]] != board.noble else -5.0  # type: ignore[index]
    if verb == "sabotage":
        return 5.0 if board.rival(INDEX[args[0]]) else -8.0  # type: ignore[index]
    if verb == "seppuku":
        return -20.0
    if verb == "move":
        return _move_value(board, INDEX[args[0]], INDEX[args[1]])  # type: ignore[index]
    if verb == "substitute":
        p, q = INDEX[args[0]], INDEX[args[1]]  # type: ignore[index]
        revealed = board.shown[p] or board.shown[q]
        return (1.5 if revealed else -1.0) - 0.1 * (len(args) == 3)
    if verb == "march":
        return _march_value(board, INDEX[args[0]], INDEX[args[1]])  # type: ignore[index]
    if verb == "extra":
        return 1.0 if board.gold >= 3 and actions_left == 0 else -1.0
    if verb == "recruit":
        return _recruit_value(board, INDEX[args[0]], STYLE_INDEX[args[1]])  # type: ignore[index]
    if verb == "draw":
        return 2.0 if len(board.hand) <= 3 and board.gold >= 2 else -1.0
    return -1.0  # initiative: rarely worth a coin


def _fight(mine: int, theirs: int) -> float:
    """+1 a sure win, -1 a sure loss, 0 a tie; unknown styles average to a small loss."""
    if mine < 0 or theirs < 0:
        return -0.3
    if BEATS[mine] == theirs:
        return 1.0
    return -1.0 if BEATS[theirs] == mine else 0.0


def _move_value(board: Board, p: int, q: int) -> float:
    style = board.style(p)
    value = 0.0
    cost = 1
    alive = True
    if board.sam[q] >= 0:
        cost = 2
        result = _fight(style, board.sam[q])
        if result > 0:
            value += 5.0 if board.rival(q) else -6.0
        elif result < 0:
            value -= 8.0
            alive = False
        else:
            return -3.0  # bounced back, revealed, for nothing
    if board.clan[q] >= 0 and alive:  # a ninja (another clan's: ours is no move's end)
        cost = 2
        result = _fight(style, board.styles[q])
        value += 4.0 * result if result else -2.0
        alive = result > 0
    if board.army[q] >= 0 and not board.occupied[q] and alive:
        cost = 2
        value += 4.0 if board.army[q] == board.noble or board.gold else 2.0
    if not alive:
        return value
    if q in board.scouts:
        value += 4.0
    progress = board.distance(p) - board.distance(q)
    value += 1.2 * progress - 0.4 * (cost - 1)
    if board.rival(q) and board.dev[q] and board.sam[q] < 0 and board.army[q] < 0:
        value += 1.0  # a sabotage next
    if IS_CAPITAL[q] and HOME[q] != board.noble and board.intel[HOME[q]]:
        value += 1.0
    return value


def _march_value(board: Board, p: int, q: int) -> float:
    n = board.army[p]
    value = -1.0  # the coin
    clan = board.clan[q]
    if clan >= 0 and clan != board.seat:
        value += 1.5
    if clan == board.seat:
        value -= 4.0
    if board.occupied[q]:
        if HOME[q] == n:
            return value + (8.0 if n == board.noble else 1.0)
        return value + (8.0 if n == board.noble else -2.0 if HOME[q] == board.noble else 1.0)
    if board.owner[q] != n:
        if board.owner[q] == board.noble:
            return value - 12.0  # our own province conquered
        return value + (10.0 if n == board.noble else 2.0 + board.dev[q] + (board.sam[q] >= 0))
    # At home: only worth it when it walks toward a rival border.
    closer = min(DIST[q][r] for r in range(NP) if board.owner[r] != n) < min(
        DIST[p][r] for r in range(NP) if board.owner[r] != n
    )
    return value + (1.5 if closer and n == board.noble else -0.5)


def _recruit_value(board: Board, c: int, style: int) -> float:
    card = next(card for card in board.hand if INDEX[card["key"]] == c)
    value = 6.0 if NOBLE_INDEX[card["against"]] == board.noble else 3.0
    value -= 0.3 * min(board.distance(c), FAR)
    if board.sam[c] >= 0 and BEATS[style] == board.sam[c]:
        value += 0.5  # ready to fight next door's twin
    return value + 0.01 * style  # a fixed preference among equal styles


# -- reasons, for people (the hints of a First game: intrigue.bots.advice) ---------------------
PLAIN_REASONS = {
    "claim": "the mission is done: claiming it pays a gold",
    "extra": "gold to spare and no actions left: one more action is worth a coin",
    "draw": "few cards in hand: three more missions for a coin",
    "substitute": "your ninja was revealed: a Substitution hides it again",
}


def explain(view: dict[str, Any], legal: list[Action], action: Action) -> str | None:
    """Why `choose` picked ``action``, in a phrase for people (None: no clear reason)."""
    verb, args = action.verb, action.args
    if verb in PLAIN_REASONS:
        return PLAIN_REASONS[verb]
    if verb == "end":
        if view["phase"] == "spend":
            return "nothing left is worth your gold"
        return "nothing left is worth an action"
    if view["phase"] == "setup":
        return None  # any style is as good as another before anything is known
    board = Board(view)
    if verb == "discard":
        return _discard_reason(board, str(args[0]))
    if verb == "steal":
        rival = _noble_name(HOME[INDEX[str(args[0])]])
        return (
            f"Intelligence counts for {rival}, a rival Noble: taking it costs them Political Power"
        )
    if verb == "sabotage":
        owner = board.owner[INDEX[str(args[0])]]
        return f"it costs {_noble_name(owner)}, a rival Noble, a development and its economy"
    if verb == "move":
        return _move_reason(board, INDEX[str(args[0])], INDEX[str(args[1])])
    if verb == "march":
        return _march_reason(board, INDEX[str(args[0])], INDEX[str(args[1])])
    if verb == "recruit":
        if NOBLE_INDEX[_card(board, str(args[0]))["against"]] == board.noble:
            return "its mission would hurt your own Noble, so the card pays for a ninja instead"
        return "a new ninja near provinces worth reaching"
    return None


def _noble_name(n: int) -> str:
    return NOBLE_NAMES[n].split()[0]


def _card(board: Board, key: str) -> dict[str, Any]:
    """The card of province ``key`` in the seat's hand."""
    return next(c for c in board.hand if c["key"] == key)


def _discard_reason(board: Board, key: str) -> str:
    card = _card(board, key)
    if NOBLE_INDEX[card["against"]] == board.noble:
        return "its mission would hurt your own Noble, and you keep another such card to recruit"
    if card["mission"] in HARD_MISSIONS:
        return "the hardest mission in your hand to complete"
    return "the card you are least likely to use"


def _move_reason(board: Board, p: int, q: int) -> str | None:
    style = board.style(p)
    if board.sam[q] >= 0 and board.rival(q) and _fight(style, board.sam[q]) > 0:
        rival = _noble_name(board.owner[q])
        return f"your ninja's style beats the samurai of {rival}, a rival Noble"
    theirs = board.styles[q]
    if theirs >= 0 and _fight(style, theirs) > 0:
        return "your ninja's style beats the ninja standing there"
    if board.army[q] >= 0 and not board.occupied[q] and board.clan[q] < 0:
        return "your ninja slips into the army there"
    if q in board.scouts:
        return "a Scout mission in your hand names that province"
    if board.rival(q) and board.dev[q] and board.sam[q] < 0 and board.army[q] < 0:
        rival = _noble_name(board.owner[q])
        return f"an unguarded development of {rival}, a rival Noble, to sabotage next"
    if IS_CAPITAL[q] and HOME[q] != board.noble and board.intel[HOME[q]]:
        return f"Intelligence to steal next in the capital of {_noble_name(HOME[q])}"
    if board.distance(q) < board.distance(p):
        return "a step toward a rival development, samurai, army or capital"
    return None


def _march_reason(board: Board, p: int, q: int) -> str:
    n = board.army[p]
    if board.occupied[q]:
        whose = "your Noble's army" if n == board.noble else "the army"
        return f"{whose} attacks the army occupying that province"
    if board.owner[q] != n:
        if n == board.noble:
            return f"your Noble's army takes a province from {_noble_name(board.owner[q])}"
        return f"the army takes a province from {_noble_name(board.owner[q])}, a rival Noble"
    return "the army moves toward a rival border"


# -- search hooks -----------------------------------------------------------------------------
def rollout_policy(state: Any, seat: int, legal: list[Action], rng: RandomSource) -> Action:
    """`choose` for ``seat`` in a determinization, reading the board from the state as the
    seat's view shows it (saves building the whole view on every move of a rollout)."""
    phase = state.phase
    if phase == "setup":
        return legal[rng.randrange(len(legal))]
    return _decide(Board.from_state(state, seat), phase, state.actions_left, legal, rng)


def shortlist(state: Any, seat: int, legal: list[Action], rng: RandomSource) -> list[Action]:
    """``legal`` ranked by the heuristic's values for ``seat`` in a determinization, best
    first, ties in random order (so the first is distributed as `rollout_policy`'s move)."""
    phase = state.phase
    order = list(legal)
    rng.shuffle(order)
    if phase == "setup":
        return order
    board = Board.from_state(state, seat)
    if phase == "discard":
        worth = dict(zip(legal, _discard_worth(board, legal), strict=True))
        return sorted(order, key=worth.__getitem__)
    left = state.actions_left
    return sorted(order, key=lambda a: -_value(board, phase, left, a))


# -- belief: the clans' public play read as `medium` plays it ---------------------------------
# The chance that a clan harms its own Noble once (a sabotage, a samurai killed, Intelligence
# stolen, a province occupied) relative to another Noble: `medium` never does; a person might,
# to mislead, so it only makes a Noble less likely.
SELF_HARM = 0.2
# What a clan's public play says about the Noble it backs: for each sign, how much every time
# the clan gave it about Noble N multiplies the odds that it backs N (a log-odds weight). The
# harms are fixed at SELF_HARM; the others were fitted by bench/fit_noble_reading.py (the
# conditional logit of the true Nobles among those the claims allow, over the positions of
# 150 three-player games of `medium` against itself, seeds 2000-2149; held out 3000-3059).
SIGNS = (
    "toward",  # a ninja walked nearer to the targets a clan backing N would have
    "away",  # ... or farther from them
    "sabotage",  # a development of N's sabotaged
    "kill",  # a samurai of N's killed in a duel
    "steal",  # Intelligence stolen from N's capital
    "occupy",  # an army marched into N's home province
    "into_developed",  # a ninja moved into a developed province of N's
    "into_bare",  # ... or into one of N's without developments
    "discard",  # a mission against N discarded
    "recruit",  # a recruit paid with a mission against N
    "army",  # N's army marched
)
HARMS = frozenset(("sabotage", "kill", "steal", "occupy"))
FITTED = {
    "toward": 2.725,
    "away": -0.681,
    "into_developed": -1.118,
    "into_bare": 0.600,
    "discard": 1.415,
    "recruit": 0.924,
    "army": 1.755,
}
SIGN_WEIGHTS = tuple(math.log(SELF_HARM) if sign in HARMS else FITTED[sign] for sign in SIGNS)
# The share of the samples drawn as if the clans' play said nothing (every assignment the claims
# allow alike): people and other bots need not play as `medium`, and their Nobles must stay in
# the search. It costs 0.03 in the mean log-chance of the truth against `medium` (-0.275
# instead of -0.248 on bench/fit_noble_reading.py's held-out games).
STRAY = 0.05
AT = {sign: i for i, sign in enumerate(SIGNS)}  # a sign's row in a seat's tally
Tally = list[list[list[int]]]  # [seat][sign][noble]: how often the seat gave that sign


def resample(sample: Any, seat: int, rng: Any) -> Callable[[Any], Any]:
    """Determinizations drawn as `State.determinize` draws them, but with the other clans'
    Nobles weighed by how well they explain the clans' public play (`noble_odds`) and their
    recruits' hidden styles by how `medium` picks them (`recruit_odds`): the true ones are
    searched more often. ``sample`` is a determinization: only its public record and
    ``seat``'s own are read."""
    if sample.phase == "setup" or not sample.nobles:
        return lambda rng: sample.determinize(seat, rng)
    assignments, odds = noble_odds(sample, seat)
    bounds = list(accumulate(odds))

    def draw(rng: Any) -> Any:
        nobles = assignments[bisect_right(bounds, rng.random() * bounds[-1])]
        return determinize(sample, seat, rng, nobles=nobles, recruits=recruit_odds)

    return draw


# The chance that a clan recruits a style other than the one `medium` would (2% of `medium`'s
# recruits: for a samurai's twin), each, relative to that one.
STYLE_STRAY = 0.1


def recruit_odds(pool: tuple[int, int, int]) -> tuple[float, float, float]:
    """How likely a clan with ``pool`` (its styles' counts) is to recruit each style: `medium`
    takes the last style it still has in order (`_recruit_value`'s fixed preference), others
    by ``STYLE_STRAY``."""
    best = max(style for style in range(3) if pool[style])
    return (
        1.0 if best == 0 else STYLE_STRAY,
        1.0 if best == 1 else STYLE_STRAY,
        1.0 if best == 2 else STYLE_STRAY,
    )


def noble_odds(state: Any, seat: int) -> tuple[list[tuple[int, ...]], list[float]]:
    """Every Noble assignment ``seat`` cannot rule out, and how likely each one is given the
    other clans' public play (`public_signs`), as chances that sum to 1 (``STRAY`` of them
    shared evenly)."""
    assignments = consistent_nobles(state, seat)
    tally = public_signs(state)
    scores = [_score(tally, seat, nobles) for nobles in assignments]
    top = max(scores)
    odds = [math.exp(score - top) for score in scores]
    read, even = (1.0 - STRAY) / sum(odds), STRAY / len(odds)
    return assignments, [o * read + even for o in odds]


def _score(tally: Tally, seat: int, nobles: Sequence[int]) -> float:
    """The log-odds of ``nobles`` (up to a constant) given the signs in ``tally``."""
    return sum(
        weight * tally[s][i][n]
        for s, n in enumerate(nobles)
        if s != seat
        for i, weight in enumerate(SIGN_WEIGHTS)
    )


def public_signs(state: Any) -> Tally:
    """For every seat, how often its public play gave each sign (`SIGNS`) about each Noble:
    the game replayed from its record, each action read on the board as it stood then."""
    tally = [[[0] * 4 for _ in SIGNS] for _ in range(state.players)]
    for _ in sign_walk(state, tally):
        pass
    return tally


def sign_walk(state: Any, tally: Tally) -> Iterator[tuple[int, Any]]:
    """`public_signs` step by step: the game replayed from ``state``'s record, ``tally``
    updated in place, yielding after each action its step and the replayed state. Only public
    facts are read: the board, the public log and where ninjas went."""
    replay = state.game.new(state.players, state.seed, **state.options)
    for step, (actor, action) in enumerate(state.history):
        before = replay.log_length
        if action.verb == "move":
            _read_walk(replay, actor, INDEX[action.args[0]], INDEX[action.args[1]], tally[actor])
        owner, dev = list(replay.owner), list(replay.dev)
        replay.apply(actor, action)
        for event in replay.shared_events(None, before):
            _read_event(replay, event, owner, dev, tally)
        yield step, replay


def _read_walk(state: Any, seat: int, p: int, q: int, signs: list[list[int]]) -> None:
    """Whether a ninja's step from ``p`` to ``q`` led nearer to or farther from the targets
    `medium` would walk to for each Noble (its Scout missions, being hidden, left out)."""
    board = Board.from_state(state, seat, hand=False)
    anyone, owned = board.walk_targets()
    toward, away = AT["toward"], AT["away"]
    for noble in range(4):
        targets = frozenset([*anyone, *(r for r, n in owned if n != noble), *board.capitals(noble)])
        progress = _distance(p, targets) - _distance(q, targets)
        if progress > 0:
            signs[toward][noble] += 1
        elif progress < 0:
            signs[away][noble] += 1


def _read_event(
    state: Any, event: dict[str, Any], owner: list[int], dev: list[int], tally: Tally
) -> None:
    """The signs one public event gives about its seat's Noble (``owner`` and ``dev``: the
    provinces' owners and developments before the action)."""
    kind = event["kind"]
    if "seat" not in event:
        return
    signs = tally[event["seat"]]
    if kind == "sabotaged":
        signs[AT["sabotage"]][owner[INDEX[event["at"]]]] += 1
    elif kind == "stole":
        signs[AT["steal"]][HOME[INDEX[event["at"]]]] += 1
    elif kind == "move":
        q = INDEX[event["to"]]
        won = sum(f["against"] == "samurai" and f["result"] == "won" for f in event["fights"])
        signs[AT["kill"]][owner[q]] += won
        signs[AT["into_developed"] if dev[q] else AT["into_bare"]][owner[q]] += 1
    elif kind == "marched":
        signs[AT["army"]][NOBLE_INDEX[event["army"]]] += 1
        if event["result"] == "occupied":
            signs[AT["occupy"]][HOME[INDEX[event["to"]]]] += 1
    elif kind == "recruited":
        signs[AT["recruit"]][state.mission_target(INDEX[event["at"]])] += 1
    elif kind == "discarded":
        signs[AT["discard"]][state.mission_target(INDEX[event["card"]])] += 1


# Fitted by bench/fit_values.py --games 1000 (heuristic self-play, epsilon 0.1, whole two-player
# games: the weights fitted on games cut at 8 seasons overrated military 9 times over).
WEIGHTS = (-0.04081, 0.5859, 0.1408, 0.5145, 0.2038, 0.3437, 0.06063, 0.1292, 0.03407)
# Measured in docs/bots.md. The six actions of a turn are six decisions of ours: a full-width
# tree tries a random move at our next one on almost every visit, so the tree keeps the
# heuristic's five best moves (width); the margin keeps the heuristic's move unless another is
# clearly better; depth 12 leaves room for the deeper tree in the same time.
SEARCH = {
    "depth": 12,
    "bias": 1.0,
    "epsilon": 0.1,
    "opponents": "policy",
    "margin": 1.0,
    "reuse": 4,
    "width": 5,
}


def features(state: Any, seat: int) -> list[float]:
    """``seat``'s Noble against the best other Noble with a clan: Political Power as it would
    be scored now (more telling as the end nears), military, economy, gold, ninjas, cards,
    and whether the face-up Honour card would go to either of them now (and in Winter, when it
    is awarded at the end of the season).

    ``state`` is a determinization: the Nobles read here are a sample of the hidden ones.
    """
    if not state.nobles or state.phase == "setup":
        return [0.0] * len(WEIGHTS)
    rows = state.scores()
    own = [_own(state, rows, s) for s in range(state.players)]
    rival = max((s for s in range(state.players) if s != seat), key=lambda s: own[s][:4])
    lead = [a - b for a, b in zip(own[seat], own[rival], strict=True)]
    leader = honour_leader(state)
    honour = float(leader == state.nobles[seat]) - float(leader == state.nobles[rival])
    return _row(lead, _progress(state), honour, state.round % 2)


def strengths(state: Any) -> list[list[float]] | None:
    """Each seat's own row of what `features` compares (its Noble's Political Power, also as
    the end nears, military, economy; the seat's gold, ninjas and cards; the face-up Honour
    card): `features(state, seat)` is the seat's row minus its rival's. None before the Nobles
    are dealt."""
    if not state.nobles or state.phase == "setup":
        return None
    rows = state.scores()
    progress = _progress(state)
    leader = honour_leader(state)
    winter = state.round % 2
    return [
        _row(_own(state, rows, seat), progress, float(leader == state.nobles[seat]), winter)
        for seat in range(state.players)
    ]


def _own(state: Any, rows: Sequence[dict[str, Any]], seat: int) -> tuple[int, ...]:
    """The seat's Noble's Political Power, military and economy (``rows``: `scores()`), and
    the seat's gold, ninjas and cards."""
    row = rows[state.nobles[seat]]
    return (
        row["political"],
        row["military"],
        row["economy"],
        state.gold[seat],
        len(state.ninjas[seat]),
        len(state.hand[seat]),
    )


def _row(own: Sequence[int], progress: float, honour: float, winter: int) -> list[float]:
    """The evaluation's inputs from `_own`'s numbers (a seat's, or a difference of two
    seats'), the game's progress, the Honour card's and whether it is Winter (when the card
    is awarded this season)."""
    political, military, economy, gold, ninjas, hand = own
    return [
        political,
        political * progress,
        military / 4,
        economy / 4,
        gold / 4,
        ninjas / 2,
        hand / 3,
        honour,
        honour * winter,
    ]


def _progress(state: Any) -> float:
    """How far the game is, from 0 to 1: seasons played of the most it can last."""
    honours = len(state.honour_deck) + (state.honour_up >= 0) + len(state.honour_log)
    seasons = 2 * honours
    if state.options["max_turns"] is not None:
        seasons = min(seasons, state.options["max_turns"])
    return min(state.round / max(seasons, 1), 1.0)


def honour_leader(state: Any) -> int:
    """The Noble the face-up Honour card would go to if it were awarded now, or -1 when none
    is up, it would be buried or a coin would decide (SJ-24; without the rules' random draw)."""
    if state.honour_up < 0:
        return -1
    top = state.honour_contenders(state.honour_up)
    return top[0] if len(top) == 1 else -1


# With three players every seat's chance is a Luce choice among the seats' rows (`strengths`):
# a clan gains from what weakens either rival, not only the strongest. It won 27 of 45 paired
# deals for one `hard` clan against two `medium` ones (17 with the pairwise model), but on the
# deals it was chosen on; on fresh deals 12 of 30 against `medium`'s 11, no gain confirmed,
# and no worse anywhere measured. With four it measured no better (8 of 39 against 12), so
# four players keep the pairwise model; with two the two are the same model (docs/bots.md).
LUCE_PLAYERS = frozenset({3})
_luce = luce_evaluation(WEIGHTS, strengths)
_pairwise = per_seat_evaluation(WEIGHTS, features)


def evaluate(state: Any) -> list[float]:
    """Every seat's chance to win from a determinization, in [-1, 1] (see `LUCE_PLAYERS`)."""
    return _luce(state) if state.players in LUCE_PLAYERS else _pairwise(state)
