"""Every action The Masquerade Ball can accept, built once at import (stable RL indices).

Places are squares, named ``a1``..``f7`` on the two-player palace and ``na1``..``wf3`` on the
four-player palace (courtroom letter n/e/s/w, file, row counted from the throne row; three
players use it without West), plus, there, ``ball<i>`` (the i-th card of the public ballroom
list) and ``ball`` (the ballroom as a destination, or the acting card standing in it as a
source).

Verbs: ``inspect <place>``; ``play <i>`` (hand card i), ``free <i>`` (the Diplomat: the i-th of
your cards in enemy prisons), ``resurrect <i>`` (the Bishop: the i-th card of your graveyard
followed by the others'), each followed by ``place <square>`` (or ``place hand`` after free);
``move <from> <to>`` (onto an enemy: an attack), ``swap <a> <b>``, ``rotate ball``;
``spy <place>``, ``redeem <place>``, ``deliver <place>`` then ``drop <place>`` (the Nun);
``release <i>`` (a prisoner back to its owner's hand) and ``end``. Between turns: ``pass``
(close a release or conquest window) and ``liberate`` (hand a conquered courtroom back to its
eliminated owner, MB-28). Hidden picks name positions, never identities.
"""

from __future__ import annotations

from intrigue.engine import Action, ActionTable

from .board import FOUR, TWO, Board

MAX_HAND = 42
MAX_PRISON = 42
MAX_GRAVES = 56
MAX_BALL = 56

_pool: dict[str, Action] = {}


def _act(verb: str, *args: int | str) -> Action:
    action = Action(verb, *args)
    return _pool.setdefault(str(action), action)


def reach(geo: Board, a: int, b: int) -> bool:
    """Whether any card could ever move from square ``a`` to square ``b`` in one move."""
    if geo.court[a] != geo.court[b] and geo.courts == 4:
        return False
    if b in geo.links[a]:
        return True
    ra, fa = divmod(a, 6) if geo.courts == 2 else geo.local[a]
    rb, fb = divmod(b, 6) if geo.courts == 2 else geo.local[b]
    dr, df = abs(ra - rb), abs(fa - fb)
    if dr <= 2 and df <= 1:
        return True  # every pip map fits in five rows by three files
    if dr == 0 and df == 1:
        return True  # ballroom lateral moves
    # the aristocracy's two-step: a one-square pip onto a step, then a throne of that courtroom
    c = geo.throne_of[b]
    return c >= 0 and any(
        geo.step_of[v] == c and abs(ra - rv) <= 1 and abs(fa - fv) <= 1
        for v in geo.steps[c]
        for rv, fv in [divmod(v, 6) if geo.courts == 2 else geo.local[v]]
    )


class BoardActions:
    """The pre-built actions of one palace, indexed by place integers for the hot paths."""

    def __init__(self, geo: Board) -> None:
        n = geo.size
        four = geo.courts == 4
        names = list(geo.names)
        if four:
            names += [f"ball{i}" for i in range(MAX_BALL)] + ["ball"]
        self.places = names
        self.ball = n + MAX_BALL if four else -1  # the place "ball"
        count = len(names)
        self.inspect = [_act("inspect", p) for p in names[: count - 1 if four else count]]
        self.place = [_act("place", p) for p in geo.names]
        self.move: list[dict[int, Action]] = [{} for _ in range(count)]
        for a in range(n):
            for b in range(n):
                if a != b and reach(geo, a, b):
                    self.move[a][b] = _act("move", names[a], names[b])
        if four:
            fronts = [sq for sq in range(n) if geo.local[sq][0] == 2]
            seconds = [sq for sq in range(n) if geo.local[sq][0] >= 1]
            for sq in fronts:  # a front-row card enters the ballroom or attacks a card in it
                self.move[sq][self.ball] = _act("move", names[sq], "ball")
                for i in range(MAX_BALL):
                    self.move[sq][n + i] = _act("move", names[sq], names[n + i])
            for sq in seconds:  # the acting ballroom card leaves or attacks
                self.move[self.ball][sq] = _act("move", "ball", names[sq])
            for i in range(MAX_BALL):
                self.move[self.ball][n + i] = _act("move", "ball", names[n + i])
        self.swap = [{b: _act("swap", names[a], names[b]) for b in geo.links[a]} for a in range(n)]
        spots = names[: count - 1] if four else names
        self.spy = [_act("spy", p) for p in spots]
        self.redeem = [_act("redeem", p) for p in spots]
        self.deliver = [_act("deliver", p) for p in spots]
        self.drop = [_act("drop", p) for p in geo.names] + ([_act("drop", "ball")] if four else [])
        self.rotate = _act("rotate", "ball") if four else None
        self.ordered: list[Action] = [
            *self.inspect,
            *self.place,
            *(a for row in self.move for a in row.values()),
            *(a for row in self.swap for a in row.values()),
            *self.spy,
            *self.redeem,
            *self.deliver,
            *self.drop,
            *([self.rotate] if self.rotate else []),
        ]


END = _act("end")
PLAY = [_act("play", i) for i in range(MAX_HAND)]
FREE = [_act("free", i) for i in range(MAX_PRISON)]
RESURRECT = [_act("resurrect", i) for i in range(MAX_GRAVES)]
RELEASE = [_act("release", i) for i in range(MAX_PRISON)]
PLACE_HAND = _act("place", "hand")
PASS = _act("pass")
LIBERATE = _act("liberate")
TWO_ACTIONS = BoardActions(TWO)
FOUR_ACTIONS = BoardActions(FOUR)
ACTIONS = ActionTable(
    dict.fromkeys(
        [
            END,
            *PLAY,
            *FREE,
            *RESURRECT,
            *RELEASE,
            PLACE_HAND,
            *TWO_ACTIONS.ordered,
            *FOUR_ACTIONS.ordered,
            PASS,  # added after the first release: appended so older indices stay stable
            LIBERATE,
        ]
    )
)
