"""Every game explains itself from one source (issue #17, item 1): ``Game.guide()``.

The expected keys are read from each game's own data (roles, cards, ranks, enemies, weapons,
Honours, styles, missions), so a role or card added to a game without a guide entry fails here.
The same guide feeds the terminal's ``rules`` command and the browser's "How to play" panel.
"""

from __future__ import annotations

import pytest
from conformance_support import GAME_IDS
from test_conformance_text import _raw_keys, problems

import intrigue
from intrigue.engine.guide import Guide


def _must_explain(game_id: str) -> dict[str, set[str]]:
    """Section title -> the keys the game's data says must have an entry there."""
    if game_id == "masquerade-murder":
        from intrigue.games.masquerade_murder.render import COLOUR_STYLES
        from intrigue.games.masquerade_murder.resolution import ROLE_NAMES
        from intrigue.games.masquerade_murder.rules import ALL_CARDS

        return {
            "Roles": set(ROLE_NAMES),
            "Order cards": set(ALL_CARDS),
            "Your night's result": set(COLOUR_STYLES),
        }
    if game_id == "masquerade-ball":
        from intrigue.games.masquerade_ball.board import RANK_LABELS

        return {"Cards": set(RANK_LABELS.values())}
    if game_id == "project-assassination":
        from intrigue.games.project_assassination import board

        return {
            "Enemies": set(board.ENEMIES),
            "Weapons": set(board.WEAPON_STATS),
            "Item cards (blue deck)": set(board.ITEMS),
            "Collectibles (green deck)": set(board.COLLECTIBLES) - set(board.WEAPON_STATS),
        }
    if game_id == "shadows-over-japan":
        from intrigue.games.shadows_over_japan import data

        return {
            "Nobles": set(data.NOBLES),
            "Fighting styles": set(data.STYLES),
            "Honour cards": set(data.HONOUR_KEYS),
            "Missions (on territory cards)": set(data.MISSION_TYPES),
        }
    raise AssertionError(f"{game_id}: say here which of its data the guide must explain")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_guide_has_an_entry_for_everything_the_game_has(game_id: str) -> None:
    guide = intrigue.load(game_id).guide()
    assert isinstance(guide, Guide), f"{game_id} has no guide module"
    assert guide.goal and len(guide.turn) >= 3
    for title, keys in _must_explain(game_id).items():
        missing = keys - guide.keys(title)
        assert not missing, f"{game_id}: no {title!r} entry for {sorted(missing)}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_guide_reads_as_text(game_id: str) -> None:
    guide = intrigue.load(game_id).guide()
    raw = _raw_keys(game_id)
    bad = [(line, found) for line in guide.lines() if (found := problems(line, raw))]
    assert not bad, bad
    names = [e.name for s in guide.sections for e in s.entries]
    keys = [(s.title, e.key) for s in guide.sections for e in s.entries]
    assert len(set(keys)) == len(keys), "an entry appears twice in a section"
    assert all(names) and all(e.text.endswith(".") for s in guide.sections for e in s.entries)


def test_the_json_form_holds_every_entry() -> None:
    guide = intrigue.load("project-assassination").guide()
    data = guide.to_json()
    assert data["goal"] == guide.goal and data["turn"] == list(guide.turn)
    grunt = next(e for s in data["sections"] for e in s["entries"] if e["key"] == "grunt")
    assert (
        grunt["name"] == "Grunt" and "2 HP" in grunt["text"] and "hits you for 3" in grunt["text"]
    )


def test_enemy_entries_carry_the_range_and_damage_the_board_draws_with() -> None:
    from intrigue.games.project_assassination.board import ENEMY_STATS

    data = intrigue.load("project-assassination").guide().to_json()
    enemies = next(s for s in data["sections"] if s["title"] == "Enemies")["entries"]
    assert {e["key"]: e["facts"] for e in enemies} == {
        kind: {"range": stats.range, "damage": stats.damage} for kind, stats in ENEMY_STATS.items()
    }
    # Entries without numbers to draw with carry none.
    assert all("facts" not in e for s in data["sections"][1:] for e in s["entries"])
