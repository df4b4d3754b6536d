"""Warnings before costly moves in Shadows over Japan (issue #17, item 2), in a real browser: a
ninja's move into a fight is never played by a single click on the map; the page shows the move
with its warning (dashed, ⚠) and plays it only when confirmed. The words come from the seat's
own view (tests/shadows_over_japan/test_sj_warnings.py)."""

from __future__ import annotations

from server_driver import READY_AGAIN, TIMEOUT, create_table, play_one_move

import intrigue

GAME = intrigue.load("shadows-over-japan")


def _warned_move(state) -> tuple[str, str] | None:
    """(from, to) of a move seat 0 may play now whose text warns of a fight, if any."""
    if state.is_over or 0 not in state.to_move:
        return None
    view = state.view(0)
    for action in state.legal_actions(0):
        if action.verb == "move" and "⚠ fight" in GAME.describe_action(action, view):
            return str(action.args[0]), str(action.args[1])
    return None


def _play_spreading_ninjas(page) -> None:
    """A ninja's move when the seat has one, else any move: moving ninjas about brings fights
    (always playing the first button, a seat that never moves one met none in ~3% of deals)."""
    moves = page.locator('button.action:not(.warn)[data-action^="move "]')
    if not moves.count():
        play_one_move(page)
        return
    step = page.evaluate("document.body.dataset.step")
    if not moves.first.is_visible():
        page.locator("details.board-moves > summary").click()
    moves.first.click()
    page.wait_for_function(READY_AGAIN, arg=step, timeout=TIMEOUT * 1000)


def test_a_move_into_a_fight_asks_to_be_confirmed(browser, web_server):
    table = create_table(
        web_server.url, game="shadows-over-japan", players=3, seats=["human", "easy", "easy"]
    )
    live = web_server.hub.tables[table["id"]]
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(table["links"][0]["url"])
        page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
        page.wait_for_selector("svg.sj-map")
        found = None
        for _ in range(200):
            found = _warned_move(live.state)
            if found or live.state.is_over:
                break
            _play_spreading_ninjas(page)
        assert found, "no move into a fight was offered to seat 0"
        start, end = found
        step = page.evaluate("document.body.dataset.step")
        page.locator(f'svg.sj-map g[data-province="{start}"]').click()
        page.locator(f'svg.sj-map g[data-province="{end}"]').click()
        confirm = page.locator("#sj-choices button.choice.warn", has_text="⚠ fight")
        confirm.first.wait_for(timeout=TIMEOUT * 1000)
        assert page.evaluate("document.body.dataset.step") == step  # nothing played yet
        assert "confirm" in page.inner_text("#sj-choices")
        assert confirm.first.evaluate("b => getComputedStyle(b).borderTopStyle") == "dashed"
        confirm.first.click()
        page.wait_for_function(
            "s => document.body.dataset.step !== s", arg=step, timeout=TIMEOUT * 1000
        )
        assert page.inner_text("#error") == ""
    finally:
        context.close()
