"""A real browser (Debian's Chromium driven by Playwright) plays Masquerade Murder by clicking.

Seat 0 plays on a phone-sized screen; seat 1 is a second human in another browser context,
which must never be shown seat 0's role. `make test` installs /usr/bin/chromium.
"""

from __future__ import annotations

import json
import time

from server_driver import TIMEOUT, create_table, expected_verdict, record_frames

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
GAME_DEADLINE = 90.0  # a guard against a hang, not a measured quantity


def turn(page) -> str:
    return str(page.evaluate("document.body.dataset.turn"))


def click_a_move(page) -> None:
    """Click a highlighted seat on the board if there is one, else the first move button."""
    step = page.evaluate("document.body.dataset.step")
    cells = page.locator('svg.board rect[data-legal="place"]')
    if cells.count():
        cells.first.click()
    else:
        page.locator("button.action").first.click()
    # Wait until the server has answered the click (the page leaves its pending state).
    page.wait_for_function(
        "s => document.body.dataset.turn !== 'pending' && document.body.dataset.step !== s",
        arg=step,
        timeout=TIMEOUT * 1000,
    )


def test_a_human_plays_a_whole_game_in_the_browser(browser, web_server):
    table = create_table(
        web_server.url,
        seats=["human", "human", "easy", "easy", "easy"],
        options={"roles": ROLES, "max_turns": 2},
    )
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    other = browser.new_context()
    try:
        me, friend = phone.new_page(), other.new_page()
        friend_frames = record_frames(friend)
        me.goto(table["links"][0]["url"])
        friend.goto(table["links"][1]["url"])
        me.wait_for_selector("#your-role")
        friend.wait_for_selector("#your-role")
        assert me.inner_text("#your-role") == "Constable"
        assert friend.inner_text("#your-role") == "Thug"
        assert "constable" not in friend.inner_text("body").lower()
        # Nothing wider than the phone's screen.
        assert me.evaluate("document.documentElement.scrollWidth") <= 390

        placed_by_clicking = play_both(me, friend)

        assert placed_by_clicking >= 1
        assert me.locator("#outcome").is_visible()
        assert me.inner_text("#outcome").startswith(expected_verdict(web_server, table["id"], 0))
        assert "Unmasked: seat 0 Constable, seat 1 Thug, seat 2 Seductress" in me.inner_text(
            "#outcome"
        )
        assert me.title() == "Game over — Masquerade Murder"
        assert me.locator("#log li").count() > 10
        # Seat 1 never received seat 0's role while the game was on.
        assert friend_frames
        for frame in friend_frames:
            if frame.get("view") and not frame["view"]["is_over"]:
                assert "constable" not in json.dumps(frame).lower()
    finally:
        phone.close()
        other.close()


def play_both(me, friend) -> int:
    """Click for whichever seat is to move until both pages show the end; returns how many
    cubes seat 0 placed by clicking the board."""
    placed = 0
    deadline = time.monotonic() + GAME_DEADLINE
    while not (turn(me) == "over" and turn(friend) == "over"):
        assert time.monotonic() < deadline, "the game did not finish"
        moved = False
        for page in (me, friend):
            if turn(page) == "yours":
                if page is me and me.locator('svg.board rect[data-legal="place"]').count():
                    placed += 1
                click_a_move(page)
                moved = True
        # Read atomically: the page may reach the end (and unmask everyone) at any moment.
        state, text = friend.evaluate("() => [document.body.dataset.turn, document.body.innerText]")
        if state != "over":
            assert "constable" not in text.lower()
        if not moved:
            me.wait_for_timeout(30)
    return placed
