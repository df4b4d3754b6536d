"""Boards readable at every size (issue 17), in a real browser (Debian's Chromium driven by
Playwright): on a phone every game's seat page shows the prompt and the board on its first
screen, the prompt stays at the top while the page scrolls, and nothing is wider than the
screen. `make test` installs /usr/bin/chromium.
"""

from __future__ import annotations

from typing import Any

import pytest
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


def open_mid_game(context: Any, web_server: Any, game: str, players: int, moves: int) -> Any:
    """Seat 0's page (the others easy bots) after ``moves`` of its moves, on its turn."""
    table = create_table(
        web_server.url, game=game, players=players, seats=["human"] + ["easy"] * (players - 1)
    )
    page = context.new_page()
    page.goto(table["links"][0]["url"])
    page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
    for _ in range(moves):
        play_one_move(page)
    page.wait_for_function(
        "document.body.dataset.turn === 'yours' && document.querySelector('#board > svg')",
        timeout=TIMEOUT * 1000,
    )
    return page


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
        prompt, board = box(page, "#prompt-panel"), box(page, "#board > svg")
        assert on_screen(prompt, PHONE["height"]), prompt
        # The board comes directly under the prompt, its top on the first screen.
        panel = box(page, "#board-panel")
        assert panel["y"] - (prompt["y"] + prompt["height"]) < 16, (prompt, panel)
        assert board["y"] + 100 <= PHONE["height"], board
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # Scrolled well down the page, the prompt is still at the top of the screen.
        page.evaluate("window.scrollTo(0, 700)")
        page.wait_for_function("window.scrollY >= 600")
        prompt = box(page, "#prompt")
        assert on_screen(prompt, PHONE["height"]), prompt
        assert prompt["y"] < 100, prompt
    finally:
        phone.close()
