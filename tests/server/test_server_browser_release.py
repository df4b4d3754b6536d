"""No needless clicks (issue #17, item 7): the Ball's release windows can be skipped for good
with a setting on the seat page; left off, the window waits for the player's choice."""

from __future__ import annotations

import time

from server_driver import TIMEOUT, create_table

# North's prison holds South's Queen: after North's turn a release window opens for North.
SETUP = ["0:k@c3", "1:q@prison0", "1:k@f7", "0:2@a1"]


def _table(base: str) -> dict:
    return create_table(
        base,
        game="masquerade-ball",
        seats=["human", "human"],
        options={"setup": SETUP, "first": 0},
    )


def _play(page, *actions: str) -> None:
    for action in actions:
        step = page.evaluate("document.body.dataset.step")
        page.evaluate(f"document.querySelector('button[data-action=\"{action}\"]').click()")
        page.wait_for_function(
            "s => document.body.dataset.step !== s", arg=step, timeout=TIMEOUT * 1000
        )


def test_the_release_window_passes_by_itself_when_the_setting_says_so(browser, web_server):
    context = browser.new_context()
    try:
        for skip in (True, False):
            table = _table(web_server.url)
            page = context.new_page()
            page.goto(table["links"][0]["url"])
            page.wait_for_selector("#skip-releases")
            if page.is_checked("#skip-releases") != skip:
                page.click("#skip-releases")  # kept in this browser for the next page too
            _play(page, "inspect c3", "move c3 c4", "end")
            live = web_server.hub.tables[table["id"]]
            if skip:
                # Each move publishes a new state: read the table's latest one every time (a
                # state read once, right after "end", stays in the release window for good).
                deadline = time.monotonic() + TIMEOUT
                while live.state.phase == "release" and time.monotonic() < deadline:
                    time.sleep(0.05)
                state = live.state
                assert [str(a) for s, a in state.history][-1] == "pass"
                assert state.to_move == (1,)
            else:
                page.wait_for_function("document.body.dataset.turn === 'yours'")
                time.sleep(0.5)  # a page that passed by itself would have done so by now
                state = live.state
                assert state.phase == "release" and state.to_move == (0,)
                assert page.locator('button[data-action="release 0"]').count() == 1
            page.close()
    finally:
        context.close()
