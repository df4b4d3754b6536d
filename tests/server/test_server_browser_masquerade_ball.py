"""A real browser (Debian's Chromium driven by Playwright) plays The Masquerade Ball by clicking
its palace: inspecting a card, picking it up and clicking where it goes.

A phone-sized seat plays whole games against easy bots (two and four players, a spectator
watching the four-player one); in a game between two humans, the second seat's page must never
show, nor its WebSocket carry, the identity of the first seat's face-down cards, checked against
the server's live state. `make test` installs /usr/bin/chromium.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from server_driver import (
    TIMEOUT,
    ThreadServer,
    create_table,
    expected_verdict,
    record_frames,
    seat_player,
)

GAME = "masquerade-ball"
BOARD = "svg.mb-palace"
PHONE = {"width": 390, "height": 844}
GAME_DEADLINE = 150.0  # a guard against a hang, not a measured quantity
ANY_TARGET = ("to", "attack", "swap")
QUIET_TARGET = ("to", "swap")  # no attacks: nobody judges, so nobody learns a rank
# One layout per seat, in the order throne row b-e, step row a-f, front row b-e: North's
# thrones c1 and d1 get its Queen and King.
DEALS = ["2-q-k-3-4-5-6-7-8-9-10-j-a-jk", "k-q-j-10-9-8-a-jk-7-6-5-4-3-2"]

# One read of what the board offers: highlighted pieces and squares, and the folded list of the
# same moves as buttons (the server's legal moves for the board's verbs).
BOARD_OFFER_JS = """() => {
  const places = (mark) => [...document.querySelectorAll(`svg.mb-palace [data-legal="${mark}"]`)]
    .map((n) => n.dataset.place ?? n.dataset.square);
  const listed = [...document.querySelectorAll("details.board-moves button[data-action]")]
    .map((b) => b.dataset.action);
  const selected = document.querySelectorAll("svg.mb-palace .selected").length;
  return { inspect: places("inspect"), from: places("from"), listed, selected };
}"""

# Every card on the board as the page draws it: place, side, face up, and the rank it shows.
PIECES_JS = """() => [...document.querySelectorAll("svg.mb-palace rect[data-side]")].map((n) => ({
  place: n.dataset.place, side: Number(n.dataset.side), up: n.dataset.up === "1",
  rank: n.dataset.rank, text: n.parentNode.textContent }))"""


def turn(page) -> str:
    return str(page.evaluate("document.body.dataset.turn"))


def label(rank: str) -> str:
    """How the board writes a North card: rank and spade (the Joker as Jk)."""
    return f"{'Jk' if rank == 'Joker' else rank}♠"


def click_board(page, targets: tuple[str, ...]) -> str | None:
    """One move on the board if it offers one: a card to inspect or a square to place or drop
    on ("inspect", "place", "drop"), else a highlighted card and then one of its highlighted
    destinations ("to", "attack", "swap"); None if the board offers nothing."""
    direct = page.locator(
        ", ".join(f'{BOARD} [data-legal="{m}"]' for m in ("inspect", "place", "drop"))
    )
    if direct.count():
        kind = direct.first.get_attribute("data-legal")
        direct.first.click()
        return kind
    destinations = page.locator(", ".join(f'{BOARD} [data-legal="{t}"]' for t in targets))
    sources = page.locator(f'{BOARD} [data-legal="from"]')
    for i in range(sources.count()):
        sources.nth(i).click()  # pick it up: its destinations light up
        assert page.locator(f"{BOARD} rect.selected").count() == 1
        if destinations.count():
            kind = destinations.first.get_attribute("data-legal")
            destinations.first.click()
            return kind
        page.locator(f"{BOARD} rect.selected").click()  # put it back
    return None


def play_once(page, targets: tuple[str, ...] = ANY_TARGET, quiet: bool = False) -> str:
    """One move for the page's seat, which the server must accept: on the board when it can,
    else the End button (or, unless ``quiet``, the first button). Returns what was clicked: a
    board mark (see `click_board`) or "button"."""
    before = page.evaluate("document.body.dataset.step")
    on_board = click_board(page, targets)
    if on_board is None:
        end = page.locator('#actions > button.action[data-action="end"]')
        if quiet:
            assert end.count(), "a quiet player always has End when the board offers nothing"
        (end if end.count() else page.locator("#actions > button.action")).first.click()
    page.wait_for_function("document.body.dataset.turn !== 'pending'", timeout=TIMEOUT * 1000)
    assert page.inner_text("#error") == ""
    assert page.evaluate("document.body.dataset.step") != before, "the move was not accepted"
    return on_board or "button"


def check_highlights(page) -> None:
    """The highlighted pieces are exactly the board moves the server lists for this seat."""
    offer = page.evaluate(BOARD_OFFER_JS)
    assert offer["selected"] == 0
    listed = offer["listed"]
    inspect = {a.split()[1] for a in listed if a.startswith("inspect ")}
    assert set(offer["inspect"]) == inspect
    sources = {a.split()[1] for a in listed if a.startswith(("move ", "swap "))}
    shown = {"ball" if p.startswith("ball") else p for p in offer["from"]}
    assert shown == (set() if inspect else sources)


def assert_fits_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_phone_seat_plays_the_ball_by_clicking_the_palace(browser, web_server, players):
    table = create_table(
        web_server.url,
        game=GAME,
        players=players,
        seats=["human"] + ["easy"] * (players - 1),
        options={"max_turns": 6 * players},
    )
    phone = browser.new_context(viewport=PHONE)
    watcher = browser.new_context()
    try:
        me, spectator = phone.new_page(), watcher.new_page()
        watched = record_frames(spectator)
        me.goto(table["links"][0]["url"])
        spectator.goto(table["spectate"])
        me.wait_for_selector(f"{BOARD} rect[data-side]")
        spectator.wait_for_selector(f"{BOARD} rect[data-side]")
        # the 6x7 grid; or one courtroom of 18 squares a player round the ballroom zone
        squares = 42 if players == 2 else players * 18 + 1
        assert me.locator(f"{BOARD} rect[data-square]").count() == squares
        palace = {2: "two-player", 3: "three-player", 4: "four-player"}[players]
        assert me.get_attribute(BOARD, "aria-label") == f"the {palace} palace"
        if players == 3:  # MB-30: the West courtroom is missing, and the page says so
            assert me.text_content(f"{BOARD} .mb-missing") == "no West courtroom"
            assert me.locator(f'{BOARD} rect[data-square^="w"]').count() == 0
        assert_fits_phone(me)

        clicks = play_against_bots(me, spectator)

        assert clicks["inspect"] >= 6  # each of its 6 turns began with an inspection
        assert clicks["to"] + clicks["attack"] + clicks["swap"] >= 1  # a card moved by clicks
        assert clicks["button"] >= 1  # and End stayed a button
        assert me.locator("#outcome").is_visible()
        assert me.inner_text("#outcome").startswith(expected_verdict(web_server, table["id"], 0))
        assert "over" in me.inner_text("#status")
        assert_fits_phone(me)
        # The spectator was never sent the rank of a face-down card.
        assert watched
        for frame in watched:
            view = frame.get("view")
            if view and not view["is_over"]:
                assert not [c for c in cards(view) if not c["up"] and c["rank"]]
    finally:
        phone.close()
        watcher.close()


def play_against_bots(me, spectator) -> Counter[str]:
    """Play seat 0 until the end; returns how many moves of each kind it clicked."""
    clicks: Counter[str] = Counter()
    deadline = time.monotonic() + GAME_DEADLINE
    while turn(me) != "over":
        assert time.monotonic() < deadline, "the game did not finish"
        # The spectator sees no face-down card's rank at any moment before the end (when
        # every mask comes off, MB-53). Read in one go: its page may reach the end first.
        over, pieces = spectator.evaluate(
            f"() => [document.body.dataset.turn === 'over', ({PIECES_JS})()]"
        )
        assert over or not [p for p in pieces if not p["up"] and p["rank"]]
        if turn(me) != "yours":
            me.wait_for_timeout(30)
            continue
        check_highlights(me)
        assert not me.inner_text("#prompt").startswith("Waiting")
        clicks[play_once(me)] += 1
        assert_fits_phone(me)
    return clicks


def cards(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every card a view describes on the board, in the ballroom or attacking."""
    return [
        *view["board"].values(),
        *(view["ballroom"] or []),
        *(p["attacker"] for p in view["pending"]),
    ]


