"""What a seat can still believe: a complete game consistent with everything it has seen.

The game's only chance is the deal, so the hidden information is (a) the ranks of the cards
the seat has not seen and (b) which card of a hand of several another seat played (MB-31).
Everything else, where every card is, who attacked whom, who won each verdict, which cards are
face up, is public. So a sample is built in two steps, from the seat's information only:

1. **Replay the public story** on placeholder ranks (`Forced`): legality is not checked and
   each verdict (and each unmasking card) is taken from the seat's own log, so the replay goes
   exactly where the real game went whatever the ranks. On the way, every observation that
   depends on a rank becomes a constraint on the card concerned (`Csp`):

   * every card the seat came to know (the state's ``learnlog``, in order) has the rank it saw
     (by the order of learning, not by card: after a hidden pick the cards are relabelled);
   * a card another seat moved can move that way (its pip map, a jump, a two-step, ...);
   * an even card that stayed put at the end of a turn, or when an ability was used (the
     seed's order, MB-52), had no empty pip square (MB-6);
   * every verdict: the two ranks give the public winner and the public flips (§2.3, MB-19);
   * a card unmasked for an ability is the first acting card that could (the invoker rule);
   * which hand card another seat played: a choice point (its back, the suit, is public).

2. **Draw ranks** satisfying every constraint: each entourage's cards take its 14 ranks once
   each (a random backtracking search over the constrained cards, restarted on the Luby
   schedule because its running time is heavy-tailed, then a shuffle of the rest).

The true deal satisfies every constraint under the true hand picks, so a depth-first search
over the hand picks always finds a solution: there is no fallback and no retry on the truth
(a branch of picks whose ranks the search leaves open within its budget of nodes is searched
again with a larger one).
Nothing here reads a rank the seat has not seen or a hidden hand pick: two states the seat
cannot tell apart give the same sample for the same generator (tests/masquerade_ball).

Step 1 up to the first hand pick with a real choice does not depend on the generator, so it
is done once per state and seat and kept (`Plan`, in ``BallState._plans``); a sample then costs
one search and a clone (or, with hand picks, the rest of the replay from the first pick). A
sample is that clone with the drawn ranks: the log's payloads that name ranks are read through
the sample's own rank table (`BallState.events`).
"""

from __future__ import annotations

from typing import Any

from intrigue.engine import Action, Rng

from .actions import PLAY
from .board import ACE, JACK, JOKER, KING, QUEEN, RANK_TOKENS, RANKS, TOKEN_RANKS
from .circle import VERDICTS, Verdict
from .rules import CARDS, EMPTY, EVEN, F_INV, F_MUST, BallState

ALL = sum(1 << r for r in RANKS)  # a domain: bit r set when rank r is still possible
# Ranks that move alike (`_targets` depends on the pip map and on being an aristocrat only).
MOVE_GROUPS = (
    (QUEEN, sum(1 << r for r in (ACE, JACK, QUEEN, KING, JOKER))),
    *((r, 1 << r) for r in range(2, 11)),
)
INVOKE_RANK = {"spy": 5, "redeem": 3, "deliver": 2, "free": 6, "resurrect": 4}
VERBS_INVOKE = frozenset(INVOKE_RANK)


class DeadEnd(Exception):
    """The hand picks chosen so far admit no consistent ranks: try another pick."""


class OutOfBudget(Exception):
    """`Csp.solve` spent its budget of search nodes without an answer either way."""


class _RunOver(Exception):
    """One run of the restarted search reached its length."""


RESTART_NODES = 32  # the unit of the Luby schedule of `Csp.solve`'s runs, in search nodes


def _luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: run
    lengths that waste at most a logarithmic factor against the best fixed length (Luby,
    Sinclair and Zuckerman 1993)."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


