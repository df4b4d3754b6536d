"""Accessibility (issue #17, item 9): axe-core, injected by Playwright, finds no serious or
critical violation on any page: the lobby, a rules page, every game's seat page and table
screen, and a finished game's replay. `make test` installs axe-core with npm
(``node_modules/axe-core``); without it this test is skipped."""

from __future__ import annotations

from pathlib import Path

import pytest
from server_driver import TIMEOUT, create_table, play_one_move

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PLAYERS = {
    "masquerade-murder": 5,
    "masquerade-ball": 2,
    "project-assassination": 2,
    "shadows-over-japan": 3,
}
SERIOUS = ("serious", "critical")
RUN = """async () => (await axe.run(document)).violations.map((v) => ({
  id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }))"""


def _paths(base: str) -> list[str]:
    paths = ["/", "/rules/shadows-over-japan"]
    for game, players in PLAYERS.items():
        table = create_table(
            base, game=game, players=players, seats=["human"] + ["easy"] * (players - 1)
        )
        paths += [table["links"][0]["url"].removeprefix(base), f"/table/{table['id']}/screen"]
    finished = create_table(base, seats=["easy"] * 5, options={"max_turns": 1})
    paths.append(f"/table/{finished['id']}/replay")
    return paths


def test_no_page_has_a_serious_accessibility_violation(browser, web_server):
    if not AXE.exists():
        pytest.skip(f"{AXE} is missing (make test installs axe-core with npm)")
    script = AXE.read_text()
    context = browser.new_context()
    found = {}
    try:
        page = context.new_page()
        for path in _paths(web_server.url):
            page.goto(web_server.url + path)
            page.wait_for_load_state("networkidle", timeout=TIMEOUT * 1000)
            page.add_script_tag(content=script)
            bad = [v for v in page.evaluate(RUN) if v["impact"] in SERIOUS]
            if bad:
                found[path.split("#")[0]] = bad
    finally:
        context.close()
    assert not found, found


@pytest.mark.parametrize("game", PLAYERS)
def test_no_serious_violation_in_mid_game(browser, web_server, game):
    """The seat page as a game goes on (a long log, marks of the last moves, boards by
    keyboard, highlights), checked after each of several moves."""
    if not AXE.exists():
        pytest.skip(f"{AXE} is missing (make test installs axe-core with npm)")
    players = PLAYERS[game]
    table = create_table(
        web_server.url, game=game, players=players, seats=["human"] + ["easy"] * (players - 1)
    )
    script = AXE.read_text()
    context = browser.new_context()
    found: dict[str, list] = {}
    try:
        page = context.new_page()
        page.goto(table["links"][0]["url"])
        page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
        for _ in range(6):
            page.add_script_tag(content=script)
            for violation in page.evaluate(RUN):
                if violation["impact"] in SERIOUS:
                    found.setdefault(violation["id"], violation["nodes"])
            play_one_move(page)
            if page.evaluate("document.body.dataset.turn") == "over":
                break
    finally:
        context.close()
    assert not found, found