def test_another_seat_never_sees_the_first_seats_face_down_cards(browser, web_server):
    table = create_table(
        web_server.url,
        game=GAME,
        players=2,
        seats=["human", "human"],
        options={"max_turns": 8, "first": 0, "deals": DEALS},
    )
    phone = browser.new_context(viewport=PHONE)
    other = browser.new_context()
    try:
        me, friend = phone.new_page(), other.new_page()
        friend_frames = record_frames(friend)
        me.goto(table["links"][0]["url"])
        friend.goto(table["links"][1]["url"])
        me.wait_for_function("document.body.dataset.turn === 'yours'")
        friend.wait_for_selector(f"{BOARD} rect[data-side]")
        # North knows the cards on its own thrones (MB-37), as dealt; South sees two masks.
        mine = {p["place"]: p for p in me.evaluate(PIECES_JS)}
        theirs = {p["place"]: p for p in friend.evaluate(PIECES_JS)}
        assert (mine["c1"]["rank"], mine["d1"]["rank"]) == ("Q", "K")
        assert "Q♠" in me.inner_text("#board") and "K♠" in me.inner_text("#board")
        assert (theirs["c1"]["rank"], theirs["d1"]["rank"]) == ("", "")
        assert "?" in theirs["c1"]["text"]

        quiet_game(web_server, table["id"], me, friend)

        assert me.inner_text("#outcome").startswith(expected_verdict(web_server, table["id"], 0))
        assert friend_frames
        for frame in friend_frames:
            view = frame.get("view")
            if view and not view["is_over"]:
                assert not [c for c in cards(view) if c["side"] == 0 and c["rank"]]
                north = view["sides"][0]
                assert "cards" not in north["hand"] and not north["hand"]["known"]
    finally:
        phone.close()
        other.close()


