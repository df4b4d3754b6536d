"""The arena: seeded games between named bots, seats rotated, win rates with 95% intervals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from intrigue.bots import make_bot
from intrigue.bots.match import play_match
from intrigue.engine import State, load

from .stats import Tally


@dataclass
class ArenaResult:
    """Win tallies per bot name, per seat, per role (where the game names roles)."""

    game: str
    games: int = 0
    capped: int = 0
    by_bot: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_seat: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_role: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_bot_role: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "capped": self.capped,
            "by_bot": {k: v.to_json() for k, v in sorted(self.by_bot.items())},
            "by_seat": {str(k): v.to_json() for k, v in sorted(self.by_seat.items())},
            "by_role": {k: v.to_json() for k, v in sorted(self.by_role.items())},
            "by_bot_role": {k: v.to_json() for k, v in sorted(self.by_bot_role.items())},
        }


def seat_result(state: State, seat: int) -> float:
    """1 for a win, 0 for a loss, 1/2 for a draw (0 for a seat out of the game before a draw
    among the others, `Outcome.draw_among`)."""
    outcome = state.outcome
    assert outcome is not None
    if outcome.is_draw:
        return 0.0 if outcome.returns[seat] < 0 else 0.5
    return 1.0 if seat in outcome.winners else 0.0


def seat_roles(state: State) -> list[str] | None:
    """Roles of the seats, when the finished game's public view unmasks them."""
    roles = state.view(None).get("roles")
    return list(roles) if roles else None


def run_arena(
    game_id: str,
    bot_names: Sequence[str],
    games: int,
    seed: int = 0,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games; game i seats bot ``(seat + i) % len(bot_names)`` on each seat."""
    game = load(game_id)
    count = players if players is not None else game.player_counts[0]
    result = ArenaResult(game_id)
    for index in range(games):
        names = [bot_names[(seat + index) % len(bot_names)] for seat in range(count)]
        state = play_match(game_id, [make_bot(n) for n in names], seed + index, count, options)
        _tally(result, state, names)
        if progress is not None:
            progress(index + 1)
    return result


def _tally(result: ArenaResult, state: State, names: list[str]) -> None:
    outcome = state.outcome
    assert outcome is not None
    result.games += 1
    result.capped += outcome.capped
    roles = seat_roles(state)
    for seat, name in enumerate(names):
        won = seat_result(state, seat)
        result.by_bot[name].add(won)
        result.by_seat[seat].add(won)
        if roles is not None:
            result.by_role[roles[seat]].add(won)
            result.by_bot_role[f"{name}/{roles[seat]}"].add(won)
