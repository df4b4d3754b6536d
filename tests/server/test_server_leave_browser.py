"""The table page's "Leave the table for good" button: asked to confirm, it gives the seat up
(a bot plays it, the link is dead and the browser forgets it); spectators are not offered it."""

from __future__ import annotations

from server_driver import TIMEOUT, Player, create_table

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]


def saved_tokens(page) -> list[str]:
    """The seat links the lobby's "Your tables" remembers in this browser (a claimed seat's
    secret, and the link it was claimed with)."""
    return page.evaluate(
        "() => JSON.parse(localStorage.getItem('intrigue.seats') ?? '[]')"
        ".flatMap((s) => [s.token, s.invite])"
    )


def test_leaving_from_the_page_hands_the_seat_to_a_bot(browser, web_server):
    table = create_table(web_server.url, seats=["human"] * 5, options={"roles": ROLES})
    token = table["links"][0]["token"]
    other = Player(web_server.ws_url, table["id"], table["links"][1]["token"])
    context = browser.new_context()
    try:
        other.sync()
        page = context.new_page()
        page.goto(table["links"][0]["url"])
        page.wait_for_selector("#leave-box:not([hidden])", timeout=TIMEOUT * 1000)
        assert token in saved_tokens(page)

        # Declining the question changes nothing.
        page.once("dialog", lambda dialog: dialog.dismiss())
        page.click("#leave")
        page.wait_for_timeout(300)
        assert page.locator("#left-note").is_hidden()
        assert web_server.hub.tables[table["id"]].seats[0].standin is None

        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#leave")
        page.wait_for_selector("#left-note:not([hidden])", timeout=TIMEOUT * 1000)
        assert page.inner_text("#left-note").startswith("Seat 0 left the table: a bot")
        assert page.evaluate("document.body.dataset.turn") == "left"
        assert page.locator("#leave-box").is_hidden()
        assert page.locator("#actions button.action").count() == 0
        page.wait_for_function(
            "() => document.getElementById('connection').textContent === 'you left this table'",
            timeout=TIMEOUT * 1000,
        )
        assert token not in saved_tokens(page)
        # The others are told; a bot now holds the seat and the link opens nothing any more.
        note = other.recv()
        assert note["type"] == "table" and "seat 0 left the table" in note["notes"][0]["text"]
        assert web_server.hub.tables[table["id"]].seats[0].standin is not None
        again = context.new_page()
        again.goto(table["links"][0]["url"])
        again.wait_for_function(
            "() => document.getElementById('connection').textContent === 'disconnected'",
            timeout=TIMEOUT * 1000,
        )
        assert again.evaluate("document.body.dataset.turn") == "connecting"
    finally:
        other.close()
        context.close()


def test_spectators_are_not_offered_to_leave(browser, web_server):
    table = create_table(web_server.url, seats=["human"] * 5, options={"roles": ROLES})
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(table["spectate"])
        page.wait_for_function("() => document.body.dataset.step !== undefined")
        assert page.locator("#leave-box").is_hidden()
    finally:
        context.close()
