"""No rigged deals (issue 18, item 2): options that fix what chance decides (roles, a deal, a
deck's top, who starts) make a *custom deal* table, accepted only when asked for explicitly,
shown as such to every seat, spectators and the lobby, and never carried into a rematch.

The attack: the creator of a Masquerade Murder table sent ``options.roles`` and so knew every
seat's secret role, no other player could tell, and Rematch pinned the roles again."""

from __future__ import annotations

import httpx
from server_driver import TIMEOUT, create_table
from sqlalchemy.orm import Session
from test_server_rematch import finish, rematches_of, wait_for_rematch

from intrigue.server.storage.db import TableRow

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
HUMANS = ["human", "human", "easy", "easy", "easy"]


def open_tables(base: str) -> list[dict]:
    return httpx.get(f"{base}/api/tables", timeout=TIMEOUT).json()["tables"]


def test_fixing_roles_needs_the_explicit_custom_deal_choice(server):
    before = len(open_tables(server.url))
    body = {"game": "masquerade-murder", "seats": HUMANS, "options": {"roles": ROLES}}
    answer = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
    assert answer.status_code == 400
    detail = answer.json()["detail"]
    assert "the roles" in detail and "custom deal" in detail and '"custom_deal": true' in detail
    assert len(open_tables(server.url)) == before  # nothing was created
    # Every game's fixing options are refused the same way (one each, a valid value).
    for game, options in [
        ("masquerade-ball", {"first": 0}),
        ("project-assassination", {"coins": ["heads"]}),
        ("shadows-over-japan", {"honours": ["bushido"]}),
    ]:
        body = {"game": game, "options": options}
        answer = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
        assert answer.status_code == 400 and "custom deal" in answer.json()["detail"], game


def test_a_custom_deal_is_shown_to_every_seat_spectators_and_the_lobby(server, connect):
    body = {
        "game": "masquerade-murder",
        "seats": HUMANS,
        "options": {"roles": ROLES, "seating": ["0", "1", "2", "3", "4"]},
        "custom_deal": True,
    }
    answer = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    table = answer.json()
    marked = ["the roles", "the seating order"]
    assert table["custom_deal"] == marked
    listed = {t["id"]: t for t in open_tables(server.url)}
    assert listed[table["id"]]["custom_deal"] == marked
    info = httpx.get(f"{server.url}/api/tables/{table['id']}", timeout=TIMEOUT).json()
    assert info["custom_deal"] == marked and "options" not in info
    for token in [link["token"] for link in table["links"]] + [None]:
        assert connect(table["id"], token).sync()["custom_deal"] == marked


def test_a_fair_table_is_not_marked(server, connect):
    table = create_table(server.url, seats=HUMANS, options={"max_turns": 2})
    assert table["custom_deal"] == []
    assert connect(table["id"], table["links"][0]["token"]).sync()["custom_deal"] == []


def test_a_rematch_never_carries_a_custom_deal(server, connect):
    table = create_table(server.url, seats=HUMANS, options={"roles": ROLES, "max_turns": 1})
    players = [connect(table["id"], link["token"]) for link in table["links"]]
    for player in players:
        player.sync()
    finish(players)
    players[0].send({"type": "rematch"})
    offer = wait_for_rematch(players[0])
    (row,) = rematches_of(server, table["id"])
    with Session(server.hub.store.engine) as session:
        old = session.get(TableRow, table["id"])
    assert old.options["roles"] == ROLES
    # The same rules (max_turns kept), the deal left to the new secret seed.
    assert row.options["roles"] is None and row.options["max_turns"] == 1
    again = connect(offer["table"], offer["token"]).sync()
    assert again["custom_deal"] == []


def test_the_lobby_offers_fixed_deals_only_behind_the_custom_deal_choice(
    strict_browser, web_server
):
    """Played under the server's Content-Security-Policy: nothing on the pages is blocked."""
    page = strict_browser.new_page()
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text) if "Security Policy" in m.text else None)
    try:
        page.goto(web_server.url)
        page.wait_for_selector('[name="option-thug_mode"]', state="attached")
        # Rule variants are offered; options that fix the deal are not, until asked for.
        assert not page.locator('[name="option-roles"]').is_visible()
        page.check("#custom-deal")
        page.locator("#options-box summary").click()
        page.fill('[name="option-roles"]', ",".join(ROLES))
        page.click('#create-form [type="submit"]')
        page.wait_for_selector("#created-links li a")
        link = page.locator("#created-links li a").first.get_attribute("href")
        # The lobby lists the table as a custom deal, naming what was fixed.
        page.goto(web_server.url)
        page.wait_for_selector(".custom-deal")
        assert "custom deal: fixed the roles" in page.inner_text("#open-tables")
        # The seat's page says it too.
        page.goto(link)
        page.wait_for_selector("#custom-deal:not([hidden])")
        assert "fixed the roles" in page.inner_text("#custom-deal")
        page.wait_for_selector("#chat-input")  # the table page ran its scripts
        assert blocked == []
    finally:
        page.close()
