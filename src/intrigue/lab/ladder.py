"""The ladder (``intrigue ladder``): a round robin of bots, rated on one Elo scale.

Every pair of bots plays ``games`` games on the same seeds (``seed`` .. ``seed + games - 1``),
the two bots taking the seats in turn: A, B, A, ... from seat 0 in even games, B, A, B, ... in
odd ones, so in a two-player game each bot plays every other deal from each side. With an odd
number of players one bot holds a seat more than the other, and the pattern turns by a seat
every two games (A, B, A; B, A, B; then A, A, B; B, B, A; ...), so that the seats a bot holds
alone or in the majority go round the table rather than staying where seat 0's pattern puts
them (with three players the lone seat would always be seat 1). A game is a
win for the bot whose seats did better on average, half a win each when they did equally well
(in Masquerade Murder a seat wins by its own goal: both bots may win, or both lose).

The ratings come from a Bradley-Terry model, P(A beats B) = 1 / (1 + 10^((R_B - R_A) / 400)),
fitted by maximum likelihood with Hunter's MM iterations (2004); each pair also gets one
virtual drawn game, so that a bot that won every game has a finite rating. The first bot listed
is the anchor, rated 0. The 95% intervals are the 2.5th and 97.5th percentiles of the ratings
refitted on games simulated from the fitted model (a parametric bootstrap, so that a clean
sweep still gets an interval; its upper end is bounded by the virtual draw).

Team games (``by_team``, Masquerade Murder): seating the bots A, B, A, ... mixes them in every
team, so whichever bot holds the winning team's seats is mostly the deal. Instead each deal is
played twice: one bot holds every seat of one of the two largest teams, the other bot every
other seat (the Thug's too), then the other way round. The score stays "whose seats did
better on average", which is then whose team won: one team wins every ball, and the Thug's
seat alone cannot outweigh two seats of a losing team.

Games are played by the balance lab's runner (`intrigue.lab.runner.play_one`), so a ladder game
is the very game ``intrigue arena`` or ``intrigue balance`` would play with the same seed and
bots, and can be spread over worker processes or resumed from its ``games.jsonl``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import intrigue

from .facts import dealt_teams
from .runner import GameStream, GameTask, read_rows, run_tasks

ELO = 400.0 / math.log(10.0)  # Elo points per unit of natural-log strength
PRIOR_DRAWS = 1.0  # virtual drawn games per pair
BOOTSTRAP = 400
Pair = tuple[str, str]


def pair_label(pair: Pair) -> str:
    return f"{pair[0]} vs {pair[1]}"


def seat_bots(pair: Pair, players: int, index: int) -> tuple[str, ...]:
    """The bot on each seat in game ``index`` of ``pair``: the two alternate, and swap sides
    from one game to the next; with an odd number of players the pattern also turns by one
    seat every two games (see the module docstring)."""
    turn = (index // 2) % players if players % 2 else 0
    return tuple(pair[((seat - turn) % players + index) % 2] for seat in range(players))


def team_bots(pair: Pair, teams: Sequence[str], index: int) -> tuple[str, ...]:
    """The bot on each seat in game ``index`` of ``pair`` by team: the first of the two largest
    teams (by size, then name) goes to one bot, every other seat to the other; even games give
    that team to the pair's first bot, odd games to its second."""
    sizes = {team: teams.count(team) for team in teams}
    first = sorted(sizes, key=lambda team: (-sizes[team], team))[0]
    mine, theirs = pair if index % 2 == 0 else (pair[1], pair[0])
    return tuple(mine if team == first else theirs for team in teams)


class UnteamedGame(ValueError):
    """``by_team`` for a game (or a deal) without teams."""


