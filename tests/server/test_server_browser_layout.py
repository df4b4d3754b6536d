"""Boards readable at every size (issue 17), in a real browser (Debian's Chromium driven by
Playwright): on a phone every game's seat page shows the prompt and the board on its first
screen, the prompt stays at the top while the page scrolls, nothing is wider than the screen
and its buttons are at least 40 px each way; zooming the dense boards (the Shadows map, the
four-player Ball) makes their highlights big enough to tap, inside the board's own box, and
they still play by click; at 1280 px every board's labels are at least 11 px and the side
tables are whole. `make test` installs /usr/bin/chromium.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from server_driver import TIMEOUT, create_table, play_one_move

PHONE = {"width": 390, "height": 844}
# game, players, the seat's own moves played before the checks (mid-game). Masquerade Murder
# is checked on its first turn: its seat may leave play before it moves again.
GAMES = [
    ("masquerade-murder", 5, 0),
    ("masquerade-ball", 2, 2),
    ("masquerade-ball", 4, 2),
    ("project-assassination", 2, 2),
    ("shadows-over-japan", 3, 2),
]
IDS = [f"{game}-{players}p" for game, players, _ in GAMES]


# Buttons, lists, fields and checkboxes' labels a thumb taps on the page (the board's own are
# zoomed, below).
SMALL_TARGETS_JS = """() => [...document.querySelectorAll(
    'main :is(button, summary, select, input:not([type=checkbox]), label:has(> [type=checkbox]))')]
  .flatMap(b => {
  const r = b.getBoundingClientRect();
  if (!r.width || !r.height || Math.min(r.width, r.height) >= 40) return [];
  return [`${b.tagName} ${b.textContent.trim().slice(0, 30)}: ${r.width}x${r.height}`];
})"""


# What the page showed, for the message of a wait that timed out.
PAGE_STATE_JS = """() => ({turn: document.body.dataset.turn, step: document.body.dataset.step,
  prompt: document.querySelector('#prompt')?.textContent.trim().slice(0, 200),
  board: !!document.querySelector('#board .zoom-box > svg'),
  buttons: [...document.querySelectorAll('#actions > button.action')]
    .map(b => b.textContent.trim()).slice(0, 8)})"""


def open_mid_game(context: Any, web_server: Any, game: str, players: int, moves: int) -> Any:
    """Seat 0's page (the others easy bots) after ``moves`` of its moves, on its turn. The
    deal is random: a game over by then (the seat's moves are any legal ones) is dealt anew."""
    for _ in range(3):
        seats = ["human"] + ["easy"] * (players - 1)
        table = create_table(web_server.url, game=game, players=players, seats=seats)
        page = context.new_page()
        page.goto(table["links"][0]["url"])
        page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
        for _ in range(moves):
            play_one_move(page)
        if page.evaluate("document.body.dataset.turn") == "over":
            page.close()
            continue
        try:
            page.wait_for_function(
                "document.body.dataset.turn === 'yours'"
                " && document.querySelector('#board .zoom-box > svg')",
                timeout=TIMEOUT * 1000,
            )
        except PlaywrightTimeout as late:
            raise AssertionError(
                f"not the seat's turn with its board: {page.evaluate(PAGE_STATE_JS)}"
            ) from late
        return page
    raise AssertionError("three games in a row were over before the seat's turn came again")


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def on_screen(found: dict[str, float], height: float) -> bool:
    """Whether a bounding box is wholly inside the window's height."""
    return found["y"] >= 0 and found["y"] + found["height"] <= height


@pytest.mark.parametrize(("game", "players", "moves"), GAMES, ids=IDS)
def test_a_phone_shows_the_prompt_and_the_board_first_and_keeps_the_prompt(
    browser, web_server, game, players, moves
):
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = open_mid_game(phone, web_server, game, players, moves)
        assert page.inner_text("#prompt").strip()
        prompt, board = box(page, "#prompt-panel"), box(page, "#board .zoom-box > svg")
        assert on_screen(prompt, PHONE["height"]), prompt
        # The board comes directly under the prompt, its top on the first screen.
        panel = box(page, "#board-panel")
        assert panel["y"] - (prompt["y"] + prompt["height"]) < 16, (prompt, panel)
        assert board["y"] + 100 <= PHONE["height"], board
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.evaluate(SMALL_TARGETS_JS) == []

        # Scrolled well down the page, the prompt is still at the top of the screen.
        page.evaluate("window.scrollTo(0, 700)")
        page.wait_for_function("window.scrollY >= 600")
        prompt = box(page, "#prompt")
        assert on_screen(prompt, PHONE["height"]), prompt
        assert prompt["y"] < 100, prompt
    finally:
        phone.close()


# -- zoom and pan ------------------------------------------------------------------------------
TAP = 40  # px: the least width and height of a highlighted thing meant to be tapped
TAP_SIZES_JS = """() => [...document.querySelectorAll('#board [data-legal]')]
  .map(n => n.getBoundingClientRect()).filter(r => r.width && r.height)
  .map(r => Math.min(r.width, r.height))"""
DENSE = [("shadows-over-japan", 3, 2), ("masquerade-ball", 4, 2)]


def zoom_in_until_tappable(page: Any) -> float:
    """Press Zoom in until every highlighted thing on the board is at least TAP px each way;
    returns the zoom reached."""
    for _ in range(4):
        sizes = page.evaluate(TAP_SIZES_JS)
        assert sizes, "nothing on the board to tap"
        if min(sizes) >= TAP:
            break
        zoom = float(page.get_attribute("#board", "data-zoom") or 1)
        page.locator("#zoom button.zoom-in").click()
        page.wait_for_function("z => +document.getElementById('board').dataset.zoom > z", arg=zoom)
    assert min(page.evaluate(TAP_SIZES_JS)) >= TAP
    return float(page.get_attribute("#board", "data-zoom") or 1)


def assert_zoomed_inside_the_box(page: Any, zoom: float) -> None:
    """The drawing is `zoom` times wider than its box allows, the box and the page are not."""
    widths = page.evaluate(
        """() => { const box = document.querySelector('#board .zoom-box');
          return [box.getBoundingClientRect().width, box.scrollWidth,
                  document.documentElement.scrollWidth]; }"""
    )
    box_width, drawn, page_width = widths
    assert page_width <= PHONE["width"]
    assert box_width <= PHONE["width"]
    assert drawn >= box_width * zoom * 0.95, widths


def click_until_played(page: Any) -> None:
    """Play a move by clicking the board only: a highlighted thing that plays at once, else a
    piece and then where it goes (a choice the map offers for it, if any)."""
    step = page.evaluate("document.body.dataset.step")
    for _ in range(4):
        direct = page.locator(
            "#board [data-legal]:not([data-legal='from']):not([data-legal='selected'])"
        )
        if direct.count():
            direct.first.click()
        else:
            page.locator("#board [data-legal='from']").first.click()
        choices = page.locator("#sj-choices button.choice")
        if choices.count():
            choices.first.click()
        if page.evaluate("s => document.body.dataset.step !== s", step):
            break
        if page.evaluate("document.body.dataset.turn === 'pending'"):
            break
    page.wait_for_function(
        "s => document.body.dataset.turn !== 'pending' && document.body.dataset.step !== s",
        arg=step,
        timeout=TIMEOUT * 1000,
    )
    assert page.inner_text("#error") == ""


@pytest.mark.parametrize(("game", "players", "moves"), DENSE, ids=["shadows", "ball-4p"])
def test_zooming_a_dense_board_on_a_phone_makes_its_targets_tappable(
    browser, web_server, game, players, moves
):
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = open_mid_game(phone, web_server, game, players, moves)
        for _ in range(20):  # on to a turn with moves on the board (not only buttons)
            if page.locator("#board [data-legal]").count():
                break
            play_one_move(page)
        assert page.get_attribute("#board", "data-zoom") == "1"
        assert page.locator("#zoom").is_visible()
        zoom = zoom_in_until_tappable(page)
        assert zoom > 1
        assert_zoomed_inside_the_box(page, zoom)

        # A move played by clicking the zoomed board; the new drawing keeps the zoom.
        click_until_played(page)
        page.wait_for_function("document.querySelector('#board > .zoom-box > svg')")
        assert page.get_attribute("#board", "data-zoom") == str(zoom).removesuffix(".0")
        assert_zoomed_inside_the_box(page, zoom)

        # By keyboard: the zoom buttons are buttons; Fit shows the whole board again.
        page.locator("#zoom button.zoom-reset").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("document.getElementById('board').dataset.zoom === '1'")
        page.locator("#zoom button.zoom-in").focus()
        page.keyboard.press("Enter")
        page.wait_for_function("document.getElementById('board').dataset.zoom === '1.5'")
    finally:
        phone.close()


# -- a laptop's screen ---------------------------------------------------------------------------
LAPTOP = {"width": 1280, "height": 800}
SMALL_LABELS_JS = """() => [...document.querySelectorAll('#board svg text')].flatMap(t => {
  const r = t.getBoundingClientRect();
  if (!r.width || !r.height || !t.textContent.trim()) return [];
  const m = t.getScreenCTM();  // the drawing's scale on the screen (its viewBox, any zoom)
  const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
  const name = `${t.textContent.trim()} (${t.getAttribute('class')})`;
  return px < 11 ? [`${name}: ${px.toFixed(2)} px`] : [];
})"""
CLIPPED_JS = """() => [...document.querySelectorAll(
    '#side, #players, #private, #side .scroll, #chat, #log, #status-panel')]
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.id || e.className)"""


@pytest.mark.parametrize(("game", "players", "moves"), GAMES, ids=IDS)
def test_a_laptop_shows_every_board_label_at_11_px_and_side_tables_whole(
    browser, web_server, game, players, moves
):
    laptop = browser.new_context(viewport=LAPTOP)
    try:
        page = open_mid_game(laptop, web_server, game, players, moves)
        labels = page.evaluate("document.querySelectorAll('#board svg text').length")
        assert labels > 10
        assert page.evaluate(SMALL_LABELS_JS) == []
        assert page.evaluate(CLIPPED_JS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    finally:
        laptop.close()