def quiet_game(server: ThreadServer, table_id: str, me, friend) -> None:
    """Both humans play without attacking or unmasking, so South never learns a North card;
    before each move, the pages are checked against the server's live state."""
    deadline = time.monotonic() + GAME_DEADLINE
    clicks: Counter[str] = Counter()
    while not (turn(me) == "over" and turn(friend) == "over"):
        assert time.monotonic() < deadline, "the game did not finish"
        page = next((p for p in (me, friend) if turn(p) == "yours"), None)
        if page is None:
            me.wait_for_timeout(30)
            continue
        state = server.hub.tables[table_id].state  # nobody else moves while a human decides
        step = str(len(state.history))
        for shown in (me, friend):
            shown.wait_for_function("s => document.body.dataset.step === s", arg=step)
        check_against_truth(state, me, friend)
        clicks[play_once(page, QUIET_TARGET, quiet=True)] += 1
    assert clicks["inspect"] == 8  # one inspection per turn, by clicking
    assert clicks["to"] + clicks["swap"] >= 4  # cards moved by clicking
    assert clicks["button"] == 8  # and each turn ended with the End button


def check_against_truth(state, me, friend) -> None:
    """North's page shows true ranks where it shows any; South's shows none of North's masked
    cards, neither on the board nor anywhere in its text."""
    shown = [p for p in me.evaluate(PIECES_JS) if p["rank"]]
    assert len(shown) >= 2
    for piece in shown:
        assert piece["rank"] == state.rank_at(piece["place"])
    masked = [p for p in friend.evaluate(PIECES_JS) if p["side"] == 0 and not p["up"]]
    assert len(masked) == 14
    text = friend.inner_text("body")
    for piece in masked:
        assert piece["rank"] == ""
        assert label(state.rank_at(piece["place"])) not in text


