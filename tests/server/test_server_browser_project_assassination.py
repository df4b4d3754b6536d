"""A real browser (Debian's Chromium driven by Playwright) plays Project Assassination by
clicking its bar: highlighted squares to move and shoot, shot arrows, the decks to draw.

A phone-sized seat plays a whole (capped) game against an easy bot. Project Assassination has
no per-seat secrets (both seats get the same view); its only hidden information is the order
of the decks. In a game between two humans, neither page may show, nor its WebSocket carry,
the cards at the top of the decks, read from the server's live state, until one is drawn.
`make test` installs /usr/bin/chromium.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from server_driver import TIMEOUT, ThreadServer, create_table, expected_verdict, record_frames

GAME = "project-assassination"
BOARD = "svg.pa-board"
PHONE = {"width": 390, "height": 844}
GAME_DEADLINE = 150.0  # a guard against a hang, not a measured quantity
# Board marks in the order the test prefers them: shots first, so games see fighting.
PREFERENCE = ("shoot", "shoot-dir", "place", "teleport", "cage", "grenade", "move", "draw")
# Verbs played in a mode (buttons under the board), not among the default highlights.
ITEM_VERBS = ("obstacle", "strategy")

# What the board offers now: every move a highlight leads to, and the folded list of the same
# moves as buttons (the server's legal moves for the board's verbs).
BOARD_OFFER_JS = """() => {
  const onBoard = [...document.querySelectorAll("svg.pa-board [data-actions]")]
    .flatMap((n) => n.dataset.actions.split("|")).filter(Boolean);
  const listed = [...document.querySelectorAll("details.board-moves button[data-action]")]
    .map((b) => b.dataset.action);
  return { onBoard, listed };
}"""


def turn(page) -> str:
    return str(page.evaluate("document.body.dataset.turn"))


def wait_for_answer(page, step: str) -> None:
    """Wait until the server has answered a click (a new step) or the board offers a choice."""
    page.wait_for_function(
        """s => (document.body.dataset.turn !== 'pending' && document.body.dataset.step !== s)
          || document.querySelector('.pa-choice button.pa-choose') !== null""",
        arg=step,
        timeout=TIMEOUT * 1000,
    )


def click_a_move(page, rng: random.Random) -> str:
    """Make one move by clicking: the board when it offers one, else a button. Returns the
    data-legal mark clicked on the board ("" for a button)."""
    step = page.evaluate("document.body.dataset.step")
    choose = page.locator(".pa-choice button.pa-choose")
    if choose.count():
        choose.first.click()
        wait_for_answer(page, step)
        return "choice"
    for mark in PREFERENCE:
        marks = page.locator(f'{BOARD} [data-legal~="{mark}"]')
        if marks.count():
            marks.nth(rng.randrange(marks.count())).click()
            wait_for_answer(page, step)
            return mark
    page.locator("button.action").first.click()
    wait_for_answer(page, step)
    return ""


def check_board_offers_every_move(page) -> None:
    """Every move of a board verb the server allows is one click away on the board."""
    offer = page.evaluate(BOARD_OFFER_JS)
    expected = {a for a in offer["listed"] if a.split(" ")[0] not in ITEM_VERBS}
    assert expected <= set(offer["onBoard"]), offer
    assert set(offer["onBoard"]) <= set(offer["listed"]), offer


def drawn_pieces(page) -> dict[str, int]:
    return page.evaluate(
        """() => Object.fromEntries(["data-player", "data-enemy", "data-obstacle", "data-loose"]
          .map((a) => [a, document.querySelectorAll(`svg.pa-board [${a}]`).length]))"""
    )


def live_state(server: ThreadServer, table_id: str):
    return server.hub.tables[table_id].state


def test_a_human_plays_project_assassination_on_a_phone_by_clicking(browser, web_server):
    table = create_table(
        web_server.url,
        game=GAME,
        seats=["human", "easy"],
        options={"max_turns": 8, "first_player": 0},
    )
    phone = browser.new_context(viewport=PHONE)
    try:
        me = phone.new_page()
        errors: list[str] = []
        me.on("pageerror", lambda error: errors.append(str(error)))
        me.goto(table["links"][0]["url"])
        me.wait_for_selector(BOARD)
        assert me.inner_text("#your-player") == "Player 1"
        # The bar as the server's view has it: 2 assassins, 2 grunts, 4 obstacles, 5 cards.
        view = live_state(web_server, table["id"]).view(0)
        assert drawn_pieces(me) == {
            "data-player": 2,
            "data-enemy": len(view["enemies"]),
            "data-obstacle": len(view["obstacles"]),
            "data-loose": len(view["loose"]),
        }
        assert me.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        marks = play_to_the_end(me, random.Random(7))

        assert live_state(web_server, table["id"]).is_over
        assert sum(1 for m in marks if m) >= 3, marks
        assert "move" in marks
        log = me.inner_text("#log")
        assert "P1 (you) moves to" in log  # the board's clicks were accepted moves
        assert me.locator("#outcome").is_visible()
        assert me.inner_text("#outcome").startswith(expected_verdict(web_server, table["id"], 0))
        # The end gives each assassin's VP by source, as the server counted them.
        assert "Victory Points by source" in me.inner_text("#outcome")
        final = live_state(web_server, table["id"]).view(0)["final"]["vp_by_source"]
        for seat, sources in enumerate(final):
            row = me.locator(f"#outcome tr[data-seat='{seat}']")
            for source in ("rival", "grunt", "heavy", "medic", "boss"):
                cell = row.locator(f"[data-source='{source}']")
                assert cell.inner_text() == str(sources.get(source, 0))
        # Nothing wider than the phone's screen, the finished board included.
        assert me.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert not errors
    finally:
        phone.close()


def play_to_the_end(page, rng: random.Random) -> list[str]:
    """Click whenever it is the seat's turn until the game is over; the marks clicked."""
    marks: list[str] = []
    deadline = time.monotonic() + GAME_DEADLINE
    while turn(page) != "over":
        assert time.monotonic() < deadline, "the game did not finish"
        if turn(page) == "yours":
            check_board_offers_every_move(page)
            marks.append(click_a_move(page, rng))
        else:
            page.wait_for_timeout(30)
    return marks


