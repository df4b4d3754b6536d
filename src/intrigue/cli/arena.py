"""``intrigue arena``: seeded games between bots, with win rates and 95% intervals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from intrigue.lab.arena import ArenaResult, run_arena
from intrigue.lab.stats import Tally


def arena_command(
    console: Console,
    game_id: str,
    bots: list[str],
    games: int,
    seed: int,
    players: int | None,
    options: dict[str, Any],
    json_path: Path | None,
) -> ArenaResult:
    """Run the arena with a progress bar, print the tables, optionally write JSON."""
    columns = ("{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{game_id}: {', '.join(bots)}", total=games)
        result = run_arena(
            game_id,
            bots,
            games,
            seed,
            players,
            options,
            progress=lambda done: progress.update(task, completed=done),
        )
    console.print(
        f"{result.games} games of {game_id}, seeds {seed}..{seed + games - 1}"
        f" ({result.capped} cut off by max_turns)"
    )
    console.print(_table("Win rate by bot", result.by_bot))
    console.print(_table("Win rate by seat", result.by_seat))
    if result.by_role:
        console.print(_table("Win rate by role", result.by_role))
        console.print(_table("Win rate by bot and role", result.by_bot_role))
    if json_path is not None:
        json_path.write_text(json.dumps(result.to_json(), indent=2) + "\n")
        console.print(f"Results written to {json_path}.")
    return result


def _table(title: str, tallies: dict[Any, Tally]) -> Table:
    table = Table(title=title, title_justify="left")
    for name in ("", "games", "wins", "win rate", "95% interval"):
        table.add_column(name, justify="left" if not name else "right")
    for key, tally in sorted(tallies.items()):
        low, high = tally.interval
        table.add_row(
            str(key),
            str(tally.games),
            f"{tally.wins:g}",
            f"{tally.rate:.1%}",
            f"{low:.1%} to {high:.1%}",
        )
    return table
