"""A Masquerade Ball player following the seed's strategy, from the seat's view only.

The seed's game is "chess, rock-paper-scissors and concentration": you act with the card you
inspect, so you want to know your cards, strike where the Circle of Power favours you, and get
a card onto an enemy throne while keeping the enemy off yours. Each decision scores every legal
action once (no look-ahead) and plays the best, ties broken at random:

* **inspect** a card you do not know yet (information), or a known card that can strike: one
  that reaches an enemy throne, an intruder on your throne, or a beatable enemy;
* **attack** when the expected exchange is good: the defender's rank is known, or spread over
  the ranks of its suit the seat has not seen; taking or defending a throne weighs most;
* **advance** toward the enemy thrones, step onto an empty enemy throne, and do not leave your
  own thrones bare; once a card has held an enemy throne since your last turn, end the turn
  with it there (that wins it, MB-20): never inspect it (an even card inspected must move) or
  move it off;
* **abilities**, once the moves worth making are made (an ability ends the movement): free
  prisoners (Diplomat), raise the dead (Bishop), restore your own unmasked Assassin or Joker
  (Priest), spy on enemies near your thrones (Spy), deliver a strong card onto an intruder on
  your throne (Nun);
* **play** your best hand card onto an empty throne of yours, else as far forward as possible;
* never release prisoners (they are the enemy's cards), and keep every conquered courtroom.
"""

from __future__ import annotations

import functools
from typing import Any

from intrigue.engine import Action
from intrigue.games.masquerade_ball.board import FOUR, RANK_LABELS, RANKS, TWO, Board, pattern_name
from intrigue.games.masquerade_ball.circle import ATTACKER, TIE, VERDICTS
from intrigue.games.masquerade_ball.rules import (
    ATTACKING,
    CARDS,
    DROP,
    EMPTY,
    IN_BALL,
    OVER,
    BallState,
)

from ..base import RandomSource
from .valuation import every_seat_evaluation

LABEL_RANK = {label: rank for rank, label in RANK_LABELS.items()}
# How much a card is worth keeping (strength in the Circle and its ability).
VALUE = {
    12: 6.0,  # Queen
    13: 5.0,  # King
    11: 4.5,  # Jack
    10: 5.0,
    9: 4.5,
    8: 4.0,
    1: 5.0,  # Assassin
    14: 4.0,  # Joker
    7: 3.5,
    6: 3.5,
    5: 3.0,
    4: 3.5,
    3: 3.0,
    2: 3.5,
}
ABILITY_CARDS = frozenset((1, 14, 2, 3, 4, 5, 6))  # worth redeeming when face up


class _PalaceBoard:
    """The view's ``board`` of a determinization in the palace (three and four players), each
    square's card built the first time a decision reads it: there a decision reads a few
    squares (its moves' ends and the thrones) of the thirty to fifty cards on the board, while
    with two players it reads most of them (every known card's reach) and the whole board is
    built at once. Reads as the view's dict does (``in``, ``[]``, ``get``, ``values``); the
    cards are the view's (`BallState._card_view`)."""

    __slots__ = ("_cards", "_seat", "_state")

    def __init__(self, state: BallState, seat: int) -> None:
        self._state, self._seat = state, seat
        self._cards: dict[str, dict[str, Any] | None] = {}

    def get(self, place: str, default: Any = None) -> Any:
        cards = self._cards
        if place in cards:
            card = cards[place]
        else:  # read the square (one call less: a rollout move reads a few squares each)
            state = self._state
            sq = state.geo.index.get(place)
            cid = EMPTY if sq is None else state.board[sq]
            card = cards[place] = None if cid == EMPTY else state._card_view(cid, self._seat)
        return default if card is None else card

    def __contains__(self, place: str) -> bool:
        return self.get(place) is not None

    def __getitem__(self, place: str) -> dict[str, Any]:
        card = self.get(place)
        if card is None:
            raise KeyError(place)
        return card

    def values(self) -> list[dict[str, Any]]:
        """Every card on the board."""
        return list(self._state._board_view(self._seat).values())


