"""OpenSpiel playthroughs: OpenSpiel's own ``generate_playthrough`` on every game, kept in
``tests/interop/playthroughs/`` and regenerated on every run, as OpenSpiel does for its games
(its ``playthrough_test``): any silent change to a game type, parameter, observation string or
tensor, legal action or return shows as a difference.

If a change is intended, regenerate the files and review the diff before committing:

    INTRIGUE_UPDATE_GOLDEN=1 .venv/bin/pytest tests/interop/test_interop_playthroughs.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from absl import flags
from interop_support import CONFIG_IDS, CONFIGS
from open_spiel.python.algorithms import generate_playthrough

import intrigue.interop.openspiel as adapter
from intrigue.engine import game_ids

HERE = Path(__file__).parent / "playthroughs"
UPDATE = os.environ.get("INTRIGUE_UPDATE_GOLDEN") == "1"
SEED = 7  # OpenSpiel's random choice of chance outcomes and actions
# The shortest game each rule set allows keeps the files readable: one night, two ball turns,
# four player turns, one season.
PARAMETERS = {
    "masquerade-murder": "max_turns=1",
    "masquerade-ball": "max_turns=2",
    "project-assassination": "max_turns=4",
    "shadows-over-japan": "max_turns=1,players=2",
}
# The perfect-recall information-state tensor (the observation tensor and the History).
HISTORY = {"project-assassination-history": ("project-assassination", "max_turns=3")}


if not flags.FLAGS.is_parsed():  # generate_playthrough reads an absl flag
    flags.FLAGS.mark_as_parsed()


def game_string(name: str) -> str:
    if name in HISTORY:
        game_id, parameters = HISTORY[name]
        return f"{adapter.short_name(game_id)}({parameters},infostate_history=True)"
    return f"{adapter.short_name(name)}({PARAMETERS[name]})"


@pytest.mark.parametrize("name", [*game_ids(), *HISTORY])
def test_playthrough_is_unchanged(name):
    path = HERE / f"{name}.txt"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"{path} is missing; run with INTRIGUE_UPDATE_GOLDEN=1 to write it")
        path.write_text(
            generate_playthrough.playthrough(game_string(name), None, seed=SEED),
            encoding="utf-8",
        )
    original, again = generate_playthrough.replay(str(path))
    if original != again:
        diff = difflib.unified_diff(
            original.splitlines(), again.splitlines(), "kept", "now", n=1, lineterm=""
        )
        pytest.fail("the playthrough changed:\n" + "\n".join(list(diff)[:40]))


def test_every_game_has_a_playthrough_and_it_shows_every_observer():
    for game_id in game_ids():
        text = (HERE / f"{game_id}.txt").read_text(encoding="utf-8")
        assert text.startswith(f"game: {game_string(game_id)}\n")
        for line in (
            "PublicObservationString()",
            "PrivateObservationString(0)",
            "InformationStateString(0)",
            "ObservationTensor(0)",
            "Returns() = ",
        ):
            assert line in text, (game_id, line)
        assert "IsTerminal() = True" in text


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_a_playthrough_runs_and_replays_at_every_player_count(game_id, players, tmp_path):
    """The kept files cover each game at one player count; OpenSpiel's tool must also work at
    the others (its replay plays the recorded actions again and compares every line)."""
    parameters = f"{PARAMETERS[game_id].split(',')[0]},players={players}"
    name = f"{adapter.short_name(game_id)}({parameters})"
    text = generate_playthrough.playthrough(name, None, seed=SEED)
    assert f"NumPlayers() = {players}\n" in text
    assert "IsTerminal() = True" in text
    path = tmp_path / "playthrough.txt"
    path.write_text(text, encoding="utf-8")
    original, again = generate_playthrough.replay(str(path))
    assert original == again
