"""Browser tests for playing together: the table screen shows only the public view, a phone
shows its seat's prompt (kept in view) with the board under it, and Rematch jumps to the new
seat, which the lobby then lists under "Your tables", your turn first."""

from __future__ import annotations

import itertools
import json
import re
import time

from server_driver import TIMEOUT, Player, create_table, first_action, is_over, play_until

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
BOTS = ["easy"] * 4
GAME_DEADLINE = 90.0  # a guard against a hang, not a measured quantity


def record_frames(page) -> list[dict]:
    frames: list[dict] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))),
    )
    return frames


def screen_state(page) -> tuple[str, str]:
    """The screen's turn state and text, read together (the end may come at any moment)."""
    return tuple(page.evaluate("() => [document.body.dataset.turn, document.body.innerText]"))


def test_the_table_screen_shows_only_the_public_view(browser, web_server):
    table = create_table(
        web_server.url, seats=["human", *BOTS], options={"roles": ROLES, "max_turns": 2}
    )
    token = table["links"][0]["token"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        frames = record_frames(page)
        # Even with a seat's token in the address, the screen connects as a spectator.
        page.goto(f"{web_server.url}/table/{table['id']}/screen#token={token}")
        page.wait_for_selector("svg.board")
        assert page.locator("svg.board").bounding_box()["width"] > 600  # drawn large
        join = page.inner_text("#join")
        assert "phone" in join and f"/table/{table['id']}/screen" in join

        player = Player(web_server.ws_url, table["id"], token)
        try:
            player.sync()
            checked = play_watching(page, player)
        finally:
            player.close()
        assert checked > 3

        page.wait_for_function("document.body.dataset.turn === 'over'", timeout=TIMEOUT * 1000)
        _state, text = screen_state(page)
        # At the end the roles are unmasked for everyone, on the screen too.
        assert all(role.capitalize() in text for role in ROLES)
        assert page.locator("#your-role").count() == 0 and token not in page.content()
        assert frames
        for frame in frames:
            assert frame.get("seat") is None and not frame.get("legal_actions")
            if frame.get("view") and not frame["view"]["is_over"]:
                assert frame["view"]["you"] is None
                assert not [role for role in ROLES if role in json.dumps(frame).lower()]
    finally:
        context.close()


def play_watching(page, player: Player) -> int:
    """Play seat 0's first legal move until the end, reading the screen after every message;
    returns how many times the screen was checked while the game was on."""
    checked = 0
    deadline = time.monotonic() + GAME_DEADLINE
    while not is_over(player.latest):
        assert time.monotonic() < deadline, "the game did not finish"
        if player.latest["legal_actions"]:
            assert player.act(first_action(player.latest))["type"] != "error"
        else:
            player.recv()
        state, text = screen_state(page)
        if state not in ("over", "connecting"):
            checked += 1
            assert "Waiting for" in text or "to choose" in text
            assert not [role for role in ROLES if role in text.lower()], text
    return checked


def test_a_phone_shows_the_prompt_with_the_board_under_it_then_moves_and_secret(
    browser, web_server
):
    # Issue 17: on a phone the prompt stays in view with the board directly under it; the
    # moves and the seat's secret come right after the board (they used to come before it,
    # which pushed the board below the fold).
    table = create_table(web_server.url, seats=["human", *BOTS], options={"roles": ROLES})
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = phone.new_page()
        page.goto(table["links"][0]["url"])
        page.wait_for_selector("#your-role")
        page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
        boxes = {
            name: page.locator(selector).first.bounding_box()
            for name, selector in {
                "prompt": "#prompt-panel",
                "board": "#board-panel",
                "move": "button.action",
                "role": "#your-role",
            }.items()
        }
        assert page.inner_text("#your-role") == "Constable"
        assert page.inner_text("#prompt").strip()
        order = ["prompt", "board", "move", "role"]
        for above, below in itertools.pairwise(order):
            assert boxes[above]["y"] < boxes[below]["y"], (above, below, boxes)
        # The board starts right under the prompt, on the first screen.
        assert boxes["board"]["y"] - (boxes["prompt"]["y"] + boxes["prompt"]["height"]) < 16
        assert boxes["board"]["y"] + 100 <= 844
        # Scrolled down to the secret, the prompt is still at the top of the screen.
        page.locator("#your-role").scroll_into_view_if_needed()
        assert page.evaluate("window.scrollY") > 0
        prompt = page.locator("#prompt").bounding_box()
        assert prompt["y"] >= 0 and prompt["y"] + prompt["height"] <= 844, prompt
        role = page.locator("#your-role").bounding_box()
        assert role["y"] >= prompt["y"] + prompt["height"], (role, prompt)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        phone.close()


def test_rematch_in_the_browser_jumps_to_the_new_seat_and_the_lobby_lists_it(browser, web_server):
    table = create_table(web_server.url, seats=["human", *BOTS], options={"max_turns": 1})
    player = Player(web_server.ws_url, table["id"], table["links"][0]["token"])
    try:
        player.sync()
        play_until(player, is_over, first_action)
    finally:
        player.close()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(table["links"][0]["url"])
        page.locator("#rematch-button").click()
        old = re.escape(table["id"])
        page.wait_for_url(
            re.compile(rf".*/table/(?!{old})[0-9a-f]+#token=.+"), timeout=TIMEOUT * 1000
        )
        page.wait_for_selector("#your-role")
        new_id = page.url.split("/table/")[1].split("#")[0]
        assert page.inner_text("#who").startswith("you are seat")

        page.goto(f"{web_server.url}/")
        page.wait_for_selector("#my-tables tbody tr")
        page.wait_for_function(
            "document.querySelectorAll('#my-tables tbody tr').length === 2", timeout=TIMEOUT * 1000
        )
        rows = page.locator("#my-tables tbody tr")
        assert rows.nth(0).get_attribute("data-table") == new_id
        assert rows.nth(0).get_attribute("data-your-turn") == "yes"
        assert rows.nth(1).get_attribute("data-table") == table["id"]
        assert "rematch started" in rows.nth(1).inner_text()

        # Reopening the old link offers the new seat instead of jumping: the old game stays.
        page.goto(table["links"][0]["url"])
        link = page.wait_for_selector("#rematch-link")
        assert link.get_attribute("href").startswith(f"/table/{new_id}#token=")
        assert page.url == table["links"][0]["url"]
    finally:
        context.close()