@dataclass(frozen=True)
class LadderSpec:
    """What a ladder plays: ``games`` games of ``game`` per pair of ``bots`` (``by_team``:
    deals played twice, bots seated by team; see the module docstring)."""

    game: str
    bots: tuple[str, ...]
    games: int
    seed: int
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    by_team: bool = False
    # (name, "module:attribute") bots of the user's own, registered in every worker first.
    plugins: tuple[tuple[str, str], ...] = ()

    def seed_of(self, index: int) -> int:
        """The seed of game ``index`` of every pair (by team, two games share each deal)."""
        return self.seed + (index // 2 if self.by_team else index)


def ladder_tasks(spec: LadderSpec) -> list[GameTask]:
    """Every game of the round robin: ``games`` per pair of distinct bots, deal by deal (game
    0 of every pair, then game 1, ...), so that a ladder stopped early holds about as many
    games of every pair, and ``--resume`` plays the rest."""
    teams = _deals_by_team(spec) if spec.by_team else {}
    return [
        GameTask(
            spec.game,
            pair_label(pair),
            index,
            spec.seed_of(index),
            spec.players,
            team_bots(pair, teams[spec.seed_of(index)], index)
            if spec.by_team
            else seat_bots(pair, spec.players, index),
            dict(spec.options),
            plugins=spec.plugins,
        )
        for index in range(spec.games)
        for pair in combinations(spec.bots, 2)
    ]


def _deals_by_team(spec: LadderSpec) -> dict[int, list[str]]:
    """Each seed's seats by team, read from the deal (`dealt_teams`)."""
    game = intrigue.load(spec.game)
    deals = {}
    for seed in {spec.seed_of(index) for index in range(spec.games)}:
        teams = dealt_teams(game.new(spec.players, seed, **spec.options))
        if teams is None:
            raise UnteamedGame(f"{game.name} has no teams to seat the bots by")
        deals[seed] = teams
    return deals


def pair_score(row: dict[str, Any], pair: Pair, by_team: bool = False) -> float:
    """1 if the pair's first bot's seats did better on average in this game, 0 if worse,
    1/2 if as well (``by_team``: only the seats of teams of two or more count)."""
    seats = row["bots"]
    results = row["results"]
    counted = [True] * len(seats)
    if by_team:
        teams = row.get("labels", {}).get("team") or []
        counted = [teams.count(team) >= 2 for team in teams] or counted
    mine = [r for name, r, c in zip(seats, results, counted, strict=True) if c and name == pair[0]]
    theirs = [
        r for name, r, c in zip(seats, results, counted, strict=True) if c and name == pair[1]
    ]
    diff = sum(mine) / len(mine) - sum(theirs) / len(theirs)
    return 1.0 if diff > 1e-9 else 0.0 if diff < -1e-9 else 0.5


@dataclass
class Ladder:
    """The scores of every pair (first bot's point of view) and the fitted ratings."""

    game: str
    players: int
    bots: list[str]
    scores: dict[Pair, list[float]] = field(default_factory=dict)
    errors: int = 0
    capped: int = 0

    def add(self, row: dict[str, Any]) -> None:
        if row.get("status") != "ok":
            self.errors += 1
            return
        first, _, second = row["variant"].partition(" vs ")
        pair = (first, second)
        self.scores.setdefault(pair, []).append(pair_score(row, pair))
        self.capped += bool(row.get("capped"))

    @property
    def games(self) -> int:
        return sum(len(s) for s in self.scores.values())

    def ratings(self) -> dict[str, float]:
        return fit_elo(self.bots, self.scores)

    def intervals(self, samples: int = BOOTSTRAP, seed: int = 0) -> dict[str, tuple[float, float]]:
        return bootstrap_intervals(self.bots, self.scores, samples, seed)

    def to_json(self) -> dict[str, Any]:
        ratings, intervals = self.ratings(), self.intervals()
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "capped": self.capped,
            "errors": self.errors,
            "anchor": self.bots[0],
            "ratings": {
                bot: {
                    "elo": round(ratings[bot], 1),
                    "ci95": [round(x, 1) for x in intervals[bot]],
                    "score": round(_overall(bot, self.scores)[0], 4),
                    "games": _overall(bot, self.scores)[1],
                }
                for bot in self.bots
            },
            "pairs": {
                pair_label(pair): {
                    "games": len(s),
                    "score": round(sum(s) / len(s), 4) if s else None,
                }
                for pair, s in self.scores.items()
            },
        }


def _overall(bot: str, scores: dict[Pair, list[float]]) -> tuple[float, int]:
    """The bot's share of points over all its games, and how many games it played."""
    points = games = 0.0
    for (a, b), s in scores.items():
        if bot == a:
            points += sum(s)
        elif bot == b:
            points += len(s) - sum(s)
        else:
            continue
        games += len(s)
    return (points / games if games else 0.0), int(games)


