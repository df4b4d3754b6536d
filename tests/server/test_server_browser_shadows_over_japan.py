"""Shadows over Japan in a real browser (Debian's Chromium driven by Playwright): the map.

Seat 0 plays on a phone-sized screen by clicking provinces on the map (a ninja, then where it
goes) against an "easy" bot; seat 1 is a second human in another browser context, which must
never be shown seat 0's Noble, hand or concealed ninja styles. The true state is read from the
server's live table. `make test` installs /usr/bin/chromium.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

from server_driver import TIMEOUT, ThreadServer, create_table, expected_verdict, record_frames

from intrigue.games.shadows_over_japan.data import CARD_IDS, CARDS, MAP, STYLES

STATIC_MAP = Path(__file__).parents[2] / "src/intrigue/server/static/shadows-over-japan-map.json"
PHONE = {"width": 390, "height": 844}
NOBLES = ["date", "oda", "takeda"]  # fixed by option: seat 0 backs Date Masamune
BOARD_VERBS = {"move", "substitute", "march", "steal", "sabotage", "seppuku", "recruit"}
MAP_MOVES_PER_TURN = 3  # then seat 0 ends its step with the button, to keep the game short
GAME_DEADLINE = 150.0  # a guard against a hang, not a measured quantity


# -- the static map -------------------------------------------------------------------------
def test_the_browser_map_copies_the_game_data_and_places_everything():
    static = json.loads(STATIC_MAP.read_text(encoding="utf-8"))
    fields = ("key", "name", "noble", "capital", "land", "lanes", "sea")
    assert static["provinces"] == [{f: p[f] for f in fields} for p in MAP["provinces"]]
    assert static["water"] == [{f: w[f] for f in ("id", "name", "provinces")} for w in MAP["water"]]
    assert static["honours"] == {h["key"]: h["name"] for h in CARDS["honours"]}
    names = [p["key"] for p in MAP["provinces"]] + [w["id"] for w in MAP["water"]]
    assert sorted(static["layout"]) == sorted(names)
    width, height = static["size"]
    for x, y in static["layout"].values():
        assert 15 <= x <= width - 15 and 15 <= y <= height - 30
    # Provinces never sit on top of each other (each is a click target of radius 19).
    spots = [static["layout"][p["key"]] for p in MAP["provinces"]]
    closest = min(
        (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 for i, a in enumerate(spots) for b in spots[:i]
    )
    assert closest >= 38**2


# -- helpers --------------------------------------------------------------------------------
def turn(page) -> str:
    return str(page.evaluate("document.body.dataset.turn"))


def wait_answered(page, step: str) -> None:
    """Wait until the server has answered a move sent at ``step``; it must be accepted."""
    page.wait_for_function(
        "s => document.body.dataset.turn !== 'pending'"
        " && (document.body.dataset.step !== s || document.getElementById('error').textContent)",
        arg=step,
        timeout=TIMEOUT * 1000,
    )
    assert page.inner_text("#error") == ""


def click_button(page, prefer: tuple[str, ...]) -> None:
    """Click the first visible move button whose action starts with a preferred verb."""
    step = page.evaluate("document.body.dataset.step")
    buttons = page.locator("#actions button.action:visible")
    actions = [buttons.nth(i).get_attribute("data-action") or "" for i in range(buttons.count())]
    pick = next((i for verb in prefer for i, a in enumerate(actions) if a.startswith(verb)), 0)
    buttons.nth(pick).click()
    wait_answered(page, step)


def play_on_the_map(page, rng: random.Random) -> bool:
    """Pick one of the highlighted pieces, then a highlighted destination (or one of its
    province's choices). False when the map offers nothing worth playing."""
    sources = page.locator('svg.sj-map g[data-legal="from"]')
    if not sources.count():
        return False
    step = page.evaluate("document.body.dataset.step")
    sources.nth(rng.randrange(sources.count())).click()
    targets = page.locator('svg.sj-map g[data-legal="to"]')
    if targets.count():
        targets.nth(rng.randrange(targets.count())).click()
        if page.locator("#sj-choices button.choice").count():  # e.g. move or march there
            page.locator("#sj-choices button.choice").first.click()
    else:
        choices = page.locator("#sj-choices button.choice")
        keep = [
            i
            for i in range(choices.count())
            if not (choices.nth(i).get_attribute("data-action") or "").startswith("seppuku")
        ]
        if not keep:
            page.locator("#sj-choices button.secondary").click()  # Cancel
            return False
        choices.nth(keep[0]).click()
    wait_answered(page, step)
    return True


def check_highlights_match_the_truth(page, state) -> None:
    """The provinces highlighted for seat 0 are exactly where its legal map moves start."""
    truth = {str(a.args[0]) for a in state.legal_actions(0) if a.verb in BOARD_VERBS}
    shown = page.eval_on_selector_all(
        'svg.sj-map g[data-legal="from"]', "nodes => nodes.map(n => n.dataset.province)"
    )
    assert set(shown) == truth


def hand_of_seat_0(server: ThreadServer, table_id: str) -> set[str]:
    """Seat 0's hand in the live state, as card ids (which only its own page shows)."""
    return {CARD_IDS[c] for c in server.hub.tables[table_id].state.hand[0]}


def check_friend_page(friend, hand_ids: set[str]) -> int:
    """Seat 1's page shows nothing of seat 0's secrets; returns how many of seat 0's concealed
    ninjas it shows (as hidden markers)."""
    # Read atomically: the page may reach the end (and reveal the Nobles) at any moment.
    state, text, noble, styles = friend.evaluate(
        """() => [document.body.dataset.turn, document.body.innerText,
          document.querySelector('[data-seat-row="0"] [data-noble]')?.dataset.noble ?? null,
          [...document.querySelectorAll('g.sj-ninja.concealed[data-ninja="0"]')]
            .map(n => n.dataset.style)]"""
    )
    if state == "over":
        return 0
    assert "Date Masamune" not in text
    assert noble in (None, "unknown")
    assert set(styles) <= {"unknown"}  # seat 0's concealed ninjas: a hidden marker
    assert not {card for card in hand_ids if re.search(rf"\b{card}\b", text)}
    return len(styles)


def check_own_ninjas(me) -> None:
    """Seat 0's page shows the style of each of its own ninjas, concealed or not."""
    styles = me.eval_on_selector_all("g.sj-ninja.mine", "nodes => nodes.map(n => n.dataset.style)")
    assert set(styles) <= set(STYLES)


def check_friend_frames(frames: list[dict[str, Any]]) -> None:
    """Every game message seat 1 received hides seat 0's Noble, cards and concealed styles."""
    games = [f for f in frames if f.get("view") and not f["view"]["is_over"]]
    assert games
    for frame in games:
        view = frame["view"]
        assert view["players"][0]["noble"] is None
        assert view["you"]["noble"] == "oda"
        own = {card["card"] for card in view["you"]["hand"]}
        assert set(re.findall(r'"card": "([A-Z]{3}-\d+)"', json.dumps(frame))) <= own
        for p in view["provinces"]:
            ninja = p["ninja"]
            if ninja and ninja["seat"] == 0 and not ninja["revealed"]:
                assert ninja["style"] is None
        # The only Noble card event a seat receives is its own.
        assert {e["noble"] for e in frame["events"] if e["kind"] == "noble"} <= {"oda"}


# -- the game -------------------------------------------------------------------------------
def test_a_human_plays_shadows_over_japan_on_the_map(browser, web_server):
    table = create_table(
        web_server.url,
        game="shadows-over-japan",
        seats=["human", "human", "easy"],
        players=3,
        options={"max_turns": 2, "nobles": NOBLES},
    )
    phone = browser.new_context(viewport=PHONE)
    other = browser.new_context()
    try:
        me, friend = phone.new_page(), other.new_page()
        friend_frames = record_frames(friend)
        me.goto(table["links"][0]["url"])
        friend.goto(table["links"][1]["url"])
        for page in (me, friend):
            page.wait_for_selector("svg.sj-map")
            page.wait_for_selector("#your-noble")
        assert me.inner_text("#your-noble") == "Date Masamune"
        assert friend.inner_text("#your-noble") == "Oda Nobunaga"
        # Japan stands up on the phone and lies along a wide screen; 72 provinces either way.
        assert me.get_attribute("svg.sj-map", "data-shape") == "tall"
        assert friend.get_attribute("svg.sj-map", "data-shape") == "wide"
        assert me.locator("svg.sj-map g[data-province]").count() == 72
        assert me.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        played = play_both(me, friend, web_server, table["id"])

        state = web_server.hub.tables[table["id"]].state
        assert state.is_over
        mine = [str(a) for s, a in state.history if s == 0]
        assert played >= 3
        assert len([a for a in mine if a.split()[0] in BOARD_VERBS]) == played
        assert me.inner_text("#outcome").startswith(expected_verdict(web_server, table["id"], 0))
        # The end reveals who backed whom and each Noble's Political Power by source.
        final = me.locator("#outcome table")
        assert "Political Power by source" in final.inner_text()
        assert final.locator("tbody tr").count() == 4
        assert "seat 0 (you)" in me.inner_text('#outcome tr[data-noble-row="date"]')
        assert "seat 1" in me.inner_text('#outcome tr[data-noble-row="oda"]')
        power = {s["noble"]: s["political"] for s in state.view(0)["final"]["scores"]}
        shown = me.inner_text('#outcome tr[data-noble-row="date"] td:last-child')
        assert shown == str(power["date"])
        assert me.get_attribute("#outcome a.lobby-link", "href") == "/"
        assert me.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        check_friend_frames(friend_frames)
    finally:
        phone.close()
        other.close()


def play_both(me, friend, server: ThreadServer, table_id: str) -> int:
    """Play both human seats until the end: seat 0 on the map, seat 1 with buttons. Returns
    how many of seat 0's moves were played by clicking the map."""
    rng = random.Random(7)
    played = on_this_turn = hidden_seen = 0
    checked_step = None
    deadline = time.monotonic() + GAME_DEADLINE
    while not (turn(me) == "over" and turn(friend) == "over"):
        assert time.monotonic() < deadline, "the game did not finish"
        hidden_seen += check_friend_page(friend, hand_of_seat_0(server, table_id))
        check_own_ninjas(me)
        if turn(me) == "yours":
            step = me.evaluate("document.body.dataset.step")
            live = server.hub.tables[table_id].state  # nobody else moves while seat 0 is to
            if checked_step != step and str(len(live.history)) == step:
                check_highlights_match_the_truth(me, live)
                checked_step = step
            if on_this_turn < MAP_MOVES_PER_TURN and play_on_the_map(me, rng):
                played += 1
                on_this_turn += 1
            else:
                click_button(me, ("claim", "style", "discard", "end"))
                on_this_turn = 0
        elif turn(friend) == "yours":
            click_button(friend, ("style", "discard", "end"))
        else:
            me.wait_for_timeout(30)
    assert hidden_seen  # seat 1 did see seat 0's concealed ninjas, as "?"
    return played
