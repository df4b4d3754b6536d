"""A game's rollout policy against another tree's, in one process: faster, and the same moves?

    git archive REV src | tar -x -C /tmp/old
    .venv/bin/python bench/policy_ab.py shadows-over-japan /tmp/old/src --players 3

A search spends most of its time in its game's rollout policy (the heuristic asked at every
move of a rollout: docs/performance.md, *ISMCTS*), so a speed-up of the heuristic is best
measured there. On the shared machines of this workplace two runs of the same code a minute
apart differ by a fifth, which swamps such a change when the versions run one after the
other; here both run in the same process over the same positions, taking turns (which goes
first alternates), and the ratio of each round's times carries the comparison: an A/A run
(the same tree on both sides) gives a median within a few percent of 1.

The positions are those of seeded games played a quarter at random and otherwise by the
policy itself, and each is asked again with the same generator on both sides: the digests of
the moves chosen must agree, or the change altered play. The other tree's heuristic module is
loaded beside this one's (the rest of the package, the rules included, is this tree's). CPU
time (``process_time``); run by hand, figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import random
import statistics
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import intrigue
from intrigue.engine import Rng


def heuristic_module(game_id: str, src: str | None = None) -> ModuleType:
    """The game's heuristic module: this tree's, or the file of the same name under ``src``."""
    name = game_id.replace("-", "_")
    if src is None:
        return importlib.import_module(f"intrigue.bots.heuristics.{name}")
    path = Path(src) / "intrigue" / "bots" / "heuristics" / f"{name}.py"
    # A name inside the package, so that the module's relative imports resolve to this tree.
    spec = importlib.util.spec_from_file_location(f"intrigue.bots.heuristics._other_{name}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"no heuristic module at {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def positions(game_id: str, players: int, games: int, policy: Any) -> list[tuple[Any, int, list]]:
    """(state, seat, legal moves) at every step of ``games`` seeded games."""
    game = intrigue.load(game_id)
    spots = []
    for seed in range(games):
        state = game.new(players, seed)
        rng = random.Random(seed)
        while not state.is_over and state.actions_played < 300:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            spots.append((state.clone(), seat, legal))
            move = policy(state, seat, legal, Rng(seed)) if rng.random() >= 0.25 else None
            state.apply(seat, move if move is not None else rng.choice(legal))
    return spots


def timed(policy: Any, spots: list[tuple[Any, int, list]]) -> tuple[float, str]:
    """CPU seconds to ask ``policy`` at every position, and a digest of its moves."""
    start = time.process_time()
    moves = [str(policy(st, seat, legal, Rng(i))) for i, (st, seat, legal) in enumerate(spots)]
    return time.process_time() - start, hashlib.sha256("\n".join(moves).encode()).hexdigest()[:8]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", help="game id")
    parser.add_argument("other", help="the src directory of the other tree")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=12, help="seeded games of positions")
    parser.add_argument("--rounds", type=int, default=20, help="rounds (both sides in each)")
    args = parser.parse_args()
    this, other = heuristic_module(args.game), heuristic_module(args.game, args.other)
    spots = positions(args.game, args.players, args.games, this.rollout_policy)
    times: dict[str, list[float]] = {"this": [], "other": []}
    digests = {}
    modules = {"this": this, "other": other}
    for round_ in range(args.rounds):
        for side in ("this", "other") if round_ % 2 else ("other", "this"):
            seconds, digests[side] = timed(modules[side].rollout_policy, spots)
            times[side].append(seconds)
    ratios = [a / b for a, b in zip(times["this"], times["other"], strict=True)]
    per_move = {side: min(t) / len(spots) * 1e6 for side, t in times.items()}
    print(f"{args.game}, {args.players} players: {len(spots)} positions, {args.rounds} rounds")
    print(f"  this   {per_move['this']:7.1f} us a move (best round), moves {digests['this']}")
    print(f"  other  {per_move['other']:7.1f} us a move (best round), moves {digests['other']}")
    same = "the same moves" if digests["this"] == digests["other"] else "DIFFERENT MOVES"
    print(f"  this / other: median {statistics.median(ratios):.3f} of the rounds' times; {same}")


if __name__ == "__main__":
    main()
