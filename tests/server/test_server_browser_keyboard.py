"""The board by keyboard and without colour (issue #17, item 9): every board's squares and
pieces can take the focus and are labelled ("c3: Nun (2♠, masked)"); Enter plays a highlighted
one; after a move the focus stays on the board or the move list; and every pair of highlights
(move and shoot, move and attack, swap...) differs by the pattern of its outline, not only by
its colour."""

from __future__ import annotations

import pytest
from server_driver import TIMEOUT, create_table

GAMES = {
    "masquerade-murder": 5,
    "masquerade-ball": 2,
    "project-assassination": 2,
    "shadows-over-japan": 3,
}
IN_BOARD = "() => document.getElementById('board').contains(document.activeElement)"
FOCUS_KEPT = """() => ['board', 'actions'].some(
  (id) => document.getElementById(id).contains(document.activeElement))"""


def _seat_page(context, web_server, game: str):
    players = GAMES[game]
    table = create_table(
        web_server.url, game=game, players=players, seats=["human"] + ["easy"] * (players - 1)
    )
    page = context.new_page()
    page.goto(table["links"][0]["url"])
    page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
    page.wait_for_selector("#board svg")
    return page


@pytest.mark.parametrize("game", GAMES)
def test_the_tab_key_reaches_labelled_squares_on_every_board(browser, web_server, game):
    context = browser.new_context()
    try:
        page = _seat_page(context, web_server, game)
        for _ in range(120):
            page.keyboard.press("Tab")
            if page.evaluate(IN_BOARD):
                break
        assert page.evaluate(IN_BOARD), "Tab never reached the board"
        label = page.evaluate("document.activeElement.getAttribute('aria-label')")
        assert label and "{" not in label
        # Every focusable thing on the board has a label and a role.
        unlabelled = page.eval_on_selector_all(
            "#board svg [tabindex]",
            "ns => ns.filter(n => !n.getAttribute('aria-label') || !n.getAttribute('role')).length",
        )
        assert unlabelled == 0
        assert page.locator("#board svg [tabindex]").count() >= 20
    finally:
        context.close()


def test_squares_are_labelled_enter_plays_one_and_the_focus_stays_on_the_board(browser, web_server):
    context = browser.new_context()
    try:
        page = _seat_page(context, web_server, "masquerade-ball")
        # A square is labelled with its name and what is on it.
        card = page.locator("svg.mb-palace rect.mb-card[data-place]").first
        assert card.get_attribute("aria-label").startswith(f"{card.get_attribute('data-place')}: ")
        step = page.evaluate("document.body.dataset.step")
        target = page.locator('svg.mb-palace [data-legal="inspect"]').first
        target.focus()
        assert target.get_attribute("role") == "button"
        page.keyboard.press("Enter")
        page.wait_for_function(
            "s => document.body.dataset.step !== s", arg=step, timeout=TIMEOUT * 1000
        )
        page.wait_for_function(FOCUS_KEPT, timeout=TIMEOUT * 1000)
        assert page.evaluate("document.activeElement !== document.body")
    finally:
        context.close()


# Each pair of highlights that can show at once, drawn in the game's board: their outlines'
# dash patterns must differ.
PAIRS = {
    "masquerade-murder": (
        "svg.board",
        "rect",
        [{"data-legal": v} for v in ("place", "swap-from", "swap-to")],
    ),
    "masquerade-ball": (
        "svg.mb-palace",
        "rect",
        [{"data-legal": v} for v in ("to", "attack", "swap")],
    ),
    "project-assassination": (
        "svg.pa-board",
        "rect",
        [
            {"class": "pa-legal", "data-legal": "move"},
            {"class": "pa-legal", "data-legal": "shoot"},
            {"class": "pa-legal", "data-legal": "place"},
            {"class": "pa-legal", "data-legal": "move", "data-danger": "true"},
        ],
    ),
}
DASHES = """([selector, tag, kinds]) => {
  const board = document.querySelector(selector);
  return kinds.map((attrs) => {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    board.append(node);
    const dash = getComputedStyle(node).strokeDasharray;
    node.remove();
    return dash;
  });
}"""


@pytest.mark.parametrize("game", PAIRS)
def test_highlights_differ_by_pattern_not_only_colour(browser, web_server, game):
    context = browser.new_context()
    try:
        page = _seat_page(context, web_server, game)
        dashes = page.evaluate(DASHES, list(PAIRS[game]))
        assert len(set(dashes)) == len(dashes), dashes
        assert "none" not in dashes
    finally:
        context.close()
