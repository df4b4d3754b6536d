"""Information-Set Monte Carlo Tree Search (single-observer ISMCTS, Cowling et al. 2012).

The bot never sees the true state. Each iteration draws a determinization — a complete state
consistent with everything its seat has observed, from ``State.determinize`` through the
``sampler`` the driver hands over — then descends one shared tree, choosing among the actions
legal in that determinization by UCB with availability counts, expands one node, plays on with
a rollout policy and backs the result up. The move played is the most visited root child.
Given an iteration budget and the same rng, the choice is deterministic.

The search itself knows no game. What it knows of a game comes from that game's heuristic
module (`intrigue.bots.heuristic.search_hooks`), all optional:

* a **rollout policy** (by default the game's heuristic policy, fed the mover's view of the
  determinization): rollouts play it, with a uniformly random move instead with probability
  ``epsilon``, and the tree tries its move first at every node and favours it a little
  (``bias``, a progressive bias that fades with visits);
* an **evaluation** ``evaluate(state) -> per-seat values in [-1, 1]`` of a determinization:
  rollouts stop after ``depth`` moves and score the position with it instead of playing to the
  end (and with ``opponents=policy`` the descent plays at most ``STRETCH`` depths of other
  seats' moves in a row before the rollout takes over: a seat out of the game has no decision
  left to stop it);
* a **beaten** test ``beaten(state, seat)``: with a rollout depth, a line stops, in the descent
  and in the rollout, as soon as the searching seat is out of the game for good, and scores
  it lost (-1) there: whatever the others play next cannot change that;
* **settings** (``SEARCH``): the game's defaults for the parameters below.

Two more parameters shape the search:

* ``opponents``: ``tree`` puts every seat's decisions in the tree, each seat maximising its
  own result (the classic single-observer algorithm); ``policy`` keeps only the searching
  seat's decisions in the tree and lets the other seats play the rollout policy from *their*
  view of the sample. The tree's nodes for another seat are keyed by moves the searching seat
  may never see (a simultaneous target, a hidden pick) and pool samples in which that seat has
  different secrets; the policy instead answers from the secrets of each sample and never sees
  a simultaneous choice it should not know.
* ``margin``: play the policy's own move for the real view unless the most visited move beats
  it by more than ``margin`` standard errors of their mean results (0: always the most
  visited) — for games where most moves look alike to the search and noise would decide.
* ``contempt``: an iteration whose play comes round to a public position seen before (in
  games that count them, `State.repetitions`) scores that much less for every seat, on the
  [-1, 1] scale of results: a loop heads for the cap's draw, and a way out of about the same
  worth is preferred.
* ``width``: at the searching seat's decisions the tree considers only the policy's first
  ``width`` moves (the game's ``shortlist`` hook ranks them; 0: every legal move). With
  20-40 legal moves and a few hundred iterations every move gets a handful of noisy samples;
  a shortlist spends them on the moves worth comparing.
* ``widen``: with a ``width``, the moves considered at one of our decisions grow with the
  visits it has had, ``width + floor(widen * sqrt(visits))`` of the shortlist (progressive
  widening): a node visited often comes to compare every move, one visited rarely the
  policy's few best. 0: ``width`` moves always.
* ``reuse``: each determinization serves this many iterations, each on its own copy with a
  fresh seed for the future chance. Every iteration still plays a sample drawn by
  ``State.determinize`` (so exactly as likely a world as before, and nothing the seat cannot
  see); only consecutive iterations share the sampled hidden past. A sample costs a replay of
  the game (hundreds of microseconds late in a game), a copy a few microseconds.

A search bounded by iterations (not by ``seconds``) stops as soon as the most visited root move
leads every other by more than the iterations left (``early``): the rest could not change the
move played, so the decision is the same, sooner. Not with a ``margin`` (its test reads the
means, which more iterations would move), nor with ``early=0`` (training reads the played
move's value, `ISMCTSBot.last_value`, after the whole budget).

``rollout=random`` gives the plain algorithm: uniformly random rollouts to the end, no bias,
every seat in the tree.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from intrigue.engine import Action, Rng, State

from .base import RandomSource
from .heuristic import SearchHooks, policy_for, search_hooks

Sampler = Callable[[Any], State]
_UNSET = object()
STRETCH = 4  # with a rollout depth, the descent plays at most this many depths of others' moves
SETTLE_EVERY = 4  # iterations between two looks at whether the root's move is settled (`early`)


class _Node:
    """Statistics of one action edge, from the point of view of the seat that played it."""

    __slots__ = ("avail", "children", "seat", "squares", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.squares = 0.0
        self.children: dict[Action, _Node] = {}

    def spread(self) -> float:
        """The variance of the mean of this edge's results (large while barely visited)."""
        n = self.visits
        if n < 2:
            return 1.0
        mean = self.total / n
        return max(self.squares / n - mean * mean, 0.0) / n


