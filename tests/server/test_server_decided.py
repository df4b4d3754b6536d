"""Simultaneous phases show who has already decided without revealing what: Masquerade
Murder's secret targeting, over the WebSocket and on the table page in a real browser."""

from __future__ import annotations

import copy

from server_driver import TIMEOUT, Player, create_table

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]


def test_the_others_learn_that_a_seat_decided_and_nothing_more(server, connect):
    table = create_table(server.url, seats=["human"] * 5, options={"roles": ROLES})
    me, other = (connect(table["id"], table["links"][s]["token"]) for s in (0, 1))
    spectator = connect(table["id"])
    before = {1: other.sync()["view"], None: spectator.sync()["view"]}
    me.sync()
    assert all(row["decided"] is False for row in before[1]["table"])

    assert me.act("target 3")["view"]["you"]["target"] == 3
    for seat, watcher in ((1, other), (None, spectator)):
        update = watcher.recv()
        assert update["events"] == [{"kind": "decided", "seat": 0}]
        # The view changed by exactly this: seat 0 has decided and no longer has to.
        expected = copy.deepcopy(before[seat])
        expected["table"][0]["decided"] = True
        expected["to_move"] = [1, 2, 3, 4]
        expected["step"] = 1
        assert update["view"] == expected
        assert "you decided" not in update["event_texts"][0].lower()


def test_the_players_panel_shows_who_has_decided(browser, web_server):
    table = create_table(web_server.url, seats=["human"] * 5, options={"roles": ROLES})
    page = browser.new_page()
    seat0 = Player(web_server.ws_url, table["id"], table["links"][0]["token"])
    try:
        seat0.sync()
        page.goto(table["links"][1]["url"])
        page.wait_for_selector('tr[data-seat-row="0"]')
        row = 'tr[data-seat-row="{}"] td:last-child'
        assert page.inner_text(row.format(0)) == "…"  # still to choose
        log_before = page.locator("#log li").all_inner_texts()

        assert seat0.act("target 3")["type"] == "update"
        page.wait_for_function(
            "sel => document.querySelector(sel).textContent.includes('decided')",
            arg=row.format(0),
            timeout=TIMEOUT * 1000,
        )
        assert page.inner_text(row.format(0)) == "✓ decided"
        assert [page.inner_text(row.format(s)) for s in (1, 2, 3, 4)] == ["…"] * 4
        log = page.locator("#log li").all_inner_texts()
        assert log[: len(log_before)] == log_before
        (line,) = log[len(log_before) :]  # who decided, never whom it targets
        assert "seat 0" in line.lower() and "3" not in line
        assert "target tonight: not chosen" in page.inner_text("#private").lower()
    finally:
        seat0.close()
        page.close()