class _Reader:
    """Facts about the position, read once: from the seat's view (`_Reader(view)`) or, on
    every move of a search's rollouts, from a determinization as that view would show them
    (`from_state`, which builds only the parts of the view a decision reads)."""

    sides: list[dict[str, Any]]
    ballroom: list[dict[str, Any]]
    _state: BallState | None = None  # a reader made by `from_state` reads it

    def __init__(self, view: dict[str, Any]) -> None:
        self.seat = view["seat"]
        self.four = view["players_board"] != 2  # the palace with a ballroom zone
        self.sides = view["sides"]
        self.playing = view["side_to_play"]
        self.board: dict[str, dict[str, Any]] | _PalaceBoard = view["board"]
        self.ballroom = view.get("ballroom") or []
        self.phase, self.repeats = view["phase"], view["repeats"]
        self.delivering = view["delivering"]
        self.attacked_or_played = bool(view["pending"] or view["played"])
        held = {h["side"] for h in view.get("holding", []) if h["seat"] == self.seat}
        thrones = tuple(tuple(s["thrones"]) for s in self.sides)  # the view lists side by side
        self._facts(thrones, tuple(s["controller"] for s in self.sides), held)

    @classmethod
    def from_state(cls, state: BallState, seat: int) -> _Reader:
        """The reader of ``seat``'s view of ``state``, without building that view."""
        r = cls.__new__(cls)
        r._state = state
        r.seat, r.four, r.playing = seat, state.players != 2, state.ent
        r.board = _PalaceBoard(state, seat) if state.zone else state._board_view(seat)
        r.phase, r.repeats = state.phase, state.repeats
        r.delivering = state._name_of(state.delivering) if state.phase == DROP else None
        r.attacked_or_played = bool(state.pending or state.played)
        players = state.players
        held = {k % players for k, on in enumerate(state.holding) if on and k // players == seat}
        r._facts(_throne_names(state.geo), tuple(state.ctrl), held)
        return r

    @functools.cached_property
    def sides(self) -> list[dict[str, Any]]:  # type: ignore[no-redef]
        """The view's ``sides`` (a reader from a view has them; one from a state builds them
        only when a decision reads them)."""
        state = self._state
        return [state._side_view(e, self.seat, full=False) for e in range(state.players)]

    @functools.cached_property
    def ballroom(self) -> list[dict[str, Any]]:  # type: ignore[no-redef]
        """The view's ``ballroom`` (built, for a reader from a state, when first read: most
        rollout moves of a four-player ball read no ballroom card)."""
        state = self._state
        return state._card_views(state.ball, self.seat) if state.zone else []

    def _facts(
        self, thrones: tuple[tuple[str, ...], ...], ctrl: tuple[int, ...], held: set[int]
    ) -> None:
        """Whose the sides and thrones are, from each side's thrones and controller (side by
        side) and the sides whose thrones the seat holds (the view's ``holding``)."""
        self.mine, self.my_thrones, self.enemy_thrones, self._distances = _control(
            thrones, ctrl, self.seat, self.four
        )
        self.holds = self._holds(thrones, held)

    def card(self, place: str) -> dict[str, Any] | None:
        found = self.board.get(place)  # one lookup (a square's card is never None)
        if found is not None:
            return found
        if place.startswith("ball") and place[4:].isdigit():
            i = int(place[4:])
            return self.ballroom[i] if i < len(self.ballroom) else None
        if place == "ball":  # the acting ballroom card
            return next((c for c in self.ballroom if c.get("acting") and self.is_mine(c)), None)
        return None

    def is_mine(self, card: dict[str, Any]) -> bool:
        return card["side"] in self.mine

    def acted(self) -> bool:
        """Whether a card moved, attacked or was played this turn (the position has changed)."""
        return self.attacked_or_played or any(card.get("moved") for card in self.board.values())

    def _holds(self, thrones: tuple[tuple[str, ...], ...], held: set[int]) -> set[str]:
        """The enemy thrones where a card of ours has stood since our last turn, its side's
        thrones still free of that side's cards: ending the turn so wins (MB-20) or conquers."""
        holds: set[str] = set()
        for e in held:
            squares = thrones[e]
            cards = [self.board.get(sq) for sq in squares]
            if any(c is not None and c["side"] == e for c in cards):
                continue
            holds |= {sq for sq, c in zip(squares, cards, strict=True) if c and self.is_mine(c)}
        return holds

    @functools.cached_property
    def intruders(self) -> frozenset[str]:
        """Our thrones an enemy card stands on."""
        board = self.board
        return frozenset(
            sq for sq in self.my_thrones if (c := board.get(sq)) and c["side"] not in self.mine
        )

    @functools.cached_property
    def unseen(self) -> dict[str, tuple[int, ...]]:
        """Per suit, the ranks the seat has not seen anywhere (a card it does not know is one);
        worked out only when an attack on an unknown card is weighed."""
        seen = (
            self._seen_in_view() if self._state is None else _seen_in_state(self._state, self.seat)
        )
        out = {}
        for suit, known in seen.items():
            shown = set(known)  # an entourage holds each rank once (`RANKS`)
            out[suit] = tuple([r for r in RANKS if r not in shown]) or RANKS
        return out

    def _seen_in_view(self) -> dict[str, list[int]]:
        """Per suit, the ranks the view shows: on the board, in the ballroom, in the piles."""
        seen: dict[str, list[int]] = {s["suit"]: [] for s in self.sides}
        for card in [*self.board.values(), *self.ballroom]:
            if card["rank"] is not None:
                seen.setdefault(card["suit"], []).append(LABEL_RANK[card["rank"]])
        for side in self.sides:
            suit = side["suit"]
            for pile in ("graveyard", "hand"):
                shown = side[pile].get("cards", side[pile].get("known", []))
                seen[suit] += [LABEL_RANK[r] for r in shown]
            prison = side["prison"].get("cards", side["prison"].get("known", []))
            if len(prison) == len(side["prisoners_of"]):  # ours: we know whose each card is
                for rank, owner in zip(prison, side["prisoners_of"], strict=True):
                    seen.setdefault(self.sides[owner]["suit"], []).append(LABEL_RANK[rank])
        return seen

    # -- distances ------------------------------------------------------------------------
    def distance(self, place: str) -> float:
        """How far a square is from the nearest enemy throne (rough, in moves)."""
        known = self._distances
        found = known.get(place)
        if found is None:
            found = known[place] = _distance(place, self.enemy_thrones, self.four)
        return found


def _seen_in_state(state: BallState, seat: int) -> dict[str, list[int]]:
    """`_Reader._seen_in_view` for ``seat``'s view of ``state``, read from the state's lists
    without building the view's cards and piles (a search's rollouts ask it at every move
    that weighs an attack on an unknown card); `_card_views` and `_pile_view` say what the
    view shows, and the same ranks are credited to the same suits."""
    rank, suits, ctrl, owner, up = state.rank, state.suits, state.ctrl, state.owner, state.up
    over = state.phase == OVER
    known, shows = state.known[seat], state._shows
    seen: dict[str, list[int]] = {suits[e]: [] for e in range(state.players)}
    for cards in (state.board, state.ball) if state.zone else (state.board,):
        for c in cards:
            if c >= 0 and (up[c] or over or (known >> c & 1 and shows(seat, c))):
                seen.setdefault(suits[c // CARDS], []).append(rank[c])
    for e in range(state.players):
        mine = ctrl[e] == seat
        for pile in (state.grave[e], state.hand[e]):
            seen[suits[e]] += [rank[c] for c in pile if mine or over or known >> c & 1]
        prison = state.prison[e]
        if mine:
            shown = [rank[c] for c in prison]
        elif all(over or known >> c & 1 for c in prison):
            # The view lists another side's known prisoners by their labels, sorted.
            shown = [LABEL_RANK[label] for label in sorted(RANK_LABELS[rank[c]] for c in prison)]
        else:
            continue
        for r, c in zip(shown, prison, strict=True):
            seen.setdefault(suits[owner[c]], []).append(r)
    return seen


@functools.lru_cache(maxsize=8)
def _throne_names(geo: Any) -> tuple[tuple[str, ...], ...]:
    """Each side's thrones by name, side by side (a board's geography never changes)."""
    return tuple(tuple(geo.names[sq] for sq in thrones) for thrones in geo.thrones)


@functools.lru_cache(maxsize=1024)
def _control(
    thrones: tuple[tuple[str, ...], ...], ctrl: tuple[int, ...], seat: int, four: bool
) -> tuple[frozenset[int], frozenset[str], frozenset[str], dict[str, float]]:
    """The sides ``seat`` controls, their thrones, the thrones of the other sides still in
    play, and a table of distances to those (`_Reader.distance`, filled in as squares are
    asked about). Control changes only when a side falls, so a search's rollouts ask about
    the same few of these again and again: every reader of one shares them (the sets are
    never changed; the table only gains entries, the same for every reader)."""
    mine = frozenset(e for e, controller in enumerate(ctrl) if controller == seat)
    my_thrones = frozenset(sq for e in mine for sq in thrones[e])
    enemy_thrones = frozenset(
        sq
        for e, controller in enumerate(ctrl)
        if e not in mine and controller >= 0
        for sq in thrones[e]
    )
    return mine, my_thrones, enemy_thrones, {}


BALLROOM_DISTANCE = 3.0  # the four-player ballroom, one zone, as `_distance` counts it


def _distance(place: str, enemy_thrones: frozenset[str], four: bool) -> float:
    """`_Reader.distance`, worked out."""
    if not enemy_thrones:
        return 0.0
    if not four:
        col, row = "abcdef".index(place[0]), int(place[1])
        return min(
            max(abs(row - int(t[1])), abs(col - "abcdef".index(t[0]))) for t in enemy_thrones
        )
    if place.startswith("ball"):
        return BALLROOM_DISTANCE
    court, col, row = place[0], "abcdef".index(place[1]), int(place[2])
    targets = [t for t in enemy_thrones if t[0] == court]
    if targets:
        return min(max(row - 1, abs(col - "abcdef".index(t[1]))) for t in targets)
    return BALLROOM_DISTANCE + (4 - row)


def _value(rank: int | None) -> float:
    return 4.0 if rank is None else VALUE[rank]


def _rank(card: dict[str, Any] | None) -> int | None:
    return None if card is None or card["rank"] is None else LABEL_RANK[card["rank"]]


def _attack_odds(r: _Reader, att: dict[str, Any], dfn: dict[str, Any]) -> tuple[float, float]:
    """(win, tie) chances of ``att`` attacking ``dfn``, over the defender's possible ranks."""
    a = _rank(att)
    if a is None:
        return 0.4, 0.05
    d = _rank(dfn)
    ranks = (d,) if d is not None else r.unseen.get(dfn["suit"], RANKS)
    return _odds(a, ranks, not att["up"], not dfn["up"])


@functools.lru_cache(maxsize=8192)
def _odds(a: int, ranks: tuple[int, ...], a_masked: bool, d_masked: bool) -> tuple[float, float]:
    """(win, tie) chances of rank ``a`` against a rank drawn uniformly from ``ranks``."""
    win = tie = 0
    for rank in ranks:
        result = VERDICTS[a][rank][a_masked][d_masked].winner
        win += result == ATTACKER
        tie += result == TIE
    return win / len(ranks), tie / len(ranks)


def _attack_score(r: _Reader, att: dict[str, Any], dst: str, dfn: dict[str, Any]) -> float:
    win, tie = _attack_odds(r, att, dfn)
    lose = 1.0 - win - tie
    mine, theirs = _value(_rank(att)), _value(_rank(dfn))
    score = win * theirs + tie * (theirs - mine) - lose * mine
    if dst in r.my_thrones:
        score += 8.0 * (win + tie)  # an intruder on our throne must go
    elif dst in r.enemy_thrones:
        score += 5.0 * win  # the attacker takes the throne
    return score


def _move_score(r: _Reader, src: str, dst: str) -> float:
    card = r.card(src)
    if card is None:
        return 0.0
    target = r.card(dst) if dst != "ball" else None
    if target is not None and not r.is_mine(target):
        return _attack_score(r, card, dst, target)
    if src in r.holds:
        return -HOLD_WINS  # it would give up a throne held long enough to win it
    score = 0.6 * (r.distance(src if src != "ball" else "ball0") - r.distance(dst))
    if dst in r.enemy_thrones:
        score += 6.0
    if src in r.my_thrones and not any(
        sq != src and (c := r.board.get(sq)) is not None and r.is_mine(c) for sq in r.my_thrones
    ):
        score -= 3.0  # do not leave our thrones bare
    if dst in r.my_thrones:
        score += 1.0
    return score


def _reach(r: _Reader, place: str, rank: int) -> tuple[str, ...]:
    """The squares a known card could move to inside the courtrooms (its pip map and the
    ascension links); a four-player ballroom card's moves are zone rules, not read here."""
    return _reach_on(FOUR if r.four else TWO, place, rank)


@functools.lru_cache(maxsize=2048)
def _reach_on(geo: Board, place: str, rank: int) -> tuple[str, ...]:
    if place not in geo.index:
        return ()
    table = geo.tables[pattern_name(rank)]
    return tuple(geo.names[d] for d in table.direct[geo.index[place]])


@functools.lru_cache(maxsize=256)
def _two_player_near(place: str, rank: int | None) -> frozenset[str]:
    """Two players: the squares next to ``place`` and, for a known card, those it reaches."""
    near = {TWO.names[d] for d in TWO.links[TWO.index[place]]}
    if rank is not None:
        near.update(_reach_on(TWO, place, rank))
    return frozenset(near)


def _inspect_score(r: _Reader, place: str) -> float:
    card = r.card(place)
    if card is None:
        return -1.0
    distance = r.distance(place)
    forward = 0.25 * (6 - min(distance, 6))
    score = forward  # forward cards first
    rank = _rank(card)
    if rank is None:
        score += 1.5  # learn what it is
    else:
        # With two players only the throne counts (their balls do not stall), so ``ahead``
        # is only worked out for four.
        ahead = not r.four or place.startswith("ball") or _front_row_ahead(place, distance)
        for dst in _reach(r, place, rank):
            other = r.board.get(dst)
            if other is None:
                if dst in r.enemy_thrones:
                    score += 5.0
                ahead = ahead or r.distance(dst) < distance
            elif not r.is_mine(other):
                score += max(0.0, 0.5 * _attack_score(r, card, dst, other))
        if place in r.enemy_thrones or not ahead:
            # Nowhere further to go: inspecting it again only lets it step aside, back or
            # stand, and the turn is lost to it (four-player balls' `medium` seats did that
            # with one card for hundreds of turns): another card acts, unless this one can
            # strike.
            score -= forward
    intruders = r.intruders
    if (
        intruders
        and not r.four
        and place in TWO.index
        and _two_player_near(place, rank) & intruders
    ):
        score += 4.0
    if place in r.my_thrones:
        score -= 0.5
    if place in r.holds:
        score -= HOLD_WINS  # an inspected card may have to move off the throne it holds
    return score


def _front_row_ahead(place: str, distance: float) -> bool:
    """A four-player front-row card may enter the ballroom: whether that is a step forward."""
    return place.endswith("3") and distance > BALLROOM_DISTANCE


def _place_score(r: _Reader, square: str) -> float:
    if square == "hand":
        return -1.0
    if square in r.my_thrones:
        return 3.0
    return 0.4 * (6 - min(r.distance(square), 6))


def _ability_score(r: _Reader, action: Action) -> float:
    verb, arg = action.verb, str(action.args[0])
    if verb in ("free", "resurrect"):
        return 3.0
    card = r.card(arg)
    if card is None:
        return -1.0
    if verb == "redeem":
        rank = _rank(card)
        if r.is_mine(card):
            return 2.5 if rank in ABILITY_CARDS else 0.3
        return -2.0  # it would give an enemy its ability back
    if verb == "spy":
        if r.is_mine(card):
            return -2.0
        near = r.distance(arg) >= 3 or arg in r.my_thrones
        return 1.5 + (1.0 if near else 0.0)
    if verb == "deliver":
        intruders = r.intruders
        rank = _rank(card)
        if intruders and rank is not None and VALUE[rank] >= 4.5:
            return 4.0
        return -1.0
    return 0.0


def _drop_score(r: _Reader, dst: str) -> float:
    target = r.card(dst)
    delivered = r.card(r.delivering or "")
    if target is not None and delivered is not None and not r.is_mine(target):
        return _attack_score(r, delivered, dst, target)
    if dst in r.my_thrones:
        return 3.0
    return 0.3 * (6 - min(r.distance(dst), 6))


def _score(r: _Reader, action: Action) -> float:
    verb = action.verb
    if verb == "inspect":
        return _inspect_score(r, str(action.args[0]))
    if verb in ("move", "swap"):
        if verb == "swap":
            return 0.05
        return _move_score(r, str(action.args[0]), str(action.args[1]))
    if verb == "rotate":
        same = [c for c in r.ballroom if not r.is_mine(c)]
        return 0.5 if same else 0.1
    if verb == "play":
        hand = r.sides[r.playing]["hand"].get("cards", [])
        i = int(action.args[0])  # type: ignore[arg-type]
        return 2.5 + (0.1 * VALUE[LABEL_RANK[hand[i]]] if i < len(hand) else 0.0)
    if verb == "place":
        return _place_score(r, str(action.args[0]))
    if verb == "drop":
        return _drop_score(r, str(action.args[0]))
    if verb in ("spy", "redeem", "deliver", "free", "resurrect"):
        return _ability_score(r, action)
    if verb == "release":
        return -5.0  # prisoners are the enemy's cards: never give them back
    if verb == "liberate":
        return -1.0
    if verb == "end" and r.holds:
        return HOLD_WINS  # the hold survived their turn: ending ours now wins the throne
    return 0.0  # end, pass


# Ending the turn while a card holds an enemy throne since our last turn (MB-20): it wins.
HOLD_WINS = 20.0
# At a position that came round before (view "repeats"), a move worth this much less than the
# best, per earlier time, up to the most, is played instead, to leave the loop.
LOOP_SLACK = 1.0
LOOP_SLACK_MAX = 4.0
ABILITY_VERBS = frozenset(("spy", "redeem", "deliver", "free", "resurrect"))
MOVE_VERBS = frozenset(("move", "rotate"))  # a swap (worth little) need not come first


def choose(view: dict[str, Any], legal_actions: list[Action], rng: RandomSource) -> Action:
    """The best-scoring legal action (see the module docstring); ties at random.

    In the seed's order an ability ends the movement of the cards acting so far (MB-52), so
    while a move is worth making, it comes before any ability."""
    return _decide(_Reader(view), legal_actions, rng)


def _decide(reader: _Reader, legal_actions: list[Action], rng: RandomSource) -> Action:
    """`choose` on a reader of the position."""
    return _pick(reader, _scores(reader, legal_actions), rng)


def _scores(reader: _Reader, legal_actions: list[Action]) -> list[tuple[float, Action]]:
    """Each legal action with its score, abilities after the moves worth making (MB-52)."""
    scored = [(_score(reader, a), a) for a in legal_actions]
    best_move = max((s for s, a in scored if a.verb in MOVE_VERBS), default=0.0)
    if best_move > 0:
        later = best_move - 0.01
        scored = [(min(s, later) if a.verb in ABILITY_VERBS else s, a) for s, a in scored]
    return scored


def _pick(reader: _Reader, scored: list[tuple[float, Action]], rng: RandomSource) -> Action:
    """The best scored action, ties at random; at a position that came round before, another
    nearly as good (`_another_way`)."""
    best = max(s for s, _ in scored)
    top = [a for s, a in scored if s >= best - 1e-9]
    if reader.repeats and reader.phase == "main" and not reader.acted():
        top = _another_way(scored, best, reader.repeats) or top
    return top[rng.randrange(len(top))]


def rollout_policy(state: Any, seat: int, legal: list[Action], rng: RandomSource) -> Action:
    """`choose` for ``seat`` in a determinization, reading the state as the seat's view shows
    it (`_Reader.from_state`), which saves building that view on every move of a rollout."""
    return _decide(_Reader.from_state(state, seat), legal, rng)


def shortlist(state: Any, seat: int, legal: list[Action], rng: RandomSource) -> list[Action]:
    """``legal`` ranked for ``seat`` in a determinization: the policy's move first (drawn as
    `rollout_policy` draws it), then the others by the heuristic's score, ties in random
    order; the search's ``width`` keeps the first few at its own decisions."""
    reader = _Reader.from_state(state, seat)
    scored = _scores(reader, legal)
    first = _pick(reader, scored, rng)
    worth = {a: s for s, a in scored}
    order = list(legal)
    rng.shuffle(order)
    order.sort(key=lambda a: (a != first, -worth[a]))
    return order


def _another_way(scored: list[tuple[float, Action]], best: float, repeats: int) -> list[Action]:
    """The turn starts from a position that came before: the same choice would most likely go
    round again. The moves worth nearly as much as the best (the longer the loop has gone on,
    the more difference is accepted) take turns, one each time the position comes back."""
    slack = min(LOOP_SLACK * repeats, LOOP_SLACK_MAX)
    levels = sorted({round(s, 9) for s, _ in scored if s >= best - slack}, reverse=True)
    level = levels[repeats % len(levels)]
    return [a for s, a in scored if round(s, 9) == level]


# -- reasons, for people (the hints of a First game: intrigue.bots.advice) ---------------------
ABILITY_REASONS = {
    "free": "your prisoners come back to play",
    "resurrect": "a card from the graveyard comes back to play",
    "spy": "knowing the enemy cards near your thrones tells you what threatens them",
    "deliver": "a strong card lands on the intruder on your throne",
}


def explain(view: dict[str, Any], legal: list[Action], action: Action) -> str | None:
    """Why `choose` picked ``action``, in a phrase for people (None: no clear reason)."""
    r = _Reader(view)
    verb, args = action.verb, [str(a) for a in action.args]
    if verb == "inspect":
        return _inspect_reason(r, args[0])
    if verb == "move":
        return _move_reason(r, args[0], args[1])
    if verb == "drop":
        target, card = r.card(args[0]), r.card(view["delivering"] or "")
        if target is not None and card is not None and not r.is_mine(target):
            return _attack_reason(r, card, args[0], target)
        return "your throne needs a guard" if args[0] in r.my_thrones else None
    if verb in ("play", "place"):
        if verb == "place" and args[0] in r.my_thrones:
            return "your empty throne needs a guard"
        return (
            "a card on the board can act; in the hand it cannot"
            if verb == "play"
            else ("as far forward as it can go")
        )
    if verb == "redeem":
        return "your card gets its ability back"
    if verb == "end":
        return "nothing worth doing is left this turn"
    if verb == "pass":
        window = view.get("window") or {}
        if window.get("kind") == "conquest":
            return "a conquered courtroom is worth keeping"
        return "prisoners are the enemy's cards: keep them"
    return ABILITY_REASONS.get(verb)


def _inspect_reason(r: _Reader, place: str) -> str:
    card = r.card(place)
    rank = _rank(card)
    if rank is None:
        return "you do not know this card yet: inspecting shows you what it is"
    for dst in _reach(r, place, rank):
        other = r.board.get(dst)
        if other is None and dst in r.enemy_thrones:
            return f"it can reach the enemy throne on {dst}"
        if other is not None and not r.is_mine(other) and _attack_score(r, card, dst, other) > 0:
            return f"it can strike the enemy card on {dst} with good odds"
    return "it stands well forward, ready to act"


def _move_reason(r: _Reader, src: str, dst: str) -> str | None:
    card, target = r.card(src), r.card(dst) if dst != "ball" else None
    if card is not None and target is not None and not r.is_mine(target):
        return _attack_reason(r, card, dst, target)
    if dst in r.enemy_thrones:
        return "a card of yours on an enemy throne brings you closer to winning"
    if dst in r.my_thrones:
        return "it guards your throne"
    if r.distance(dst) < r.distance(src if src != "ball" else "ball0"):
        return "it brings the card closer to the enemy thrones"
    return None


def _attack_reason(r: _Reader, att: dict[str, Any], dst: str, dfn: dict[str, Any]) -> str:
    win, _ = _attack_odds(r, att, dfn)
    odds = f"by the ranks you have seen, it wins about {round(100 * win)}% of the time"
    if _rank(att) is None:
        odds = "a gamble: you do not know your own card yet"
    if dst in r.my_thrones:
        return f"an intruder on your throne must go ({odds})"
    if dst in r.enemy_thrones:
        return f"winning takes an enemy throne ({odds})"
    return odds


__all__ = ["choose", "explain"]


# -- search hooks -----------------------------------------------------------------------------
AFOOT = (ATTACKING, IN_BALL)  # cards in play that stand on no square
# Fitted by bench/fit_values.py (heuristic self-play, epsilon 0.1, max_turns=200, two players).
WEIGHTS = (0.4515, -0.01259, -0.126, 0.4521, -0.2004, 0.2398, 0.1785, 0.8402, 0.06236)
# Measured in docs/bots.md: search settings that beat the heuristic within ~1 s a move.
SEARCH = {"depth": 16, "bias": 1.0, "epsilon": 0.1, "opponents": "policy", "margin": 0.0}


def _strengths(state: Any) -> list[list[float]]:
    """Raw counts for the entourages each seat controls (read from a determinization), all
    seats in one pass over the cards and thrones: the evaluation asks every seat's features
    at every leaf of a search, and each seat's features compare it with every other seat."""
    geo, ctrl, owner = state.geo, state.ctrl, state.owner
    rank, pos, board = state.rank, state.pos, state.board
    n = state.players
    cards, value, advance = [0.0] * n, [0.0] * n, [0.0] * n
    court_of, local = geo.court, geo.local
    for cid in range(state.ncards):
        seat = ctrl[owner[cid]]
        sq = pos[cid]
        if seat < 0 or (sq < 0 and sq not in AFOOT):
            continue
        cards[seat] += 1
        value[seat] += VALUE[rank[cid]]
        if sq < 0 or court_of[sq] < 0:
            advance[seat] += 3  # in the ballroom (or between squares, attacking)
        else:
            row = local[sq][0]
            advance[seat] += row if ctrl[court_of[sq]] == seat else 6 - row
    thrones, kept = [0] * n, [0] * n  # kept: guards less intruders on the seat's thrones
    for court, squares in enumerate(geo.thrones):
        for sq in squares:
            cid = board[sq]
            if cid < 0:
                continue
            keeper, holder = ctrl[court], ctrl[owner[cid]]
            if keeper >= 0:
                kept[keeper] += 1 if holder == keeper else -1
            if holder >= 0 and holder != keeper:
                thrones[holder] += 1
    hands, prisoners = [0] * n, [0] * n
    for e, seat in enumerate(ctrl):
        if 0 <= seat < n:
            hands[seat] += len(state.hand[e])
            prisoners[seat] += len(state.prison[e])
    holding = state.holding
    return [
        [
            cards[s],
            value[s] / 4,
            advance[s] / 4,
            hands[s],
            prisoners[s],
            thrones[s],
            kept[s],
            float(any(holding[s * n + c] for c in range(n))),
        ]
        for s in range(n)
    ]


def seat_features(state: Any) -> list[list[float]]:
    """Every seat's `features`, from one pass of `_strengths`."""
    rows = _strengths(state)
    mover = state.to_move[0] if state.to_move else -1
    out = []
    for seat, mine in enumerate(rows):
        theirs = max(
            (row for s, row in enumerate(rows) if s != seat), key=lambda row: row[1] + 2 * row[5]
        )
        out.append(
            [
                *(a - b for a, b in zip(mine, theirs, strict=True)),
                0.0 if mover < 0 else (1.0 if mover == seat else -1.0),
            ]
        )
    return out


def features(state: Any, seat: int) -> list[float]:
    """``seat`` against its strongest opponent: cards on the board, their worth and how far
    forward they stand, hand, prisoners, enemy thrones held, own thrones kept, the throne
    hold that wins at the end of the turn, and who is to move."""
    return seat_features(state)[seat]


_evaluate_strengths = every_seat_evaluation(WEIGHTS, seat_features)


def beaten(state: Any, seat: int) -> bool:
    """Whether ``seat`` is out of the ball: it controls no courtroom (MB-29). Only a
    conqueror's `liberate` (MB-28) would bring it back, which the policy never plays."""
    return seat not in state.ctrl


# With three or four players, a ball with no attack for this many rounds (a turn of every seat
# still in) is stalling; the evaluation then fades towards a loss for every seat, fully after
# twice as many. Why: docs/games/masquerade-ball.md, *Breaking a standoff*.
QUIET_ROUNDS = 8


def stalling(state: Any) -> float:
    """How far a ball of three or four players has gone without an attack, from 0 (an attack in
    the last `QUIET_ROUNDS` rounds) to 1 (none in twice as many); 0 with two players."""
    if state.players < 3:
        return 0.0
    seats = len({seat for seat in state.ctrl if seat >= 0}) or 1
    rounds = (state.turns - state.fought) / seats
    return min(1.0, max(0.0, rounds / QUIET_ROUNDS - 1.0))


def evaluate(state: Any) -> list[float]:
    """Every seat's chance to win from a determinization, in [-1, 1]: the strengths'
    evaluation, but -1 for a seat out of the ball (`beaten`: with three or four players it has
    lost, MB-29, MB-54, whatever the others hold), and a stalling ball's values drawn towards
    -1 for every seat (`stalling`), so that a line in which some seat attacks is preferred to
    one in which the standoff goes on."""
    values = _evaluate_strengths(state)
    stall = stalling(state)
    if stall:
        values = [value - stall * (value + 1.0) for value in values]
    for seat in range(state.players):
        if beaten(state, seat):
            values[seat] = -1.0
    return values
