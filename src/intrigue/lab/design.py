"""What a balance run plays: its rule sets and bot line-ups ("variants") and every game of them.

A run always has a reference variant, the first: ``base`` (the rules as given), or the first
point of a ``--sweep``. The other variants are compared with it on the same seeds:

* ``vs``: the rules changed by ``--vs-option`` (or played by ``--vs-players``);
* ``sweep:NAME=V`` (``sweep:A=1,B=x`` on a grid): one per value of the swept option(s);
* ``never:KIND`` / ``prefer:KIND``: restricted play, one seat a bot that never takes (or always
  prefers) that kind of action, the others the unrestricted bot;
* ``skill:2B-vs-B``: the skill trace, one seat ISMCTS with twice the iterations of the others.

In the last two, game ``i`` gives the odd bot seat ``i % players`` (the *focus* seat), so every
seat gets it equally often and its result pairs with that seat's in the reference game.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass, field
from typing import Any

from .runner import GameTask

BASE, VS = "base", "vs"
# The skill trace's bot: single-observer ISMCTS with a given number of iterations.
SKILL_BOT = "ismcts:iterations={}"


@dataclass(frozen=True)
class Variant:
    """One rule set and line-up of a run."""

    name: str
    players: int
    options: dict[str, Any]
    # Bots rotated over the seats; the focus bot, if any, replaces seat ``index % players``.
    bots: tuple[str, ...]
    focus: str | None = None
    # What the variant studies: "reference", "vs", "sweep", "never", "prefer" or "skill".
    study: str = "reference"
    # The swept values ({option: value}), the restricted kind, or the skill budget.
    setting: dict[str, Any] = field(default_factory=dict)

    def seats(self, index: int) -> tuple[str, ...]:
        """The bots of game ``index``: the list rotated by one seat per game, focus in place."""
        seats = [self.bots[(seat + index) % len(self.bots)] for seat in range(self.players)]
        if self.focus is not None:
            seats[self.focus_seat(index)] = self.focus
        return tuple(seats)

    def focus_seat(self, index: int) -> int | None:
        return None if self.focus is None else index % self.players


@dataclass
class BalanceConfig:
    """What to play: the game, bots, rule set(s) and how many games of each."""

    game: str
    games: int
    bots: list[str]
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    vs_options: dict[str, Any] = field(default_factory=dict)
    vs_players: int | None = None
    plugins: list[tuple[str, str]] = field(default_factory=list)
    # Up to two (option, values) to sweep; the grid of their values are the variants.
    sweep: list[tuple[str, list[str]]] = field(default_factory=list)
    # Action kinds for restricted play (empty: none).
    strategies: list[str] = field(default_factory=list)
    # ISMCTS iteration budgets of the weaker seats of the skill trace (empty: none).
    skill_levels: list[int] = field(default_factory=list)
    # The first ``eval_games`` games of each variant are replayed and evaluated at
    # ``eval_points`` moments (lead changes, drama, stability, clarity).
    eval_games: int = 0
    eval_points: int = 12

    @property
    def compares(self) -> bool:
        return bool(self.vs_options) or self.vs_players is not None

    @property
    def reference(self) -> str:
        return self.variants()[0].name

    def variants(self) -> list[Variant]:
        """Every variant of the run, the reference first."""
        bots = tuple(self.bots)
        if self.sweep:
            found = [self._sweep_point(point) for point in self.sweep_points()]
        else:
            found = [Variant(BASE, self.players, dict(self.options), bots)]
        reference = found[0]
        if self.compares:
            players = self.vs_players if self.vs_players is not None else self.players
            found.append(
                Variant(VS, players, {**self.options, **self.vs_options}, bots, study="vs")
            )
        for mode in ("never", "prefer"):
            for kind in self.strategies:
                focus = f"restricted:base={bots[0]}:{mode}={kind}"
                found.append(
                    Variant(
                        f"{mode}:{kind}",
                        reference.players,
                        dict(reference.options),
                        bots,
                        focus,
                        mode,
                        {"kind": kind},
                    )
                )
        for budget in self.skill_levels:
            found.append(
                Variant(
                    f"skill:{2 * budget}-vs-{budget}",
                    reference.players,
                    dict(reference.options),
                    (SKILL_BOT.format(budget),),
                    SKILL_BOT.format(2 * budget),
                    "skill",
                    {"weak": budget, "strong": 2 * budget},
                )
            )
        return found

    def sweep_points(self) -> list[dict[str, str]]:
        """The grid of swept values, the first option varying slowest."""
        names = [name for name, _ in self.sweep]
        return [
            dict(zip(names, values, strict=True))
            for values in itertools.product(*(values for _, values in self.sweep))
        ]

    def _sweep_point(self, point: dict[str, str]) -> Variant:
        name = "sweep:" + ",".join(f"{k}={v}" for k, v in point.items())
        return Variant(
            name, self.players, {**self.options, **point}, tuple(self.bots), None, "sweep", point
        )

    def variant(self, name: str) -> Variant:
        for variant in self.variants():
            if variant.name == name:
                return variant
        raise KeyError(name)

    def tasks(self) -> list[GameTask]:
        """Every game of the run, the variants interleaved so a partial run stays paired."""
        variants = self.variants()
        return [
            GameTask(
                self.game,
                v.name,
                index,
                self.seed + index,
                v.players,
                v.seats(index),
                v.options,
                tuple(self.plugins),
                focus=v.focus_seat(index),
                eval_points=self.eval_points if index < self.eval_games else 0,
            )
            for index in range(self.games)
            for v in variants
        ]

    def bot_names(self) -> list[str]:
        """Every bot name the run's games use."""
        names: dict[str, None] = {}
        for variant in self.variants():
            for name in (*variant.bots, variant.focus):
                if name is not None:
                    names[name] = None
        return list(names)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["plugins"] = [list(p) for p in self.plugins]
        data["sweep"] = [[name, list(values)] for name, values in self.sweep]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BalanceConfig:
        config = cls(**data)
        config.plugins = [(str(a), str(b)) for a, b in config.plugins]
        config.sweep = [(str(name), [str(v) for v in values]) for name, values in config.sweep]
        return config

    def same_games(self, other: dict[str, Any]) -> bool:
        """Whether a saved config plays the same games (the game count may differ)."""
        mine = {k: v for k, v in self.to_json().items() if k != "games"}
        return mine == {k: v for k, v in other.items() if k != "games"}
