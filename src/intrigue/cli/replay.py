"""``intrigue replay``: a saved game retold step by step, as one seat (or a spectator) saw it."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

import intrigue
from intrigue.engine import IntrigueError, Record, State

from .output import event_lines, print_outcome, say, show


class ReplayError(Exception):
    """The record cannot be read or does not replay."""


def load_record(path: Path) -> Record:
    try:
        return Record.from_json(json.loads(path.read_text(encoding="utf-8")))
    except OSError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise ReplayError(f"{path} is not a game record: {exc}") from None


def replay_file(console: Console, path: Path, seat: int | None) -> None:
    """Rebuild the game action by action, printing the events ``seat`` could see."""
    record = load_record(path)
    game = intrigue.load(record.game)
    state = game.new(record.players, record.seed, **record.options)
    if seat is not None and not 0 <= seat < state.players:
        raise ReplayError(f"--seat {seat}: seats are 0..{state.players - 1}")
    who = "a spectator" if seat is None else f"seat {seat}"
    say(console, f"Replay of {game.name} (seed {record.seed}) as {who} saw it.", "bold")
    seen = _print_new_events(console, state, seat, 0, step=0)
    for step, (mover, text) in enumerate(record.actions, 1):
        try:
            state.apply(mover, text)
        except IntrigueError as exc:
            raise ReplayError(f"step {step} ({text!r} by seat {mover}): {exc}") from None
        seen = _print_new_events(console, state, seat, seen, step=step)
    view = state.view(seat)
    show(console, game.render(view))
    if state.is_over:
        print_outcome(console, view, seat)
    else:
        say(console, f"The record stops after {len(record.actions)} moves; the game goes on.")


def _print_new_events(
    console: Console, state: State, seat: int | None, since: int, step: int
) -> int:
    """Print the events from ``since`` on that ``seat`` sees; return the new log position."""
    view = state.view(seat)
    for line in event_lines(state.game, state.events(seat, since=since), view):
        say(console, f"[{step:>3}] {line}")
    return state.log_length