# -- the constraint store ---------------------------------------------------------------------
class Csp:
    """Rank domains per card, pair constraints (verdicts), one rank per card per entourage."""

    def __init__(self, ncards: int, groups: list[list[int]], pools: list[int]) -> None:
        self.dom = [0] * ncards
        self.group = [-1] * ncards
        self.groups = groups  # the cards of each entourage still in the game
        self.pools = pools  # the ranks they share out (a bit mask)
        for g, cids in enumerate(groups):
            for c in cids:
                self.dom[c] = pools[g]
                self.group[c] = g
        # per card: (other card, table) where table[rank of other] = mask of ranks for this card
        self.adj: list[list[tuple[int, tuple[int, ...]]]] = [[] for _ in range(ncards)]
        self._left = 0  # nodes left to the search's current run

    def copy(self) -> Csp:
        new = object.__new__(Csp)
        new.dom = self.dom.copy()
        new.group = self.group
        new.groups = self.groups
        new.pools = self.pools
        new.adj = [a.copy() for a in self.adj]
        new._left = 0
        return new

    def restrict(self, cid: int, mask: int) -> None:
        """Keep only the ranks in ``mask`` for ``cid`` (and propagate single values)."""
        if self.group[cid] < 0:
            return
        todo = [(cid, mask)]
        dom, group = self.dom, self.group
        while todo:
            c, m = todo.pop()
            new = dom[c] & m
            if new == dom[c]:
                continue
            if not new:
                raise DeadEnd
            dom[c] = new
            if new & (new - 1) == 0:  # one rank left: nobody else in the entourage has it
                for other in self.groups[group[c]]:
                    if other != c and dom[other] & new:
                        todo.append((other, ~new))
            for other, table in self.adj[c]:
                # table[rank of other] = ranks this card may have with it
                allowed = 0
                for ro in _bits(dom[other]):
                    if table[ro] & new:
                        allowed |= 1 << ro
                if dom[other] & ~allowed:
                    todo.append((other, allowed))

    def pair(self, a: int, b: int, allowed: set[tuple[int, int]]) -> None:
        """Only the rank pairs in ``allowed`` for (``a``, ``b``)."""
        for_a = [0] * (JOKER + 1)  # for_a[rank of b] = ranks a may have
        for_b = [0] * (JOKER + 1)
        for ra, rb in allowed:
            for_a[rb] |= 1 << ra
            for_b[ra] |= 1 << rb
        self.adj[a].append((b, tuple(for_a)))
        self.adj[b].append((a, tuple(for_b)))
        self.restrict(a, _union(for_a, self.dom[b]))
        self.restrict(b, _union(for_b, self.dom[a]))

    def solve(self, rng: Any, budget: int | None = None) -> list[int] | None:
        """A random assignment satisfying everything, or None if there is none.

        The search is a randomized backtracking one, restarted on the Luby schedule
        (`_luby` times `RESTART_NODES` nodes a run): its running time is heavy-tailed (one
        run of a four-player ball's constraints finds a solution in 27 nodes, the next runs
        past 300,000 after an early choice that fails only deep down), and restarts cut the
        tail off. ``budget``: the most nodes all runs may visit together; past it the
        question is left open (`OutOfBudget`). Without one the runs go on until one finds a
        solution or searches the whole space (the Luby runs grow without bound).
        """
        dom, pools, adj = self.dom, self.pools, self.adj
        ranks = [0] * len(dom)
        used = [0] * len(self.groups)  # ranks settled in each entourage
        for g, cids in enumerate(self.groups):
            for c in cids:
                d = dom[c]
                if d & (d - 1) == 0:
                    used[g] |= d
                    ranks[c] = d.bit_length() - 1
        # Propagation made every other card's domain agree with the settled ones, so only the
        # cards still tied to an open card, or with a narrowed domain, need a search; the rest
        # take the leftovers, shuffled.
        hard = []
        for g, cids in enumerate(self.groups):
            for c in cids:
                d = dom[c]
                if d & (d - 1) and (
                    (d | used[g]) != pools[g] or any(dom[o] & (dom[o] - 1) for o, _ in adj[c])
                ):
                    hard.append(c)
        assign: dict[int, int] = {}
        if hard:
            found = self._restarts(hard, assign, used, rng, budget)
            if found is None:
                return None
            used = found
        for c, r in assign.items():
            ranks[c] = r
        for g, cids in enumerate(self.groups):
            rest = list(_bits(pools[g] & ~used[g]))
            rng.shuffle(rest)
            free = [c for c in cids if not ranks[c]]
            for c, r in zip(free, rest, strict=True):
                ranks[c] = r
        return ranks

    def _restarts(
        self, hard: list[int], assign: dict[int, int], used: list[int], rng: Any, budget: int | None
    ) -> list[int] | None:
        """Search runs of growing length until one settles ``hard`` (into ``assign``; the
        ranks then used per entourage are returned) or proves there is no way (None)."""
        spent, run = 0, 0
        while True:
            run += 1
            nodes = RESTART_NODES * _luby(run)
            if budget is not None:
                if spent >= budget:
                    raise OutOfBudget
                nodes = min(nodes, budget - spent)
            self._left = nodes
            taken = used.copy()
            try:
                found = self._search(hard, assign, taken, rng)
            except _RunOver:
                assign.clear()
                spent += nodes
                continue
            return taken if found else None

    def _search(self, todo: list[int], assign: dict[int, int], used: list[int], rng: Any) -> bool:
        if not todo:
            return True
        self._left -= 1
        if self._left < 0:
            raise _RunOver
        best, best_mask, best_n = -1, 0, 99
        for c in todo:  # the most constrained card first
            mask = self._candidates(c, assign, used)
            n = mask.bit_count()
            if n < best_n:
                best, best_mask, best_n = c, mask, n
                if n == 0:
                    return False
        values = list(_bits(best_mask))
        rng.shuffle(values)
        rest = [c for c in todo if c != best]
        g = self.group[best]
        for r in values:
            assign[best] = r
            used[g] |= 1 << r
            if self._search(rest, assign, used, rng):
                return True
            used[g] &= ~(1 << r)
        del assign[best]
        return False

    def _candidates(self, c: int, assign: dict[int, int], used: list[int]) -> int:
        mask = self.dom[c] & ~used[self.group[c]]
        for other, table in self.adj[c]:
            r = assign.get(other)
            if r is not None:
                mask &= table[r]
        return mask


