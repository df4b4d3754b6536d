"""What seeing everything is worth to one seat's search: is a bot's shortfall its belief?

    .venv/bin/python bench/peek.py shadows-over-japan --players 3 --seeds 6000 6030 \\
        --workers 2 > /tmp/peek.jsonl

For each seed the game is played once per mode with the same deal, one seat (``seed %
players``) played by ``--bot`` and the others by ``--others``, the focus seat's search drawing
its samples in different ways (``--modes``, ``fair,all`` unless told):

* ``fair``: ``State.determinize``, only what the seat has seen (the bot as it plays: where
  the game has a ``resample`` hook, a reading of the public play, the search draws its
  samples by it);
* ``plain``: ``State.determinize`` alone, no reading (``belief=0``: each hidden thing drawn
  alike among what the seat cannot rule out);
* ``all``: the true state itself (a cheat that sees every hidden card, role and choice made);
* ``nobles`` (Shadows over Japan only): the true Nobles, everything else drawn as
  ``determinize`` draws it (a cheat that knows whom each clan backs, not what it holds);
* ``secrets`` (Shadows over Japan only): the true state with its territory deck and Honour
  deck shuffled (a cheat that knows every Noble, hand and concealed style, but not the order
  of the cards still to come, which ``all`` does know: the decks are stacks in the state);
* ``hands`` and ``styles`` (Shadows over Japan only): the true Nobles and the other clans'
  true hands (``hands``) or the true styles of their concealed and pooled ninjas
  (``styles``), everything else drawn as ``nobles`` draws it: which half of ``secrets`` is
  worth what.

The cheats and ``plain`` turn the reading off: given a sample, a ``resample`` hook draws its
own from what the seat has seen, which would undo the cheat (until 2026-11-30 it did, for
Shadows over Japan's `hard` since its reading landed). Every search plays its own chance afresh
(``reuse`` copies get new seeds), so no mode knows the shuffles and dice still to come; but
where the state keeps a deck in order, ``all`` knows the cards it will deal (Shadows over
Japan's territory and Honour decks), and ``secrets`` tells that foresight apart. If the cheat
wins far more often, the bot's belief is what holds it back (as in Masquerade Murder,
`bench/murder_roles.py`); if not, its play. A row per game (``[seed, mode, focus seat, its
result]``, the result 1 for a win, 0.5 shared, else 0) as it ends, then per mode the focus
seat's wins with 95% Wilson intervals and the sign test of each cheat against ``fair`` over the
seeds. Research, not a bot. Run by hand; figures are recorded in docs/bots.md.
"""

from __future__ import annotations

import argparse
from typing import Any

import intrigue
from benchpool import play_and_report, play_out
from intrigue.bots import make_bot
from intrigue.engine import Rng
from intrigue.lab.stats import sign_test, wilson_interval

MODES = ("fair", "all", "nobles", "plain", "secrets", "hands", "styles")


def play(job: tuple[str, int, int, str, str, str]) -> tuple[int, str, int, float]:
    """One game: the seed, the mode, the focus seat and its result."""
    game, players, seed, mode, bot, others = job
    state: Any = intrigue.load(game).new(players, seed)
    focus = seed % players
    bots = {seat: make_bot(bot if seat == focus else others) for seat in range(players)}
    if mode != "fair":
        without_reading(bots[focus])
    rng = Rng(seed ^ 0x5EED_B075)
    play_out(state, bots, rng, lambda st, seat: _sampler(st, seat, mode) if seat == focus else None)
    outcome = state.outcome
    won = focus in outcome.winners
    return seed, mode, focus, (1.0 / len(outcome.winners)) if won else 0.0


def without_reading(bot: Any) -> None:
    """Turn off a search bot's reading of the public play (its game's ``resample`` hook), so
    that its samples are the sampler's (``belief=0``); other bots are left as they are."""
    if getattr(bot, "belief", False):
        bot.belief = False


def _sampler(state: Any, seat: int, mode: str) -> Any:
    if mode in ("fair", "plain"):
        return lambda rng: state.determinize(seat, rng)
    if mode in ("nobles", "hands", "styles"):
        from intrigue.games.shadows_over_japan.belief import determinize

        nobles = tuple(state.nobles)
        told = {"nobles": _as_drawn, "hands": _true_hands, "styles": _true_styles}[mode]
        return lambda rng: told(determinize(state, seat, rng, nobles=nobles), state, seat, rng)
    if mode == "secrets":
        return lambda rng: _without_foresight(state.clone(), rng)
    return lambda rng: state.clone()


def _without_foresight(sample: Any, rng: Any) -> Any:
    """``sample`` with the cards still to come in a new order (Shadows over Japan's decks)."""
    rng.shuffle(sample.deck)
    rng.shuffle(sample.honour_deck)
    return sample


def _as_drawn(sample: Any, state: Any, seat: int, rng: Any) -> Any:
    return sample


def _true_hands(sample: Any, state: Any, seat: int, rng: Any) -> Any:
    """``sample`` with the other seats' true hands; the cards they do not hold go to the deck
    (the deck and those hands hold the same cards in both: the rest is public or the seat's)."""
    others = [s for s in range(state.players) if s != seat]
    held = {c for s in others for c in state.hand[s]}
    loose = [c for c in sample.deck + [c for s in others for c in sample.hand[s]] if c not in held]
    rng.shuffle(loose)
    sample.deck = loose
    for s in others:
        sample.hand[s] = list(state.hand[s])
    return sample


def _true_styles(sample: Any, state: Any, seat: int, rng: Any) -> Any:
    """``sample`` with the true styles of the other seats' ninjas, on the board and pooled."""
    for p, owner in enumerate(state.nin):
        if owner >= 0 and owner != seat:
            sample.nsty[p] = state.nsty[p]
    for s in range(state.players):
        if s != seat:
            sample.pool[s] = list(state.pool[s])
    return sample


def summary(rows: list[tuple[int, str, int, float]]) -> dict[str, Any]:
    """The focus seat's wins per mode with intervals, and each cheat against ``fair``."""
    result = {(seed, mode): value for seed, mode, _, value in rows}
    seeds = sorted({seed for seed, *_ in rows})
    out: dict[str, Any] = {}
    for mode in MODES:
        values = [result[seed, mode] for seed in seeds if (seed, mode) in result]
        if values:
            wins = sum(1 for v in values if v > 0)
            low, high = wilson_interval(wins, len(values))
            out[mode] = {"won": wins, "games": len(values), "ci95": [low, high]}
    for mode in MODES[1:]:
        both = [seed for seed in seeds if (seed, "fair") in result and (seed, mode) in result]
        if both:
            diffs = [result[s, mode] - result[s, "fair"] for s in both]
            out[f"{mode} against fair"] = sign_test(diffs)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs=2, default=(6000, 6030), metavar=("LO", "HI"))
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--others", default="medium")
    parser.add_argument("--modes", default="fair,all", help="comma-separated modes")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    modes = args.modes.split(",")
    if unknown := set(modes) - set(MODES):
        parser.error(f"unknown modes {sorted(unknown)}; known: {', '.join(MODES)}")
    jobs = [
        (args.game, args.players, seed, mode, args.bot, args.others)
        for seed in range(*args.seeds)
        for mode in modes
    ]
    play_and_report(play, jobs, args.workers, summary)


if __name__ == "__main__":
    main()