def highlighted(page, mark: str) -> set[str]:
    """The places or squares the board highlights with ``mark``."""
    nodes = page.locator(f'{BOARD} [data-legal="{mark}"]')
    return {
        str(nodes.nth(i).get_attribute("data-place") or nodes.nth(i).get_attribute("data-square"))
        for i in range(nodes.count())
    }


def listed(page, verb: str) -> set[str]:
    """The first argument of every listed move with ``verb`` (board moves are listed folded)."""
    buttons = page.locator(f'#actions button.action[data-action^="{verb} "]')
    return {
        str(buttons.nth(i).get_attribute("data-action")).split()[1] for i in range(buttons.count())
    }


def click(page, selector: str) -> None:
    """Click something that sends a move and wait until the server accepted it."""
    before = page.evaluate("document.body.dataset.step")
    page.locator(selector).click()
    page.wait_for_function("document.body.dataset.turn !== 'pending'", timeout=TIMEOUT * 1000)
    assert page.inner_text("#error") == ""
    assert page.evaluate("document.body.dataset.step") != before, "the move was not accepted"


def rank_on(page, place: str) -> str:
    return str(page.locator(f'{BOARD} rect[data-place="{place}"]').get_attribute("data-rank"))


def test_a_seat_out_before_the_cap_reads_that_it_lost(browser, web_server):
    """Ruling MB-54: North's Queen, delivered by the Nun, takes East's last card, so East is
    out; the one-turn cap then ends the ball, a draw among the three seats still in it."""
    setup = ["0:2@nc3", "0:k@nc2", "0:q@nc1", "1:10@ea3", "2:k@sc1", "3:k@wc1"]
    table = create_table(
        web_server.url,
        game=GAME,
        players=4,
        seats=["human"] * 4,
        options={"setup": setup, "first": 0, "max_turns": 1},
    )
    context = browser.new_context()
    north = seat_player(web_server, table, 0)
    try:
        east, south = context.new_page(), context.new_page()
        east.goto(table["links"][1]["url"])
        south.goto(table["links"][2]["url"])
        for page in (east, south):
            page.wait_for_selector(f"{BOARD} rect[data-side]")
        for action in ("inspect nc3", "deliver nc1", "drop ea3", "end"):
            assert north.act(action)["accepted"], action
        for page in (east, south):
            page.wait_for_selector("#outcome:not([hidden])")
        assert east.inner_text("#outcome").startswith("You lose.")
        assert expected_verdict(web_server, table["id"], 1) == "You lose."
        drawn = "Game over: a draw among seat 0, seat 2 and seat 3."
        assert south.inner_text("#outcome").startswith(drawn)
        assert expected_verdict(web_server, table["id"], 2) == drawn
        assert east.get_attribute("#outcome", "data-result") == "lost"
        assert south.get_attribute("#outcome", "data-result") == "draw"
    finally:
        north.close()
        context.close()


def test_the_diplomat_places_and_the_nun_drops_by_clicking_squares(browser, web_server):
    # North: Queen and King on its thrones, a Jack on c2, a Nun on c3, a Diplomat on d3, its
    # Spy in South's prison; South only its Queen and King, far away.
    setup = ["0:q@c1", "0:k@d1", "0:j@c2", "0:2@c3", "0:6@d3", "0:5@prison1", "1:q@c7", "1:k@d7"]
    table = create_table(
        web_server.url,
        game=GAME,
        players=2,
        seats=["human", "easy"],
        options={"first": 0, "setup": setup, "max_turns": 10},
    )
    phone = browser.new_context(viewport=PHONE)
    try:
        me = phone.new_page()
        me.goto(table["links"][0]["url"])
        me.wait_for_function("document.body.dataset.turn === 'yours'")
        inspectable = {"c1", "d1", "c2", "c3", "d3"}
        assert highlighted(me, "inspect") == listed(me, "inspect") == inspectable
        click(me, f'{BOARD} rect[data-place="d3"]')
        # The Diplomat has no centre pip: it moves before its ability (the seed's order). Pick
        # it up, its destinations light up, click one.
        assert me.locator('#actions > button.action[data-action="free 0"]').count() == 0
        me.locator(f'{BOARD} rect[data-place="d3"][data-legal="from"]').click()
        assert highlighted(me, "to") == {"e2", "e3", "c4", "e4"}
        click(me, f'{BOARD} rect[data-square="c4"]')
        assert rank_on(me, "c4") == "6"
        click(me, '#actions > button.action[data-action="free 0"]')  # the Diplomat
        # Place phase: the empty squares of North's courtroom light up; the hand is a button.
        assert highlighted(me, "place") == listed(me, "place") - {"hand"}
        assert me.locator('#board button[data-action="place hand"]').count() == 1
        click(me, f'{BOARD} rect[data-square="b3"]')
        assert rank_on(me, "b3") == "5"  # the freed Spy, which North holds and knows (MB-49)
        click(me, '#actions > button.action[data-action="end"]')

        me.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
        click(me, f'{BOARD} rect[data-place="c3"][data-legal="inspect"]')
        # c2 and c4 hold North's cards: the Nun need not move and may deliver herself
        click(me, '#actions > button.action[data-action="deliver c3"]')
        assert me.inner_text("#prompt").startswith("Click where the Nun delivers")
        drops = highlighted(me, "drop")
        assert drops == listed(me, "drop") and "c7" not in drops  # never an enemy throne
        click(me, f'{BOARD} rect[data-square="f5"]')
        assert rank_on(me, "f5") == "2"
        assert me.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        phone.close()


