"""What a seat can still believe: the ranks it has not seen, and which hand card was played.

The only chance in the game is the deal (the ranks of the face-down cards) and the first
player, which is public. Everything after is the players' actions, which are public except for
which card of a hand of several was played. So a sample is: keep every rank ``seat`` has ever
seen (its ``ever`` mask, which includes everything revealed), deal the remaining ranks of each
entourage at random among the cards it has not seen, pick the hidden hand cards at random, and
replay the whole game on that deal. The replay is accepted only if the game stays legal and
``seat`` sees exactly the same log and view; moves, must-move obligations and verdict outcomes
constrain the unseen ranks, so a proposal is first filtered by the cheap per-card constraints
collected from the public log (`_constraints`) before the full replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from intrigue.engine import IllegalAction

from .actions import PLAY
from .board import RANK_TOKENS, RANKS

if TYPE_CHECKING:
    from .rules import BallState

ATTEMPTS = 400


def determinize(state: BallState, seat: int, rng: Any) -> BallState:
    """A full game consistent with everything ``seat`` has seen (see the module docstring)."""
    from .rules import CARDS, OUT

    target_events = state.events(seat)
    target_view = state.view(seat)
    fixed = state.ever[seat]
    start_out = _start_out(state)
    free_by_ent = []
    for e in range(state.players):
        cids = [
            c
            for c in range(e * CARDS, (e + 1) * CARDS)
            if not fixed >> c & 1 and c not in start_out
        ]
        free_by_ent.append(cids)
    masks = _move_masks(state, seat)
    for attempt in range(ATTEMPTS):
        ranks = list(state.rank)
        for cids in free_by_ent:
            pool = [state.rank[c] for c in cids]
            picked = _match(cids, pool, masks, rng) if attempt % 4 != 3 else None
            if picked is None:  # now and then (or when stuck) an unconstrained proposal
                rng.shuffle(pool)
                picked = dict(zip(cids, pool, strict=True))
            for c, r in picked.items():
                ranks[c] = r
        sample = _replay(state, seat, ranks, rng, target_events)
        if sample is not None and sample.view(seat) == target_view:
            return sample
    # Pathological: no consistent sample found in time; fall back to the true deal (reseeded).
    _ = OUT
    sample = _replay(state, seat, list(state.rank), rng, target_events, keep_picks=True)
    assert sample is not None
    return sample


def _move_masks(state: BallState, seat: int) -> dict[int, set[int]]:
    """Ranks each card could have, judging by how the other seats moved it (and left it).

    Replays the game and, at every move or `end` of another seat, keeps the ranks for which the
    move was legal (or for which standing still was allowed). Cards followed through hidden hand
    picks may be misattributed; that only costs proposals, since every sample is verified.
    """
    from .rules import EVEN, F_MUST

    replay = state.game.new(state.players, state.seed, **state.options)
    masks: dict[int, set[int]] = {}
    for actor, action in state.history:
        if actor != seat and action.verb in ("move", "swap"):
            cid = replay._card_named(str(action.args[0]))
            flags = replay.acts[cid]
            dst = str(action.args[1])
            ok = set()
            for r in set(RANKS):
                replay.rank = _with(replay.rank, cid, r)
                places = {replay.names.places[p] for p, _ in replay._targets(cid, flags)}
                if dst in places:
                    ok.add(r)
            replay.rank = state.rank
            masks[cid] = masks.get(cid, set(RANKS)) & ok
        elif actor != seat and action.verb == "end":
            for cid, flags in replay.acts.items():
                pos = replay.pos[cid]
                if flags & F_MUST and pos >= 0:
                    empty = [
                        r
                        for r in EVEN
                        if any(replay.board[d] < 0 for d in replay.moves[r].must[pos])
                    ]
                    masks[cid] = masks.get(cid, set(RANKS)) - set(empty)
        replay.apply(actor, action)
    return masks


def _with(ranks: tuple[int, ...], cid: int, rank: int) -> tuple[int, ...]:
    return (*ranks[:cid], rank, *ranks[cid + 1 :])


def _match(
    cids: list[int], pool: list[int], masks: dict[int, set[int]], rng: Any
) -> dict[int, int] | None:
    """A random assignment of ``pool`` to ``cids`` within ``masks`` (None if none was found)."""
    order = sorted(cids, key=lambda c: (len(masks.get(c, pool)), rng.random()))
    for _ in range(8):
        left = list(pool)
        out: dict[int, int] = {}
        for c in order:
            allowed = [r for r in left if r in masks.get(c, left)]
            if not allowed:
                break
            r = allowed[rng.randrange(len(allowed))]
            out[c] = r
            left.remove(r)
        else:
            return out
    return None


def _start_out(state: BallState) -> set[int]:
    """Cards a `setup` left out of the game: their ranks are part of the public set-up."""
    from .rules import CARDS

    if state.options["setup"] is None:
        return set()
    listed = [0] * state.players
    for spec in state.options["setup"]:
        listed[int(spec.split(":", 1)[0])] += 1
    return {e * CARDS + k for e in range(state.players) for k in range(listed[e], CARDS)}


def _options(state: BallState, ranks: list[int]) -> dict[str, Any]:
    from .rules import CARDS

    options = dict(state.options)
    options["first"] = state.first
    if state.options["setup"] is None:
        options["deals"] = [
            "-".join(RANK_TOKENS[r] for r in ranks[e * CARDS : (e + 1) * CARDS])
            for e in range(state.players)
        ]
    else:
        used = [0] * state.players
        specs = []
        for spec in state.options["setup"]:
            who, rest = spec.split(":", 1)
            e = int(who)
            _, place = rest.split("@", 1)
            specs.append(f"{e}:{RANK_TOKENS[ranks[e * CARDS + used[e]]]}@{place}")
            used[e] += 1
        options["setup"] = specs
    return options


def _replay(
    state: BallState,
    seat: int,
    ranks: list[int],
    rng: Any,
    target: list[dict[str, Any]],
    keep_picks: bool = False,
) -> BallState | None:
    """Replay the game on ``ranks``; None as soon as ``seat`` would see something different."""
    sample = state.game.new(state.players, rng.randrange(1 << 62), **_options(state, ranks))
    assert isinstance(sample, type(state))
    seen = len(sample.events(seat))
    if sample.events(seat) != target[:seen]:
        return None
    log = sample.log_length
    for actor, action in state.history:
        if action.verb == "play" and actor != seat and not keep_picks:
            size = len(sample.hand[sample.ent])
            if size > 1:
                # Which card of the hand was played is hidden from ``seat``: pick afresh.
                action = PLAY[rng.randrange(size)]
        try:
            sample.apply(actor, action)
        except IllegalAction:
            return None
        new = sample.events(seat, since=log)
        log = sample.log_length
        if new != target[seen : seen + len(new)]:
            return None
        seen += len(new)
    return sample if seen == len(target) else None


__all__ = ["RANKS", "determinize"]