def secrets_of_the_decks(server: ThreadServer, table_id: str) -> dict[str, str]:
    """The next Item and Collectible cards, read from the true state: clone it, let Player 1
    (seat 1) end his first turn and seat 0 draw from each deck."""
    live = live_state(server, table_id)
    game = live.game
    found = {}
    for deck in ("item", "collectible"):
        probe = live.clone()
        probe.apply(1, game.parse_action("end"))
        before = probe.log_length
        probe.apply(0, game.parse_action(f"draw {deck}"))
        (draw,) = [e for e in probe.events(0, since=before) if e["kind"] == "draw"]
        found[deck] = draw["card"]
    return found


def shown(page, frames: list[dict[str, Any]]) -> str:
    """Everything a seat was shown: its page text and the WebSocket frames it received."""
    text = page.inner_text("body") + json.dumps(frames)
    return text.lower().replace(" ", "_")


def test_neither_seat_sees_the_order_of_the_decks(browser, web_server):
    table = create_table(
        web_server.url,
        game=GAME,
        seats=["human", "human"],
        options={
            "first_player": 1,
            "max_turns": 6,
            "item_deck": ["strategy"],
            "collectible_deck": ["paralysis_pistol"],
        },
    )
    phone, other = browser.new_context(viewport=PHONE), browser.new_context()
    try:
        me, friend = phone.new_page(), other.new_page()
        my_frames, friend_frames = record_frames(me), record_frames(friend)
        me.goto(table["links"][0]["url"])
        friend.goto(table["links"][1]["url"])
        me.wait_for_selector(BOARD)
        friend.wait_for_selector(BOARD)
        secrets = secrets_of_the_decks(web_server, table["id"])
        assert secrets == {"item": "strategy", "collectible": "paralysis_pistol"}
        for page, frames in ((me, my_frames), (friend, friend_frames)):
            assert frames
            for card in secrets.values():
                assert card not in shown(page, frames)

        # Player 1 (seat 1) may not draw on the very first turn: he ends it.
        friend.locator('button.action[data-action="end"]').click()
        me.wait_for_selector(f'{BOARD} [data-legal="draw"][data-deck="collectible"]')
        assert me.locator(f'{BOARD} [data-legal="draw"][data-deck="item"]').count() == 1
        for page, frames in ((me, my_frames), (friend, friend_frames)):
            for card in secrets.values():
                assert card not in shown(page, frames)

        # Seat 0 draws by clicking the face-down Collectible deck: the card goes face up on its
        # point, so now both seats see it (the check above is not blind), but not the Item.
        me.locator(f'{BOARD} [data-legal="draw"][data-deck="collectible"]').click()
        friend.wait_for_function(
            "() => document.body.innerText.toLowerCase().includes('paralysis pistol')",
            timeout=TIMEOUT * 1000,
        )
        assert me.locator(f'{BOARD} [data-point="1"]').count() == 0  # not P1's point
        assert me.locator(f'{BOARD} [data-point="2"]').count() == 1  # seat 0 is Player 2
        assert "strategy" not in shown(friend, friend_frames)
        assert "strategy" not in shown(me, my_frames)
        assert me.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        phone.close()
        other.close()