def test_the_acting_ballroom_card_leaves_the_ballroom_by_clicking(browser, web_server):
    setup = ["0:q@nc1", "0:9@ball", "1:q@ec1", "2:q@sc1", "3:q@wc1"]
    table = create_table(
        web_server.url,
        game=GAME,
        players=4,
        seats=["human", "easy", "easy", "easy"],
        options={"first": 0, "setup": setup, "max_turns": 8},
    )
    phone = browser.new_context(viewport=PHONE)
    try:
        me = phone.new_page()
        me.goto(table["links"][0]["url"])
        me.wait_for_function("document.body.dataset.turn === 'yours'")
        click(me, f'{BOARD} rect[data-place="ball0"][data-legal="inspect"]')
        assert rank_on(me, "ball0") == "9"
        # "ball" names the acting ballroom card: the slot it stands in is the one to pick up.
        me.locator(f'{BOARD} rect[data-place="ball0"][data-legal="from"]').click()
        destinations = highlighted(me, "to")
        moves = me.locator('#actions button.action[data-action^="move ball "]')
        assert destinations == {
            str(moves.nth(i).get_attribute("data-action")).split()[2] for i in range(moves.count())
        }
        assert {"sc3", "na3"} <= destinations
        click(me, f'{BOARD} rect[data-square="sc3"]')
        assert rank_on(me, "sc3") == "9"
        assert me.locator(f"{BOARD} rect[data-place^='ball']").count() == 0
        assert me.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        phone.close()


def test_the_lobby_offers_three_players_and_seats_them_round_the_ballroom(browser, web_server):
    # MB-30: "2 to 4 players"; the lobby's player count offers 3, and the table it creates
    # draws the three-courtroom palace for each seat.
    page = browser.new_page()
    try:
        page.goto(web_server.url)
        page.wait_for_selector('#game option[value="masquerade-ball"]', state="attached")
        page.select_option("#game", "masquerade-ball")
        offered = page.eval_on_selector_all("#players option", "(os) => os.map((o) => o.value)")
        assert offered == ["2", "3", "4"]
        page.select_option("#players", "3")
        assert page.locator("[data-seat]").count() == 3
        page.select_option('[data-seat="1"]', "easy")
        page.select_option('[data-seat="2"]', "easy")
        page.click('#create-form [type="submit"]')
        page.wait_for_selector("#created-links li a")
        links = page.locator("#created-links li a")
        assert links.count() == 1  # one human seat, two bots
        page.goto(links.first.get_attribute("href"))
        page.wait_for_selector(f"{BOARD} rect[data-side]")
        assert page.get_attribute(BOARD, "aria-label") == "the three-player palace"
        assert page.locator(f"{BOARD} rect[data-square]").count() == 3 * 18 + 1
    finally:
        page.close()