def _bits(mask: int) -> Any:
    r = 0
    while mask:
        if mask & 1:
            yield r
        mask >>= 1
        r += 1


def _union(table: list[int], mask: int) -> int:
    out = 0
    for r in _bits(mask):
        out |= table[r]
    return out


# -- the forced replay --------------------------------------------------------------------------
class Forced(BallState):
    """A replay that takes verdicts and unmasking cards from the seat's log, not from ranks."""

    forced: list[Verdict]
    invoker = EMPTY

    def _apply(self, seat: int, action: Action) -> None:
        self._legal = None  # the real game checked it; here the ranks are placeholders
        self._act(seat, action)

    def _result(self, a: int, d: int) -> Verdict:
        return self.forced.pop(0)

    def _pick_invoker(self, kind: str, action: Action) -> int:
        return self.invoker

    def _count_position(self) -> None:
        """Nothing: a sample's public positions are the real game's (`_public_past`), and
        hashing each turn's position on the way cost a third of a long replay."""


Node = tuple[BallState, Csp, int, int, int]  # a replay, its constraints, step, log, learned


class Plan:
    """One seat's replayed public story, built once per state (it needs no generator).

    Without hidden hand picks it is complete: ``template`` (the replay, ranks still open) and
    ``csp``; each sample draws ranks. Otherwise ``prefix`` is the replay up to the first pick
    (replay, constraints, history step, log and learn pointers); each sample goes on from there.
    """

    def __init__(self, steps: int, story: _Story) -> None:
        self.steps = steps  # the history length it was built at
        self.story = story
        self.template: BallState | None = None
        self.csp: Csp | None = None
        self.prefix: Node | None = None
        # The replays from one hand pick to the next, by the picks made (`_search_picks`).
        self.branches: dict[tuple[int, ...], Node | None] = {}


