"""Your turn, loud and clear, and what happened since (issue #17, items 3 and 4): the tab's title
and icon say when it is your turn; the lines since your last move are summed up above the board
and marked in the log."""

from __future__ import annotations

from server_driver import TIMEOUT, create_table

YOURS_OR_OVER = (
    "s => ['yours', 'over'].includes(document.body.dataset.turn)"
    " && document.body.dataset.step !== s"
)


def test_the_tab_title_and_icon_follow_the_turn_and_the_page_sums_up_the_others_moves(
    browser, web_server
):
    table = create_table(
        web_server.url, seats=["human", "easy", "easy", "easy", "easy"], options={"max_turns": 2}
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(table["links"][0]["url"])
        page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
        assert page.title() == "(●) Your turn — Masquerade Murder"
        assert page.get_attribute("#favicon", "href") == "/static/favicon-turn.svg"
        assert page.locator("#recent").is_hidden()  # nothing has happened since a move yet
        assert page.get_attribute("#prompt", "aria-live") == "polite"

        # Target someone; the bots then move until it is this seat's turn again.
        step = page.evaluate("document.body.dataset.step")
        page.locator("button.action").first.click()
        page.wait_for_function(YOURS_OR_OVER, arg=step, timeout=TIMEOUT * 1000)
        if page.evaluate("document.body.dataset.turn") == "yours":
            assert page.title() == "(●) Your turn — Masquerade Murder"
            recent = page.locator("#recent")
            assert recent.is_visible() and recent.inner_text().startswith("Since your last move:")
            marked = page.locator("#log li.recent")
            assert marked.count() >= 1
            assert marked.last.inner_text() in recent.inner_text()

        while page.evaluate("document.body.dataset.turn") == "yours":
            step = page.evaluate("document.body.dataset.step")
            cells = page.locator('svg.board rect[data-legal="place"]')
            (cells.first if cells.count() else page.locator("button.action").first).click()
            page.wait_for_function(YOURS_OR_OVER, arg=step, timeout=TIMEOUT * 1000)
        assert page.title() == "Game over — Masquerade Murder"
        assert page.get_attribute("#favicon", "href") == "/static/favicon.svg"
        assert page.locator("#recent").is_hidden()
    finally:
        context.close()


def test_every_page_has_an_icon(browser, web_server):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{web_server.url}/")
        href = page.get_attribute('link[rel="icon"]', "href")
        answer = page.request.get(f"{web_server.url}{href}")
        assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    finally:
        context.close()


def test_the_lobby_and_the_table_page_say_what_happens_when_a_player_is_away(browser, web_server):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{web_server.url}/")
        page.wait_for_selector("#game option", state="attached")
        rule = page.locator("#away-rule")
        assert "the game waits for a player who is away" in rule.inner_text()
        assert "has not opened their link yet" in rule.inner_text()
        assert page.locator("#clock-amount-row").is_hidden()  # no clock: no seconds to set
        page.select_option("#clock-mode", "move")
        assert page.locator("#clock-amount-row").is_visible()
        assert "time runs out, the bot makes that move" in rule.inner_text()
        assert "vote" in rule.inner_text() and "for good" in rule.inner_text()

        table = create_table(web_server.url, seats=["human", "easy", "easy", "easy", "easy"])
        page.goto(table["links"][0]["url"])
        page.wait_for_selector("#away-rule:not([hidden])")
        text = page.inner_text("#away-rule")
        assert text.startswith("Away for a while?") and "the game waits" in text
        spectator = context.new_page()
        spectator.goto(table["spectate"])
        spectator.wait_for_function("document.body.dataset.turn === 'waiting'")
        assert spectator.locator("#away-rule").is_hidden()  # nothing to say to a spectator
    finally:
        context.close()