def fit_elo(
    bots: Sequence[str], scores: dict[Pair, list[float]], iterations: int = 2000
) -> dict[str, float]:
    """Bradley-Terry ratings in Elo points, the first bot at 0 (see the module docstring)."""
    wins = dict.fromkeys(bots, 0.0)
    meetings: dict[Pair, float] = {}
    for (a, b), s in scores.items():
        won = sum(s) + PRIOR_DRAWS / 2
        wins[a] += won
        wins[b] += len(s) + PRIOR_DRAWS - won
        meetings[(a, b)] = len(s) + PRIOR_DRAWS
    strength = dict.fromkeys(bots, 1.0)
    for _ in range(iterations):
        new = {}
        for bot in bots:
            denominator = sum(
                n / (strength[a] + strength[b]) for (a, b), n in meetings.items() if bot in (a, b)
            )
            new[bot] = wins[bot] / denominator if denominator else strength[bot]
        # Rescaled each round: the model fixes strengths only up to a common factor.
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {bot: v / scale for bot, v in new.items()}
        change = max(abs(math.log(new[b] / strength[b])) for b in bots)
        strength = new
        if change < 1e-10:
            break
    anchor = math.log(strength[bots[0]])
    return {bot: ELO * (math.log(strength[bot]) - anchor) for bot in bots}


def bootstrap_intervals(
    bots: Sequence[str],
    scores: dict[Pair, list[float]],
    samples: int = BOOTSTRAP,
    seed: int = 0,
) -> dict[str, tuple[float, float]]:
    """95% intervals of each rating: the ratings refitted on games simulated from the fitted
    model (a parametric bootstrap), each pair keeping its number of games and its share of
    draws. Resampling the games themselves would give a clean sweep no width at all."""
    rng = random.Random(seed)
    ratings = fit_elo(bots, scores)
    plans = []
    for (a, b), s in scores.items():
        if not s:
            continue
        expected = 1.0 / (1.0 + 10.0 ** ((ratings[b] - ratings[a]) / 400.0))
        draws = sum(1 for x in s if x == 0.5) / len(s)
        decisive = 1.0 - draws
        wins = min(max((expected - 0.5 * draws) / decisive, 0.0), 1.0) if decisive else 0.5
        plans.append(((a, b), len(s), draws, wins))
    fits = []
    for _ in range(samples):
        simulated = {
            pair: [0.5 if rng.random() < draws else float(rng.random() < wins) for _ in range(n)]
            for pair, n, draws, wins in plans
        }
        fits.append(fit_elo(bots, simulated))
    return {bot: _percentiles([f[bot] for f in fits]) for bot in bots}


def _percentiles(values: Iterable[float]) -> tuple[float, float]:
    ordered = sorted(values)
    if not ordered:
        return (math.nan, math.nan)
    low = ordered[int(0.025 * (len(ordered) - 1))]
    high = ordered[math.ceil(0.975 * (len(ordered) - 1))]
    return (low, high)


def run_ladder(
    spec: LadderSpec,
    workers: int = 1,
    out: Path | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Ladder:
    """Play the round robin (skipping games already in ``out/games.jsonl`` with ``resume``)
    and gather the scores. Each finished game is written to ``out/games.jsonl`` at once."""
    tasks = ladder_tasks(spec)
    wanted = {task.key: task for task in tasks}
    kept = []
    if out is not None and resume:
        kept = [
            row
            for row in read_rows(out / "games.jsonl")
            if (key := (row["variant"], row["index"])) in wanted
            and tuple(row["bots"]) == wanted[key].bots
            and row["seed"] == wanted[key].seed
            and row.get("status") == "ok"
        ]
    done = {(row["variant"], row["index"]) for row in kept}
    ladder = Ladder(spec.game, spec.players, list(spec.bots))
    for row in kept:
        ladder.add(row)
    stream = None if out is None else GameStream(out / "games.jsonl", kept)
    todo = [task for task in tasks if task.key not in done]
    try:
        for row in run_tasks(todo, "process", workers):
            ladder.add(row)
            if stream is not None:
                stream.write(row)
            if progress is not None:
                progress(ladder.games + ladder.errors, len(tasks))
    finally:
        if stream is not None:
            stream.close()
    return ladder