class _Story:
    """Everything the seat knows, read once from the real state, and the replay's progress."""

    def __init__(self, state: BallState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.rng: Any = None  # set for each sample that has hidden hand picks to choose
        self.history = state.history
        rank = state.rank
        # The seat's log (kinds and payloads), and the ranks it came to know, in order.
        self.log = [(k, d) for k, d, to in state._log_entries() if to is None or seat in to]
        learned = []
        node = state.learnlog
        while node is not None:
            node, s, cid = node
            if s == seat:
                learned.append(rank[cid])
        learned.reverse()
        self.learned = learned
        # The cards in the game and the ranks they share, per entourage; placeholder options.
        options = dict(state.options)
        options["first"] = state.first
        groups, pools = [], []
        if options["setup"] is None:
            for e in range(state.players):
                groups.append(list(range(e * CARDS, (e + 1) * CARDS)))
                pools.append(ALL)
            canonical = "-".join(RANK_TOKENS[r] for r in RANKS)
            options["deals"] = [canonical] * state.players
        else:
            specs = options["setup"]
            listed: list[list[int]] = [[] for _ in range(state.players)]
            for spec in specs:
                e, rest = spec.split(":", 1)
                listed[int(e)].append(TOKEN_RANKS[rest.split("@", 1)[0].lower()])
            tokens = [sorted(ranks) for ranks in listed]
            placeholder = []
            for spec in specs:
                e, rest = spec.split(":", 1)
                placeholder.append(f"{e}:{RANK_TOKENS[tokens[int(e)].pop()]}@{rest.split('@')[1]}")
            options["setup"] = placeholder
            for e in range(state.players):
                groups.append(list(range(e * CARDS, e * CARDS + len(listed[e]))))
                pools.append(sum(1 << r for r in listed[e]))
        self.options = options
        self.groups = groups
        self.pools = pools

    def start(self) -> tuple[BallState, Csp, int, int]:
        state = self.state
        rep = Forced(state.game, state.players, 0, dict(self.options))
        rep._start()
        rep.rank = list(rep.rank)  # type: ignore[assignment]
        csp = Csp(state.ncards, self.groups, self.pools)
        k = self._learn(rep, None, csp, 0)
        p = self._advance(rep, 0, 0)
        return rep, csp, p, k

    # -- one step -------------------------------------------------------------------------
    def step(
        self, rep: BallState, csp: Csp, i: int, p: int, k: int, pick: int | None = None
    ) -> tuple[int, int]:
        """Constrain, then play history step ``i`` on ``rep``; the new log and learn pointers."""
        actor, action = self.history[i]
        verb = action.verb
        if verb == "move":
            self._constrain_move(rep, csp, action)
        elif verb == "end":
            self._constrain_end(rep, csp, p)
        elif verb in VERBS_INVOKE:
            self._constrain_invoke(rep, csp, action, p)
        elif verb == "play" and pick is not None:
            action = PLAY[pick]
        mark, head = rep.log_length, rep.learnlog
        rep.apply(actor, action)
        k = self._learn(rep, head, csp, k)
        return self._advance(rep, mark, p), k

    def picks(self, rep: BallState, i: int, p: int) -> list[int] | None:
        """The hand cards another seat may have played at step ``i`` (None: not a hidden pick)."""
        actor, action = self.history[i]
        if action.verb != "play" or actor == self.seat:
            return None
        hand = rep.hand[rep.ent]
        kind, data = self.log[p]
        if kind != "play":
            raise DeadEnd
        suit = data["suit"]
        return [j for j, c in enumerate(hand) if rep.suits[c // CARDS] == suit]

    def _advance(self, rep: BallState, mark: int, p: int) -> int:
        """Move the log pointer over the entries the seat saw; they must be the same kinds."""
        seat, log = self.seat, self.log
        for kind, _, to in rep._log_entries(mark):
            if to is None or seat in to:
                if p >= len(log) or log[p][0] != kind:
                    raise DeadEnd
                p += 1
        return p

    def _learn(self, rep: BallState, head: Any, csp: Csp, k: int) -> int:
        """Every card the seat came to know in this step has the rank it saw then."""
        seat = self.seat
        new = []
        node = rep.learnlog
        while node is not head:
            node, s, cid = node
            if s == seat:
                new.append(cid)
        for cid in reversed(new):
            if k >= len(self.learned):
                raise DeadEnd
            csp.restrict(cid, 1 << self.learned[k])
            k += 1
        return k

    def _payload(self, p: int, kind: str, skip: int = 0) -> tuple[int, dict[str, Any]]:
        """The next entry of ``kind`` in the seat's log from ``p`` on (after ``skip`` of them)."""
        log = self.log
        for q in range(p, len(log)):
            if log[q][0] == kind:
                if skip == 0:
                    data = log[q][1]
                    return q, data if data.__class__ is dict else self.state._lazy_payload(data)
                skip -= 1
        raise DeadEnd

    def _constrain_move(self, rep: BallState, csp: Csp, action: Action) -> None:
        src, dst = str(action.args[0]), str(action.args[1])
        cid = rep._card_named(src)
        dom = csp.dom[cid]
        flags = rep.acts[cid]
        target = _place_index(rep, dst)
        ranks: list[int] = rep.rank  # type: ignore[assignment]
        true = ranks[cid]
        allowed = 0
        for rank, members in MOVE_GROUPS:
            if dom & members:
                ranks[cid] = rank
                if any(place == target for place, _ in rep._targets(cid, flags)):
                    allowed |= members
        ranks[cid] = true
        csp.restrict(cid, allowed)

    def _constrain_unbound(self, rep: BallState, csp: Csp) -> None:
        """No acting card was still bound to move: none that stayed is an even rank with an
        empty pip square (checked at `end`, and before an ability in the seed's order)."""
        board = rep.board
        for cid, flags in rep.acts.items():
            pos = rep.pos[cid]
            if flags & F_MUST and pos >= 0:
                stuck = 0
                for r in EVEN:
                    if any(board[d] == EMPTY for d in rep.moves[r].must[pos]):
                        stuck |= 1 << r
                if stuck:
                    csp.restrict(cid, ~stuck)

    def _constrain_end(self, rep: BallState, csp: Csp, p: int) -> None:
        self._constrain_unbound(rep, csp)
        forced = []
        for n, (a, d, _) in enumerate(rep.pending):
            _, data = self._payload(p, "verdict", n)
            want = Verdict(data["winner"], "attacker" in data, "defender" in data)
            am, dm = not rep.up[a], not rep.up[d]
            allowed = {
                (ra, rd)
                for ra in _bits(csp.dom[a])
                for rd in _bits(csp.dom[d])
                if VERDICTS[ra][rd][am][dm] == want
            }
            csp.pair(a, d, allowed)
            forced.append(want)
        rep.forced = forced  # type: ignore[attr-defined]

    def _constrain_invoke(self, rep: BallState, csp: Csp, action: Action, p: int) -> None:
        if rep.options["abilities"] != "interleaved":
            self._constrain_unbound(rep, csp)  # abilities wait for the cards bound to move
        _, data = self._payload(p, "unmask")
        square = data["square"]
        if data.get("attacking"):
            invoker = next(a for a, d, _ in rep.pending if rep._name_of(d) == square)
        else:
            invoker = rep._card_named(square)
        rank = INVOKE_RANK[action.verb]
        csp.restrict(invoker, 1 << rank)
        ranks: list[int] = rep.rank  # type: ignore[assignment]
        # Acting cards before it could not have done the same (the first one that can does).
        for cid, flags in rep.acts.items():
            if cid == invoker:
                break
            if flags & F_INV and not rep.up[cid] and csp.dom[cid] >> rank & 1:
                true = ranks[cid]
                ranks[cid] = rank
                could = action in rep._ability_list(cid)
                ranks[cid] = true
                if could:
                    csp.restrict(cid, ~(1 << rank))
        rep.invoker = invoker  # type: ignore[attr-defined]


def _place_index(rep: BallState, name: str) -> int:
    geo = rep.geo
    if name in geo.index:
        return geo.index[name]
    if name == "ball":
        return rep.names.ball
    return geo.size + int(name[4:])


# -- building plans and drawing samples ---------------------------------------------------------
def _until_pick(story: _Story, rep: BallState, csp: Csp, i: int, p: int, k: int) -> Any:
    """Replay from step ``i`` to the next hidden hand pick with a real choice (or the end)."""
    history = story.history
    while i < len(history):
        picks = story.picks(rep, i, p)
        if picks == []:
            raise DeadEnd  # no card of the hand has the back the seat saw
        if picks is not None and len(picks) > 1:
            break
        p, k = story.step(rep, csp, i, p, k, None if picks is None else picks[0])
        i += 1
    else:
        if p != len(story.log) or k != len(story.learned):
            raise DeadEnd
    return i, p, k


def _search_picks(
    story: _Story,
    branches: dict[tuple[int, ...], Node | None],
    path: tuple[int, ...],
    node: Node,
    budget: int,
    open_: list[bool],
) -> Any:
    """Depth-first over the hidden hand picks after ``path`` (the picks made to reach
    ``node``, which stands at the next pick or at the end of the story): (template, ranks).

    Each complete branch's ranks get at most ``budget`` search nodes (`Csp.solve`): a wrong
    pick can leave constraints with no solution that only a whole search proves, and the
    branch of the true picks, which has one, is better looked for first in the others. A
    branch left open sets ``open_[0]``, so that the caller can try again with more.
    ``branches`` keeps each replay from a pick to the next (None: a dead end): the replay
    does not depend on the generator, so the samples of one decision share them."""
    rep, csp, i, p, _ = node
    if i == len(story.history):
        try:
            ranks = csp.solve(story.rng, budget)
        except OutOfBudget:
            open_[0] = True
            return None
        return None if ranks is None else (rep, ranks)
    picks = story.picks(rep, i, p)
    assert picks is not None
    story.rng.shuffle(picks)
    for pick in picks:
        key = (*path, pick)
        if key in branches:
            child = branches[key]
        else:
            child = _after_pick(story, node, pick)
            if len(branches) < BRANCHES_KEPT:
                branches[key] = child
        if child is None:
            continue
        found = _search_picks(story, branches, key, child, budget, open_)
        if found is not None:
            return found
    return None


def _after_pick(story: _Story, node: Node, pick: int) -> Node | None:
    """The replay on from ``node``'s pick, made ``pick``, to the next pick or the end of the
    story (there a template: the class and the rank table of a finished game), or None."""
    rep, csp, i, p, k = node
    branch, bcsp = rep.clone(), csp.copy()
    try:
        p, k = story.step(branch, bcsp, i, p, k, pick)
        i, p, k = _until_pick(story, branch, bcsp, i + 1, p, k)
    except DeadEnd:
        return None
    if i == len(story.history):
        _finish_template(branch)
    return branch, bcsp, i, p, k


def _finish_template(rep: BallState) -> None:
    """A finished replay becomes the template samples are cloned from."""
    rep.__class__ = BallState
    rep.rank = tuple(rep.rank)


BRANCHES_KEPT = 4096  # the most replays between hand picks a plan keeps for its samples
PICK_BUDGET = 4096  # `determinize`'s first budget of search nodes per branch of hand picks


def plan(state: BallState, seat: int) -> Plan:
    """The seat's plan, kept on the state until it changes."""
    steps = state.actions_played
    cached = state._plans.get(seat)
    if cached is not None and cached.steps == steps:
        return cached
    story = _Story(state, seat)
    rep, csp, p, k = story.start()
    made = Plan(steps, story)
    try:
        i, p, k = _until_pick(story, rep, csp, 0, p, k)
    except DeadEnd:  # impossible: the true deal satisfies every constraint met so far
        raise AssertionError(
            f"masquerade-ball: seat {seat}'s story has no consistent deal"
        ) from None
    if i == len(story.history):
        _finish_template(rep)
        made.template, made.csp = rep, csp
    else:
        made.prefix = (rep, csp, i, p, k)
    state._plans[seat] = made
    return made


def determinize(state: BallState, seat: int, rng: Any) -> BallState:
    """A full game consistent with everything ``seat`` has seen (see the module docstring)."""
    made = plan(state, seat)
    if made.template is not None:
        assert made.csp is not None
        ranks = made.csp.solve(rng)
        # Impossible: the true deal is a solution (no hidden pick can have misled the replay).
        assert ranks is not None, "masquerade-ball: a complete plan without a solution"
        return _public_past(_sample(made.template, ranks, rng), state)
    assert made.prefix is not None
    story = made.story
    story.rng = rng
    budget = PICK_BUDGET
    while True:
        open_ = [False]
        found = _search_picks(story, made.branches, (), made.prefix, budget, open_)
        # Impossible to find nothing with no branch left open: the true picks and deal are
        # one of the branches searched.
        assert found is not None or open_[0], (
            f"masquerade-ball: no sample is consistent with seat {seat}'s view"
        )
        if found is not None:
            break
        budget *= 8
    template, ranks = found
    return _public_past(_sample(template, ranks, rng), state)


def _public_past(sample: BallState, state: BallState) -> BallState:
    """The public positions the turns started from are the real ones (the replay ran on
    placeholder ranks): they are public, the same in every sample."""
    sample.positions = state.positions.copy()
    sample.repeats, sample.repetitions = state.repeats, state.repetitions
    return sample


def _sample(template: BallState, ranks: list[int], rng: Any) -> BallState:
    sample = template.clone()
    options = dict(template.options)
    players = template.players
    if options["setup"] is None:
        out = list(ranks)
        options["deals"] = [
            "-".join(RANK_TOKENS[r] for r in out[e * CARDS : (e + 1) * CARDS])
            for e in range(players)
        ]
    else:
        used = [0] * players
        specs = []
        for spec in options["setup"]:
            who, rest = spec.split(":", 1)
            e = int(who)
            cid = e * CARDS + used[e]
            used[e] += 1
            specs.append(f"{e}:{RANK_TOKENS[ranks[cid]]}@{rest.split('@', 1)[1]}")
        options["setup"] = specs
        # Cards the set-up left out keep the ranks the set-up gives them.
        for e in range(players):
            for c in range(e * CARDS + used[e], (e + 1) * CARDS):
                ranks[c] = template.rank[c]
    sample.rank = tuple(ranks)
    sample.options = options
    seed = rng.randrange(1 << 62)
    sample.seed = seed
    sample.rng = Rng(seed)
    return sample


__all__ = ["Csp", "DeadEnd", "OutOfBudget", "Plan", "determinize", "plan"]
