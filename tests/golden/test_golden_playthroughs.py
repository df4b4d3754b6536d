"""Golden playthroughs: one fixed random game per registered game, compared step by step.

For each game, ``tests/golden/<game-id>.jsonl`` holds a game played from a fixed seed and fixed
options, with moves picked by ``random.Random(seed)``: first the seat (among ``to_move``, in
order), then the action (among the legal ones, in action-table order, so a game may reorder its
legal action lists without invalidating the file). Line 0 is the initial state; each later line
is one step: the step number, the seat and the action played, every seat's view and the
spectator's after the step, and the events each of them received during the step.

Any change to what a game shows its players makes this test fail with the first differing line.
If the change is intended, regenerate the files and review the diff:

    INTRIGUE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/golden
"""

from __future__ import annotations

import difflib
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import intrigue
from intrigue.engine import State, game_ids

HERE = Path(__file__).parent
UPDATE = os.environ.get("INTRIGUE_UPDATE_GOLDEN") == "1"
DEFAULT = {"seed": 12, "options": {"max_turns": 2}}
# Per-game settings, only where the default does not give a short, varied game.
GOLDEN: dict[str, dict[str, Any]] = {
    # Seed 12: two nights with both Joker swaps and harms (a capture, a poisoning...).
    "masquerade-murder": {"seed": 12, "options": {"max_turns": 2}},
    # Six player turns reach an enemy placement phase.
    "project-assassination": {"seed": 12, "options": {"max_turns": 6}},
    # One season keeps the file small (every step holds three or more full views).
    "shadows-over-japan": {"seed": 12, "options": {"max_turns": 1}},
}
MAX_STEPS = 5_000


def _dump(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _observers(state: State) -> list[tuple[str, int | None]]:
    return [*((str(s), s) for s in range(state.players)), ("spectator", None)]


def _line(state: State, step: int, seat: int | None, action: str | None, since: int) -> str:
    observers = _observers(state)
    return _dump(
        {
            "step": step,
            "seat": seat,
            "action": action,
            "views": {name: state.view(who) for name, who in observers},
            "events": {name: state.events(who, since=since) for name, who in observers},
        }
    )


def playthrough(game_id: str) -> list[str]:
    """The golden lines of ``game_id``, generated afresh."""
    game = intrigue.load(game_id)
    settings = GOLDEN.get(game_id, DEFAULT)
    seed = settings["seed"]
    state = game.new(players=game.player_counts[0], seed=seed, **settings["options"])
    rng = random.Random(seed)
    lines = [_line(state, 0, None, None, 0)]
    while not state.is_over:
        assert len(lines) <= MAX_STEPS, f"{game_id}: the golden game does not end"
        seat = rng.choice(sorted(state.to_move))
        action = rng.choice(sorted(state.legal_actions(seat), key=game.action_index))
        mark = state.log_length
        state.apply(seat, action)
        lines.append(_line(state, len(lines), seat, str(action), mark))
    return lines


def _readable_diff(expected: str, actual: str) -> str:
    def pretty(text: str) -> list[str]:
        return json.dumps(json.loads(text), indent=1, sort_keys=True).splitlines()

    diff = difflib.unified_diff(pretty(expected), pretty(actual), "golden", "now", lineterm="", n=3)
    lines = list(diff)
    return "\n".join(lines[:60] + (["..."] if len(lines) > 60 else []))


@pytest.mark.parametrize("game_id", game_ids())
def test_golden_playthrough(game_id: str) -> None:
    path = HERE / f"{game_id}.jsonl"
    actual = playthrough(game_id)
    if UPDATE:
        path.write_text("\n".join(actual) + "\n", encoding="utf-8")
    if not path.exists():
        pytest.fail(f"no golden file {path.name}: create it with INTRIGUE_UPDATE_GOLDEN=1")
    expected = path.read_text(encoding="utf-8").splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False)):
        if want != got:
            pytest.fail(
                f"{game_id}: line {number} (step {number}) differs from {path.name}:\n"
                + _readable_diff(want, got)
            )
    assert len(actual) == len(expected), (
        f"{game_id}: the game now has {len(actual) - 1} steps, the golden file {len(expected) - 1}"
    )


def test_golden_files_belong_to_registered_games() -> None:
    stale = sorted(p.stem for p in HERE.glob("*.jsonl") if p.stem not in game_ids())
    assert not stale, f"golden files for games that are not registered: {stale}"
