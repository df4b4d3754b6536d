"""The "How to play" panel and pages in a real browser (issue #17, item 1).

The lobby links each game's rules page; every table page has a "How to play" panel. Both show
the game's guide (`Game.guide()`, the text the terminal's ``rules`` command prints) with an entry
for every role, card, unit, weapon or Honour the guide holds (the guide's own completeness
against the game's data is `tests/conformance/test_conformance_guide.py`).
"""

from __future__ import annotations

from server_driver import create_table

import intrigue

PLAYERS = {
    "masquerade-murder": 5,
    "masquerade-ball": 2,
    "project-assassination": 2,
    "shadows-over-japan": 2,
}
KEYS_JS = "els => els.map(e => e.dataset.key)"


def _all_keys(game_id: str) -> set[str]:
    guide = intrigue.load(game_id).guide()
    return {entry.key for section in guide.sections for entry in section.entries}


def test_the_lobby_links_every_games_rules_page(browser, web_server):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{web_server.url}/")
        page.wait_for_selector("#rules-links a")
        links = page.eval_on_selector_all("#rules-links a", "els => els.map(e => e.dataset.game)")
        assert sorted(links) == sorted(intrigue.engine.game_ids())
        page.locator('#rules-links a[data-game="project-assassination"]').click()
        page.wait_for_selector("#guide dt[data-key]")
        assert "How to play Project Assassination" in page.title()
        keys = page.eval_on_selector_all("#guide dt", KEYS_JS)
        assert set(keys) == _all_keys("project-assassination")
        grunt = page.locator('#guide dd[data-key="grunt"]').inner_text()
        assert "2 HP" in grunt and "hits you for 3" in grunt
    finally:
        context.close()


def test_every_table_page_opens_a_how_to_play_panel(browser, web_server):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        for game_id, players in PLAYERS.items():
            table = create_table(
                web_server.url,
                game=game_id,
                players=players,
                seats=["human"] + ["easy"] * (players - 1),
            )
            page.goto(table["links"][0]["url"])
            page.wait_for_selector("#guide dt[data-key]", state="attached")
            assert not page.locator("#guide").is_visible()  # folded until asked for
            page.locator("#how-to-play summary").click()
            assert page.locator("#guide").is_visible()
            guide = intrigue.load(game_id).guide()
            assert page.locator("#guide .guide-goal").inner_text() == guide.goal
            assert page.locator("#guide .guide-turn li").count() == len(guide.turn)
            keys = page.eval_on_selector_all("#guide dt", KEYS_JS)
            assert set(keys) == _all_keys(game_id), game_id
    finally:
        context.close()
