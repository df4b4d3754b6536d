"""The replay page in a real browser (Debian's Chromium driven by Playwright): a finished game's
table page links to its replay, which steps forward and back and changes whose eyes it uses."""

from __future__ import annotations

from server_driver import TIMEOUT, create_table, wait_until

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]


def shown(page, step: int, perspective: str) -> None:
    """Wait until the page shows ``step`` as ``perspective`` saw it."""
    page.wait_for_function(
        "([s, p]) => document.body.dataset.replayStep === s"
        " && document.body.dataset.perspective === p",
        arg=[str(step), perspective],
        timeout=TIMEOUT * 1000,
    )


def test_the_replay_page_steps_through_a_finished_game(browser, web_server):
    table = create_table(
        web_server.url, seats=["easy"] * 5, options={"roles": ROLES, "max_turns": 1}
    )
    live = web_server.hub.tables[table["id"]]
    wait_until(lambda: live.state.is_over, "the bots to finish the game")
    length = len(live.state.history)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(table["spectate"])
        page.locator("#replay-link").click()  # shown once the game is over
        shown(page, 0, "all")
        assert page.url.endswith(f"/table/{table['id']}/replay?seat=all&step=0")
        assert page.inner_text("#replay-caption") == f"Step 0 of {length}: the set-up."
        # Everything revealed: every seat's role, on the game's own board.
        assert page.locator(".seat-secrets").count() == 5
        assert page.locator("svg.board").count() == 1
        assert "Constable" in page.inner_text("#private")
        # The board zooms as on the table page, and stays zoomed from step to step.
        page.click("#zoom button.zoom-in")
        page.wait_for_function("document.getElementById('board').dataset.zoom === '1.5'")

        page.click("#replay-next")
        shown(page, 1, "all")
        first_mover = live.state.history[0][0]
        assert page.inner_text("#replay-caption").startswith(
            f"Step 1 of {length}: seat {first_mover}"
        )
        page.click("#replay-prev")
        shown(page, 0, "all")
        page.keyboard.press("ArrowRight")
        shown(page, 1, "all")
        assert page.get_attribute("#board", "data-zoom") == "1.5"

        # Seat 1's eyes: its own role only, and seat 0's target stays unknown.
        page.select_option("#replay-seat", "1")
        shown(page, 1, "1")
        assert page.inner_text("#your-role") == "Thug"
        assert "constable" not in page.inner_text("body").lower()
        page.evaluate(
            "n => { const s = document.getElementById('replay-slider');"
            " s.value = n; s.dispatchEvent(new Event('input')); }",
            length // 2,
        )
        shown(page, length // 2, "1")
        assert "constable" not in page.inner_text("body").lower()

        page.click("#replay-last")
        shown(page, length, "1")
        assert page.locator("#outcome").is_visible()
        assert page.inner_text("#outcome").startswith(("Seat 1 wins", "Seat 1 loses"))
        assert page.is_disabled("#replay-next") and not page.is_disabled("#replay-first")
        assert "constable" in page.inner_text("body").lower()  # the end reveals the roles
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_the_replay_page_of_a_game_still_on_says_so(browser, web_server):
    table = create_table(web_server.url, seats=["human"] * 5, options={"roles": ROLES})
    page = browser.new_page()
    try:
        page.goto(f"{web_server.url}/table/{table['id']}/replay")
        page.wait_for_function("document.body.dataset.replayStep === 'unavailable'")
        assert "not over" in page.inner_text("#error")
        assert page.is_disabled("#replay-next")
        assert page.locator("svg.board").count() == 0
    finally:
        page.close()