class ISMCTSBot:
    """Search over determinizations; ``iterations`` or ``seconds`` bounds each decision, and
    ``cap`` (seconds of wall clock, unset: none) stops a search early that would take longer:
    a server's guard for people waiting on a slow or busy machine (a capped decision depends
    on the machine's speed, so the lab leaves it unset and stays reproducible).

    ``epsilon``, ``depth``, ``bias``, ``opponents``, ``margin``, ``reuse``, ``contempt`` and
    ``width`` left unset take the game's defaults (its heuristic module's ``SEARCH``), else
    0.1, 0 (no cut-off), 0.0, ``tree``, 0.0, 1, 0.2 and 0 (every move). ``early`` (default 1)
    ends a search once its move is settled (see the module docstring); 0 runs every iteration.
    ``belief`` (default 1) draws the samples by the game's ``resample`` hook, if it has one (see
    `intrigue.bots.heuristic`); 0 searches ``State.determinize``'s samples as they come.
    All settings can follow the bot's name: ``ismcts:iterations=200:opponents=tree``.
    """

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 400,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout: str = "heuristic",
        epsilon: float | None = None,
        depth: int | None = None,
        bias: float | None = None,
        opponents: str | None = None,
        margin: float | None = None,
        reuse: int | None = None,
        contempt: float | None = None,
        width: int | None = None,
        widen: float | None = None,
        rollout_limit: int = 1000,
        cap: float | None = None,
        early: int = 1,
        belief: int = 1,
    ) -> None:
        if rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout must be 'heuristic' or 'random', not {rollout!r}")
        if opponents not in (None, "tree", "policy"):
            raise ValueError(f"opponents must be 'tree' or 'policy', not {opponents!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout
        self.epsilon = epsilon
        self.depth = depth
        self.bias = bias
        self.opponents = opponents
        self.margin = margin
        if reuse is not None and (not isinstance(reuse, int) or reuse < 1):
            raise ValueError(f"reuse must be a whole number of at least 1, not {reuse!r}")
        self.reuse = reuse
        self.contempt = contempt
        if width is not None and (not isinstance(width, int) or width < 0):
            raise ValueError(f"width must be a whole number of at least 0, not {width!r}")
        self.width = width
        if widen is not None and not widen >= 0:
            raise ValueError(f"widen must be a number of at least 0, not {widen!r}")
        self.widen = widen
        self.rollout_limit = rollout_limit
        if cap is not None and not cap > 0:
            raise ValueError(f"cap must be a number of seconds above 0, not {cap!r}")
        self.cap = cap
        if early not in (0, 1):
            raise ValueError(f"early must be 1 (stop once the move is settled) or 0, not {early!r}")
        self.early = bool(early)
        if belief not in (0, 1):
            raise ValueError(f"belief must be 1 (the game's resample hook) or 0, not {belief!r}")
        self.belief = bool(belief)
        self.last_iterations = 0
        self.last_value: float | None = None

    def __repr__(self) -> str:
        return (
            f"ISMCTSBot(iterations={self.iterations}, seconds={self.seconds},"
            f" rollout={self.rollout!r})"
        )

    def choose(
        self,
        view: dict[str, Any],
        legal_actions: list[Action],
        rng: RandomSource,
        sampler: Sampler | None = None,
    ) -> Action:
        if not legal_actions:
            raise ValueError("a bot needs at least one legal action to choose from")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if sampler is None:
            raise ValueError("ISMCTS needs a sampler of determinizations for its seat")
        started = time.perf_counter()
        # The C-coded generator: rollouts draw hundreds of numbers per iteration.
        search_rng = random.Random(rng.randrange(1 << 62))
        search = _Search(self, self.hooks(view["game"]), view["seat"], search_rng)
        sampler = search.believing(sampler)
        default = None
        if search.margin > 0:
            policy = policy_for(view["game"])
            default = None if policy is None else policy(view, legal_actions, search_rng)
        # The earlier of the time budget and the cap (neither: iterations alone bound it).
        ends = [started + t for t in (self.seconds, self.cap) if t is not None]
        stop = min(ends, default=math.inf)
        done, reuse = 0, search.reuse
        # Stopping once the move is settled changes nothing only where the most visits decide.
        early = self.early and self.seconds is None and search.margin <= 0
        sample = None
        while self._keep_going(done, stop):
            if reuse == 1:
                search.iterate(sampler(search_rng))
            else:
                if done % reuse == 0:
                    sample = sampler(search_rng)
                assert sample is not None
                search.iterate(_fresh_copy(sample, search_rng))
            done += 1
            settling = early and done % SETTLE_EVERY == 0
            if settling and search.settled(legal_actions, self.iterations - done):
                break
        self.last_iterations = done
        action = search.decide(legal_actions, default)
        chosen = search.root.children.get(action)
        # The search's estimate of the move played, in [0, 1] (training targets read it).
        self.last_value = chosen.total / chosen.visits if chosen and chosen.visits else None
        return action

    def _keep_going(self, done: int, stop: float) -> bool:
        """Another iteration? Until ``iterations`` are done (unless a ``seconds`` budget
        replaces them), and not past ``stop`` (the first iteration always runs)."""
        if self.seconds is None and done >= self.iterations:
            return False
        return done == 0 or time.perf_counter() < stop

    def hooks(self, game_id: str) -> SearchHooks:
        """What the search knows of the game (the `expert` level swaps the evaluation)."""
        return search_hooks(game_id)


def cap_thinking(bot: Any, seconds: float) -> None:
    """Stop ``bot``'s searches after ``seconds`` (`ISMCTSBot.cap`) unless it has a tighter cap
    or a time budget (``seconds``) of its own; bots that do not search are left as they are
    (0: no cap)."""
    if seconds <= 0 or not isinstance(bot, ISMCTSBot) or bot.seconds is not None:
        return
    if bot.cap is None or bot.cap > seconds:
        bot.cap = seconds


def _fresh_copy(sample: State, rng: random.Random) -> State:
    """A copy of ``sample`` whose future chance comes from a new seed (all chance a game draws
    comes from its state's generator)."""
    world = sample.clone()
    world.rng = Rng(rng.randrange(1 << 62))
    return world


class _Search:
    """One decision's tree and the settings it runs with."""

    def __init__(self, bot: ISMCTSBot, hooks: SearchHooks, seat: int, rng: random.Random) -> None:
        guided = bot.rollout == "heuristic" and hooks.policy is not None
        settings = hooks.settings

        def pick(name: str, value: Any, default: Any) -> Any:
            return value if value is not None else settings.get(name, default)

        self.root = _Node(-1)
        self.seat = seat
        self.rng = rng
        self.c = bot.exploration
        self.policy = hooks.policy if guided else None
        self.evaluate = hooks.evaluate if guided else None
        self.epsilon = pick("epsilon", bot.epsilon, 0.1)
        self.depth = pick("depth", bot.depth, 0) if self.evaluate is not None else 0
        # The most moves of other seats in a row the tree's descent plays (`_select_and_expand`).
        self.stretch = STRETCH * self.depth if self.depth else -1
        # With a rollout depth, a line stops once our seat is out for good and scores it lost:
        # playing on could not change our result, only cost time.
        self.beaten = hooks.beaten if self.depth else None
        self.bias = pick("bias", bot.bias, 0.0) if guided else 0.0
        opponents = pick("opponents", bot.opponents, "tree")
        self.margin = pick("margin", bot.margin, 0.0) if guided else 0.0
        self.modelled = guided and opponents == "policy"
        self.reuse = int(pick("reuse", bot.reuse, 1))
        self.contempt = float(pick("contempt", bot.contempt, 0.2))
        believes = guided and bot.belief
        self.resample = hooks.resample if believes else None
        self.width = int(pick("width", bot.width, 0)) if guided else 0
        self.shortlist = hooks.shortlist if self.width and self.bias > 0.0 else None
        self.widen = float(pick("widen", bot.widen, 0.0))
        self.passes = 0  # iterations so far: the root's visits
        self.root_hint: Any = _UNSET
        self.limit = bot.rollout_limit

    def iterate(self, state: State) -> None:
        self.passes += 1
        loops = state.repetitions
        path = self._select_and_expand(state)
        returns = self._rollout(state)
        if state.repetitions > loops and self.contempt:
            # The play went round to a position seen before: worse for every seat than its
            # value, so that a way out of equal worth is preferred.
            returns = [r - self.contempt for r in returns]
        for node in path:
            result = (returns[node.seat] + 1.0) * 0.5
            node.visits += 1
            node.total += result
            node.squares += result * result

    def believing(self, sampler: Sampler) -> Sampler:
        """``sampler``, or the samples drawn by the game's ``resample`` hook (built from one
        of ``sampler``'s), so that worlds that explain the public play badly are searched
        less often."""
        if self.resample is not None:
            return self.resample(sampler(self.rng), self.seat, self.rng)
        return sampler

    def settled(self, legal: list[Action], left: int) -> bool:
        """Whether the most visited of the ``legal`` root moves leads every other by more than
        ``left`` visits: no ``left`` more iterations could change what `decide` plays."""
        children = self.root.children
        first = second = 0
        for action in legal:
            child = children.get(action)
            if child is None:
                continue
            visits = child.visits
            if visits > first:
                first, second = visits, first
            elif visits > second:
                second = visits
        return first - second > left

    def decide(self, legal: list[Action], default: Action | None) -> Action:
        """The most visited root action (ties: the first legal one), unless ``default`` (the
        policy's own move) is not clearly worse: by less than ``margin`` standard errors."""
        children = self.root.children
        best = max(legal, key=lambda a: children[a].visits if a in children else -1)
        if default is None or default == best or default not in children or self.margin <= 0:
            return best
        top, ours = children[best], children[default]
        gain = top.total / top.visits - ours.total / ours.visits
        return best if gain > self.margin * math.sqrt(top.spread() + ours.spread()) else default

    def _hint(
        self, state: State, mover: int, legal: list[Action], visits: int
    ) -> tuple[Action | None, list[Action]]:
        """The rollout policy's move here, which the tree tries first and favours, and the
        moves the tree considers (with a shortlist the policy's first ``width``, more with
        ``widen`` as ``visits`` grow; else all)."""
        hint, ranked = self._ranking(state, mover, legal)
        return hint, self._considered(ranked, visits)

    def _ranking(
        self, state: State, mover: int, legal: list[Action]
    ) -> tuple[Action | None, list[Action]]:
        """The policy's move and the legal moves, ranked by the shortlist if there is one."""
        if self.policy is None or self.bias <= 0.0 or len(legal) < 2:
            return None, legal
        if self.shortlist is not None and len(legal) > self.width:
            ranked = self.shortlist(state, mover, legal, self.rng)
            return ranked[0], ranked
        return self.policy(state, mover, legal, self.rng), legal

    def _considered(self, ranked: list[Action], visits: int) -> list[Action]:
        """The first moves of a shortlist's ``ranked`` that the tree compares after ``visits``."""
        if self.shortlist is None or len(ranked) <= self.width:
            return ranked
        return ranked[: self.width + int(self.widen * math.sqrt(visits))]

    def _select_and_expand(self, state: State) -> list[_Node]:
        path: list[_Node] = []
        node = self.root
        mover = self.seat  # at the root it is our decision even in a simultaneous phase
        c, bias, rng = self.c, self.bias, self.rng
        theirs = 0  # other seats' moves since our last decision
        while not state.is_over:
            if mover != self.seat and self.modelled:
                # Other seats decide by the rollout policy from what they know in this sample;
                # the tree holds our own decisions only.
                if theirs == self.stretch or self._out(state):
                    # Our seat has had no decision for longer than a rollout's horizon, or is
                    # out of the game (a four-player ball: conquered, the others playing on to
                    # the end); the rollout takes over from here (and stops at once if out).
                    return path
                self._play(state, mover)
                theirs += 1
                if not state.is_over:
                    mover = state.to_move[0]
                continue
            theirs = 0
            legal = state.legal_actions(mover)
            if node is self.root:
                # Our own move at the root reads only our view, the same in every sample.
                if self.root_hint is _UNSET:
                    self.root_hint = self._ranking(state, mover, legal)
                hint, ranked = self.root_hint
                legal = self._considered(ranked, self.passes - 1)
            else:
                hint, legal = self._hint(state, mover, legal, node.visits)
            children = node.children
            untried = []
            best_action, best, best_score = None, None, -1.0
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                    continue
                child.avail += 1
                if untried:
                    continue
                n = child.visits
                score = child.total / n + c * math.sqrt(math.log(child.avail) / n)
                if action == hint:
                    score += bias / (n + 1)
                if score > best_score:
                    best_action, best, best_score = action, child, score
            if untried:
                action = hint if hint in untried else untried[rng.randrange(len(untried))]
                child = children[action] = _Node(mover)
                state.apply(mover, action)
                path.append(child)
                return path
            assert best is not None and best_action is not None
            state.apply(mover, best_action)
            path.append(best)
            node = best
            if not state.is_over:
                mover = state.to_move[0]
        return path

    def _play(self, state: State, mover: int) -> None:
        """One move of the rollout policy (uniformly random instead with probability epsilon)."""
        legal = state.legal_actions(mover)
        rng = self.rng
        if self.policy is None or len(legal) == 1 or rng.random() < self.epsilon:
            action = legal[rng.randrange(len(legal))]
        else:
            action = self.policy(state, mover, legal, rng)
        state.apply(mover, action)

    def _out(self, state: State) -> bool:
        """Whether our seat is out of the game for good in this line (the `beaten` hook)."""
        return self.beaten is not None and self.beaten(state, self.seat)

    def _rollout(self, state: State) -> tuple[float, ...] | list[float]:
        depth = self.depth or self.limit
        for _ in range(min(depth, self.limit)):
            if state.is_over or self._out(state):
                break
            self._play(state, state.to_move[0])
        outcome = state.outcome
        if outcome is not None:
            return outcome.returns
        if self.evaluate is not None:
            values = self.evaluate(state)
            if self._out(state):
                values = [*values]
                values[self.seat] = -1.0  # out for good: lost, whatever the evaluation reads
            return values
        return (0.0,) * state.players
