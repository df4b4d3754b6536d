"""What knowing the roles is worth to `hard`'s Evil team in Masquerade Murder (issue 20).

    .venv/bin/python bench/murder_roles.py --seeds 500 560 --workers 2 > /tmp/murder-roles.jsonl

For each seed the ball is played once per mode with the same deal, the Assassin and the
Seductress played by ``hard`` and the Duke, the Constable and the Thug by ``medium``, the
Evil seats' search drawing its samples in different ways:

* ``fair``: ``State.determinize``, only what each Evil seat has seen, every consistent deal
  of roles alike (``hard:belief=0``, and `hard` before it read the public play);
* ``belief``: `hard` as it is: its ``resample`` hook weighs the deals and the past nights'
  targets by how well they explain the others' public play if they play as ``medium``
  (fair too: it reads only what the seat has seen);
* ``roles``: the true deal of roles, the rest drawn as ``determinize`` draws it (the other
  seats' targets of past nights among those that show the seat what it saw, and the choices
  of the night in progress at random): a cheat that knows the roles and nothing more;
* ``all``: the true state itself, which also holds the choices the other seats have made this
  night (a cheat that sees the simultaneous targets).

Every search also plays its own chance afresh (``reuse`` copies get new seeds), so no mode
knows the future. A row per ball (``[seed, mode, Evil won, nights, reason]``) as it ends,
then the Evil team's wins per mode with 95% Wilson intervals and the sign test of each other
mode against ``fair`` over the seeds. Research, not a bot: the cheats peek at the referee's
state. Run by hand; figures are recorded in docs/bots.md.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import intrigue
from benchpool import play_and_report, play_out
from intrigue.bots import make_bot
from intrigue.engine import Rng, State
from intrigue.games.masquerade_murder.belief import determinize
from intrigue.lab.stats import sign_test, wilson_interval

MODES = ("fair", "belief", "roles", "all")
EVIL = frozenset({"assassin", "seductress"})
MAX_TURNS = 15  # the arena's and the ladder's cap (the ball ends and Good wins: MM-20)


def sampler_for(state: Any, seat: int, mode: str) -> Callable[[Any], State]:
    """How the Evil seat's search draws its samples in ``mode`` (see the module docstring)."""
    if mode in ("fair", "belief"):
        return lambda rng: state.determinize(seat, rng)
    if mode == "roles":
        return lambda rng: determinize(state, seat, rng, roles=state.roles)
    return lambda rng: state.clone()


def play(job: tuple[int, str]) -> tuple[int, str, bool, int, str]:
    """One ball: the seed, the mode, whether Evil won, the nights played and why it ended."""
    seed, mode = job
    state: Any = intrigue.load("masquerade-murder").new(5, seed, max_turns=MAX_TURNS)
    evil = {seat for seat in range(5) if state.role_of(seat) in EVIL}
    searcher = "hard" if mode == "belief" else "hard:belief=0"
    bots = {seat: make_bot(searcher if seat in evil else "medium") for seat in range(5)}
    rng = Rng(seed ^ 0x5EED_B075)
    play_out(
        state, bots, rng, lambda st, seat: sampler_for(st, seat, mode) if seat in evil else None
    )
    won = any(winner in evil for winner in state.outcome.winners)
    return seed, mode, won, state.night, state.outcome.reason


def summary(rows: list[tuple[int, str, bool, int, str]]) -> dict[str, Any]:
    """Wins per mode with intervals, and each cheat against ``fair`` seed by seed."""
    won = {(seed, mode): result for seed, mode, result, *_ in rows}
    seeds = sorted({seed for seed, *_ in rows})
    out: dict[str, Any] = {}
    for mode in MODES:
        results = [won[seed, mode] for seed in seeds if (seed, mode) in won]
        if results:
            low, high = wilson_interval(sum(results), len(results))
            out[mode] = {"won": sum(results), "balls": len(results), "ci95": [low, high]}
    for mode in MODES[1:]:
        both = [seed for seed in seeds if (seed, mode) in won and (seed, "fair") in won]
        if not both:
            continue
        diffs = [float(won[s, mode]) - float(won[s, "fair"]) for s in both]
        out[f"{mode} against fair"] = sign_test(diffs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=(500, 530), metavar=("LO", "HI"))
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated modes")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    modes = args.modes.split(",")
    if unknown := set(modes) - set(MODES):
        parser.error(f"unknown modes {sorted(unknown)}; known: {', '.join(MODES)}")
    jobs = [(seed, mode) for seed in range(*args.seeds) for mode in modes]
    play_and_report(play, jobs, args.workers, summary)


if __name__ == "__main__":
    main()
