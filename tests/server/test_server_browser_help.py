"""Help on the board (issue #17, item 1): pointing at, focusing or tapping a thing on any game's
board says what it is in a line under the board, from the game's guide (the text of "How to
play" and of the terminal's `rules`); Project Assassination marks an enemy's range while you
consider the enemy or a move into it; Masquerade Murder says what GREY, GREEN and RED mean where
your results are shown."""

from __future__ import annotations

import httpx
import pytest
from server_driver import TIMEOUT, create_table, play_one_move

from intrigue.games.project_assassination.board import (
    BETWEEN,
    CELL,
    CELLS,
    ENEMY_STATS,
    NAMES,
    TUNNELS,
)

GAMES = {
    "masquerade-murder": 5,
    "masquerade-ball": 2,
    "project-assassination": 2,
    "shadows-over-japan": 3,
}
HELPS = "() => [...document.querySelectorAll('#board [data-help]')].map((n) => n.dataset.help)"


def _guide_texts(base: str, game: str) -> dict[str, str]:
    games = httpx.get(f"{base}/api/games", timeout=TIMEOUT).json()
    guide = next(g for g in games if g["id"] == game)["guide"]
    return {e["key"]: e["text"] for s in guide["sections"] for e in s["entries"]}


def _open(context, url: str):
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
    page.wait_for_selector("#guide dt", state="attached")  # the guide has loaded
    return page


@pytest.mark.parametrize("game", GAMES)
def test_things_on_every_board_explain_themselves_from_the_guide(browser, web_server, game):
    players = GAMES[game]
    table = create_table(
        web_server.url, game=game, players=players, seats=["human"] + ["easy"] * (players - 1)
    )
    texts = _guide_texts(web_server.url, game)
    context = browser.new_context()
    try:
        page = _open(context, table["links"][0]["url"])
        # The board may be drawn a moment after the turn is announced: wait for its helps.
        page.wait_for_function(
            f"texts => {{ const helps = ({HELPS})();"
            " return texts.filter((t) => helps.some((h) => h.includes(t))).length >= 2; }",
            arg=list(texts.values()),
            timeout=TIMEOUT * 1000,
        )
        helps = page.evaluate(HELPS)
        explained = {key for key, text in texts.items() if any(text in h for h in helps)}
        assert len(explained) >= 2, (explained, helps[:5])
        # Pointing at a thing shows its help under the board.
        thing = page.locator("#board [data-help]").last
        thing.hover(force=True)
        page.wait_for_function(
            "t => document.getElementById('board-help').textContent === t",
            arg=thing.get_attribute("data-help"),
            timeout=TIMEOUT * 1000,
        )
    finally:
        context.close()


def _expected_reach(view: dict, enemy: dict) -> set[str]:
    """The squares an enemy hits, by the engine's own tables (as render._danger tests them)."""
    stats = ENEMY_STATS[enemy["kind"]]
    if not stats.range or enemy["paralysed"]:
        return set()
    at = CELL[enemy["cell"]]
    blocked = {CELL[c] for c in view["obstacles"]}
    out = set()
    for end in range(CELLS):
        between = BETWEEN[at * CELLS + end]
        if end in blocked or between is None or len(between) >= stats.range:
            continue
        if not blocked & set(between):
            out.add(NAMES[end])
    return out


def test_an_enemys_range_is_marked_while_you_consider_it(browser, web_server):
    table = create_table(
        web_server.url, game="project-assassination", players=2, seats=["human", "easy"]
    )
    live = web_server.hub.tables[table["id"]]
    context = browser.new_context()
    try:
        page = _open(context, table["links"][0]["url"])
        armed = None
        for _ in range(60):
            view = live.state.view(0)
            armed = next((e for e in view["enemies"] if _expected_reach(view, e)), None)
            if armed and page.evaluate("document.body.dataset.turn") == "yours":
                break
            play_one_move(page)
        assert armed, "no enemy with a range came onto the bar"
        enemy = page.locator(f'svg.pa-board [data-enemy][data-piece-at="{armed["cell"]}"]')
        enemy.hover(force=True)
        page.wait_for_selector("svg.pa-board .pa-range")
        marked = set(
            page.eval_on_selector_all(".pa-range rect", "ns => ns.map(n => n.dataset.cell)")
        )
        assert marked == _expected_reach(live.state.view(0), armed)
        help_line = page.inner_text("#board-help")
        assert "straight line (obstacles block)" in help_line
        page.mouse.move(0, 0)  # away from the board: the range goes
        page.wait_for_selector("svg.pa-board .pa-range", state="detached")
        # A move that ends in danger (if one is offered): the ranges marked hold its square.
        danger = page.locator("svg.pa-board .pa-legal[data-danger]")
        if danger.count():
            cell = danger.first.get_attribute("data-cell")
            danger.first.hover(force=True)
            page.wait_for_selector("svg.pa-board .pa-range")
            marked = page.eval_on_selector_all(
                ".pa-range rect", "ns => ns.map(n => n.dataset.cell)"
            )
            me = live.state.view(0)["players"][0]
            end = me["spawn"] if me["point"] == cell else NAMES[TUNNELS.get(CELL[cell], CELL[cell])]
            assert end in marked
    finally:
        context.close()


def test_murder_says_what_each_result_colour_means(browser, web_server):
    table = create_table(web_server.url, seats=["human", "easy", "easy", "easy", "easy"])
    texts = _guide_texts(web_server.url, "masquerade-murder")
    context = browser.new_context()
    try:
        page = _open(context, table["links"][0]["url"])
        results = page.locator("#private .results li")
        for _ in range(30):
            if results.count() or page.evaluate("document.body.dataset.turn") == "over":
                break
            play_one_move(page)
        assert results.count() >= 1
        colour = results.first.get_attribute("data-colour")
        assert colour in ("GREY", "GREEN", "RED")
        assert texts[colour] in results.first.inner_text()
        role = page.get_attribute("#your-role", "title")
        assert role and role.split(": ", 1)[1] in texts.values()
    finally:
        context.close()
