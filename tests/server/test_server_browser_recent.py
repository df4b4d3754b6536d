"""What just happened, on the board (issue #17, item 4): the moves since your last one are
marked on every game's board (arrows for moves, bursts for attacks and fights, brackets for
placements...), each mark explained by its log line; a piece that moved slides in, except for a
reader who asked for reduced motion."""

from __future__ import annotations

import pytest
from server_driver import TIMEOUT, create_table, play_one_move, wait_until

GAMES = {
    "masquerade-murder": 5,
    "masquerade-ball": 2,
    "project-assassination": 2,
    "shadows-over-japan": 3,
}
MARKS = "svg .last-moves [data-mark]"


@pytest.mark.parametrize("game", GAMES)
def test_the_other_players_moves_are_marked_on_the_board(browser, web_server, game):
    players = GAMES[game]
    table = create_table(
        web_server.url, game=game, players=players, seats=["human"] + ["easy"] * (players - 1)
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(table["links"][0]["url"])
        page.wait_for_function("document.body.dataset.turn === 'yours'", timeout=TIMEOUT * 1000)
        assert page.locator(MARKS).count() == 0  # nothing since a move of yours yet
        for _ in range(40):
            play_one_move(page)
            if page.locator(MARKS).count() or page.evaluate("document.body.dataset.turn") == "over":
                break
        marks = page.locator(MARKS)
        assert marks.count() >= 1, "no move marked on the board in 40 moves"
        # Every mark says what happened: its log line, which the page also shows since your move.
        recent = page.inner_text("#recent")
        log = page.inner_text("#log")
        for i in range(marks.count()):
            title = marks.nth(i).locator("title").text_content()
            assert title and title in log
            assert marks.nth(i).get_attribute("data-mark") in {
                "move",
                "attack",
                "swap",
                "place",
                "fight",
                "look",
                "gone",
            }
        if page.evaluate("document.body.dataset.turn") == "yours":
            assert "On the board: arrows for moves" in recent
    finally:
        context.close()


def _replay_step_with_a_move(web_server):
    """A finished two-player ball of bots, and a step of it where a card moved."""
    table = create_table(
        web_server.url,
        game="masquerade-ball",
        players=2,
        seats=["easy", "easy"],
        # Long enough that a card surely moves and stays (random balls of 6 turns missed it in
        # 1 of 15 deals, which made this test fail now and then).
        options={"max_turns": 20},
    )
    live = web_server.hub.tables[table["id"]]
    wait_until(lambda: live.state.is_over, "the bots to finish the ball")
    return table, _a_step_whose_moved_card_stays(live.state)


def _a_step_whose_moved_card_stays(state):
    """The first step that moved a card which still stands on its new square after the step
    (a card that lost the verdict its move started has nothing left to slide in)."""
    again = state.game.new(state.players, state.seed, **state.options)
    for i, (seat, action) in enumerate(state.history):
        again.apply(seat, action)
        if action.verb == "move":
            card = again.view(None)["board"].get(action.args[-1])
            if card is not None and again.view(seat)["sides"][card["side"]]["controller"] == seat:
                return i + 1
    raise AssertionError("no card of this ball moved and stayed on its new square")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_moved_piece_slides_in_unless_motion_is_reduced(browser, web_server, motion):
    table, step = _replay_step_with_a_move(web_server)
    context = browser.new_context(reduced_motion=motion)
    try:
        page = context.new_page()
        page.goto(f"{web_server.url}/table/{table['id']}/replay?seat=all&step={step}")
        page.wait_for_function(
            "s => document.body.dataset.replayStep === s", arg=str(step), timeout=TIMEOUT * 1000
        )
        arrow = page.locator('svg .last-moves [data-mark="move"]').first
        assert arrow.count() == 1
        target = arrow.get_attribute("data-at")
        piece = page.locator(f'svg [data-piece-at="{target}"]')
        assert piece.get_attribute("class").split() == ["mb-piece", "arriving"]
        animation = piece.evaluate("node => getComputedStyle(node).animationName")
        assert animation == ("none" if motion == "reduce" else "arrive")
    finally:
        context.close()
