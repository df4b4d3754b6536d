"""Learning by playing in a real browser (Debian's Chromium driven by Playwright): the lobby's
*First game* button opens a seat against an easy bot whose page shows a hint line, the hinted
move's button is highlighted (and its square on the board), following it works, and unticking
*Show hints* hides the line until it is ticked again. Project Assassination: two players, one
to move at a time, so the seat's turn comes back after the bot's. Every wait is on a condition.
"""

from __future__ import annotations

from server_driver import TIMEOUT, ThreadServer, wait_until

from intrigue.bots import make_bot
from intrigue.bots.advice import ADVICE_SEED
from intrigue.engine import Rng

GAME = "project-assassination"
WAIT = TIMEOUT * 1000
BOARD_MARKS = """a => {
  const nodes = [...document.querySelectorAll("svg.pa-board [data-actions]")];
  const ids = (list) => list.map((n) => n.dataset.actions).sort();
  return { hinted: ids(nodes.filter((n) => n.classList.contains("hinted"))),
           playing: ids(nodes.filter((n) => n.dataset.actions.split("|").includes(a))) };
}"""
HINT_SHOWN = "s => document.body.dataset.step !== s && !document.getElementById('hint-line').hidden"


def _table(server: ThreadServer, page) -> object:
    table_id = page.url.split("/table/")[1].split("#")[0]
    return server.hub.tables[table_id]


def _expected(table) -> str:
    state = table.state
    return str(make_bot("medium").choose(state.view(0), state.legal_actions(0), Rng(ADVICE_SEED)))


def test_first_game_shows_a_hint_highlights_its_move_and_can_be_switched_off(browser, web_server):
    page = browser.new_page()
    try:
        page.goto(f"{web_server.url}/")
        button = page.locator(f'button.first-game[data-game="{GAME}"]')
        button.wait_for(timeout=WAIT)
        assert "hint" in page.locator("#first-game-intro").inner_text()
        button.click()
        page.wait_for_url("**/table/**", timeout=WAIT)
        table = _table(web_server, page)
        assert table.hints.enabled and table.bot_speed == "slow" and table.clock.limit is None
        assert [s.kind for s in table.seats.values()] == ["human", "bot"]
        for _ in range(2):  # follow the hints for two turns
            page.wait_for_function(HINT_SHOWN, arg="", timeout=WAIT)
            step = page.evaluate("document.body.dataset.step")
            expected = _expected(table)
            hinted = page.locator(f'button.hinted[data-action="{expected}"]')
            assert hinted.count() == 1 and hinted.is_visible()
            words = hinted.evaluate("b => b.firstChild.textContent")
            assert words in page.locator("#hint-line").inner_text()
            # On the board too: every square or deck that plays the move, and nothing else.
            marks = page.evaluate(BOARD_MARKS, expected)
            assert marks["hinted"] == marks["playing"], marks
            hinted.click()
            page.wait_for_function(HINT_SHOWN, arg=step, timeout=WAIT)
        page.locator("#show-hints").uncheck()
        wait_until(lambda: 0 in table.hints.off, "the server to hear that hints are off")
        page.wait_for_function(
            "() => document.getElementById('hint-line').hidden"
            " && !document.querySelector('.hinted')",
            timeout=WAIT,
        )
        page.wait_for_function("() => document.body.dataset.turn === 'yours'", timeout=WAIT)
        page.locator("#show-hints").check()
        page.wait_for_function(
            "() => !document.getElementById('hint-line').hidden"
            " && document.querySelector('button.hinted') !== null",
            timeout=WAIT,
        )
        wait_until(lambda: not table.hints.off, "the server to hear that hints are on again")
    finally:
        page.close()
