"""Your turn, loud and clear (issue #17, item 3): a sound and a browser notification when the
turn comes to the seat, both off until the player ticks them.

The page's own code runs; an init script only records what it does: each `new Notification`
(passed on to the browser's real one), each start of a Web Audio oscillator and each
`window.focus()`. The games are
two-player Masquerade Balls where seat 1 plays first (a custom deal): the test drives seat 1
over a raw WebSocket, so the turn comes back to the page's seat 0 when the test says so. The
lobby's *Your tables*, open meanwhile, shows that turn without a reload.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from server_driver import TIMEOUT, Player, create_table

RECORD = """(() => {
  window.__notes = [];
  window.__asked = 0;
  window.__tones = 0;
  window.__focused = 0;
  const focus = window.focus;
  window.focus = () => {
    window.__focused += 1;
    focus.call(window);
  };
  const Real = window.Notification;
  if (Real) {
    function Recorded(title, options) {
      const note = new Real(title, options);
      window.__notes.push({ title, body: options?.body ?? "", note });
      return note;
    }
    Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
    Recorded.requestPermission = (...args) => {
      window.__asked += 1;
      return Real.requestPermission(...args);
    };
    window.Notification = Recorded;
  }
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) {
    window.__tones += 1;
    return start.apply(this, args);
  };
})();"""
NOTES = "window.__notes.map((n) => ({ title: n.title, body: n.body }))"
TURN = "t => document.body.dataset.turn === t"
TITLE = "Your turn — The Masquerade Ball"


def ball(base: str) -> dict[str, Any]:
    """Two human seats; seat 1 moves first."""
    return create_table(
        base, game="masquerade-ball", seats=["human", "human"], options={"first": 1}
    )


def open_seat(context: Any, url: str) -> Any:
    """Seat 0's page, synced and waiting for seat 1."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(TURN, arg="waiting", timeout=TIMEOUT * 1000)
    return page


def end_turn(player: Player) -> None:
    """Seat 1 waits for its turn, looks at a card and ends its turn (it is then seat 0's)."""
    while player.latest is None or not player.latest["legal_actions"]:
        player.recv()
    while player.latest["legal_actions"]:
        moves = [a["action"] for a in player.latest["legal_actions"]]
        answer = player.act("end" if "end" in moves else moves[0])
        assert answer["type"] != "error", answer


def look_away(page: Any) -> None:
    """The player goes to another tab: the page loses the focus. (Playwright lets every page
    think it has the focus unless told not to, so the page is told first.)"""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setFocusEmulationEnabled", {"enabled": False})
    page.context.new_page().bring_to_front()
    page.wait_for_function("!document.hasFocus()", timeout=TIMEOUT * 1000)


@contextmanager
def against_seat_1(browser: Any, server: Any) -> Iterator[tuple[Any, Player]]:
    """Seat 0's page (notifications granted, what it does recorded) and seat 1
    over a WebSocket, in a new Ball."""
    table = ball(server.url)
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=server.url)
    context.add_init_script(RECORD)
    other = Player(server.ws_url, table["id"], table["links"][1]["token"])
    try:
        yield open_seat(context, table["links"][0]["url"]), other
    finally:
        other.close()
        context.close()


def click_a_move(page: Any) -> str:
    """Click "end" if the seat may end its turn, else any legal move; the step it answers."""
    step = page.evaluate("document.body.dataset.step")
    end = page.locator('#actions > button.action[data-action="end"]')
    buttons = page.locator("#actions > button.action:visible")
    if end.count():
        end.click()
    elif buttons.count():
        buttons.first.click()
    else:
        page.locator("details.board-moves > summary").click()
        page.locator("details.board-moves button.action").first.click()
    return str(step)


def play_on_page(page: Any) -> None:
    """A move of seat 0 that keeps its turn (a Ball turn starts by looking at a card)."""
    step = click_a_move(page)
    page.wait_for_function(
        "s => document.body.dataset.turn === 'yours' && document.body.dataset.step !== s",
        arg=step,
        timeout=TIMEOUT * 1000,
    )


def end_turn_on_page(page: Any) -> None:
    """Seat 0 plays until its turn is over."""
    while page.evaluate("document.body.dataset.turn") == "yours":
        step = click_a_move(page)
        page.wait_for_function(
            "s => ['yours', 'waiting'].includes(document.body.dataset.turn)"
            " && document.body.dataset.step !== s",
            arg=step,
            timeout=TIMEOUT * 1000,
        )


def test_both_are_off_by_default_and_ticking_the_notification_asks_the_browser(browser, web_server):
    table = ball(web_server.url)
    refusing = browser.new_context()  # headless Chromium refuses what it is not granted
    refusing.add_init_script(RECORD)
    granting = browser.new_context()
    granting.grant_permissions(["notifications"], origin=web_server.url)
    granting.add_init_script(RECORD)
    try:
        page = open_seat(refusing, table["links"][0]["url"])
        box = page.locator("#turn-alerts")
        assert box.is_visible()
        assert "Tell me when it's my turn" in box.inner_text()
        sound, notify = page.get_by_label("sound"), page.get_by_label("notification")
        assert not sound.is_checked() and not notify.is_checked()
        assert page.evaluate("localStorage.getItem('intrigue.turn-alerts')") is None

        notify.check(force=True)  # the box unticks itself when the browser refuses
        page.wait_for_function("window.__asked === 1", timeout=TIMEOUT * 1000)
        page.wait_for_function(
            "document.querySelector('.alerts-note').textContent !== ''", timeout=TIMEOUT * 1000
        )
        assert not notify.is_checked()
        assert "Notifications are blocked for this site" in page.inner_text(".alerts-note")
        assert page.evaluate("JSON.parse(localStorage.getItem('intrigue.turn-alerts'))") == {
            "sound": False,
            "notify": False,
        }

        spectator = granting.new_page()  # a spectator has no turn: no such boxes
        spectator.goto(table["spectate"])
        spectator.wait_for_function(TURN, arg="waiting", timeout=TIMEOUT * 1000)
        assert spectator.locator("#turn-alerts").is_hidden()

        page = open_seat(granting, ball(web_server.url)["links"][0]["url"])
        notify = page.get_by_label("notification")
        notify.check()
        page.wait_for_function(
            "JSON.parse(localStorage.getItem('intrigue.turn-alerts'))?.notify === true",
            timeout=TIMEOUT * 1000,
        )
        assert notify.is_checked() and page.inner_text(".alerts-note") == ""
        page.reload()  # remembered in this browser
        page.wait_for_function(TURN, arg="waiting", timeout=TIMEOUT * 1000)
        assert page.get_by_label("notification").is_checked()
        assert not page.get_by_label("sound").is_checked()
    finally:
        refusing.close()
        granting.close()


def test_the_turn_coming_back_sounds_once_and_notifies_once_when_the_page_is_not_looked_at(
    browser, web_server
):
    with against_seat_1(browser, web_server) as (page, other):
        page.get_by_label("sound").check()
        page.get_by_label("notification").check()
        page.wait_for_function("window.__tones === 1", timeout=TIMEOUT * 1000)  # a sample
        look_away(page)

        end_turn(other)
        page.wait_for_function(TURN, arg="yours", timeout=TIMEOUT * 1000)
        prompt = page.inner_text("#prompt")
        assert prompt
        assert page.evaluate(NOTES) == [{"title": TITLE, "body": prompt}]
        assert page.evaluate("window.__tones") == 2
        # Clicking the notification brings the tab forward and closes it.
        page.evaluate("window.__notes[0].note.onclick()")
        assert page.evaluate("window.__focused") == 1

        play_on_page(page)  # still this seat's turn: nothing new
        assert len(page.evaluate(NOTES)) == 1 and page.evaluate("window.__tones") == 2
        page.reload()  # a page just opened on its turn: the player is there already
        page.wait_for_function(TURN, arg="yours", timeout=TIMEOUT * 1000)
        assert page.evaluate(NOTES) == [] and page.evaluate("window.__tones") == 0

        # Looked at: the sound, no notification.
        end_turn_on_page(page)
        page.bring_to_front()
        assert page.evaluate("document.hasFocus() && !document.hidden")
        end_turn(other)
        page.wait_for_function(TURN, arg="yours", timeout=TIMEOUT * 1000)
        assert page.evaluate(NOTES) == [] and page.evaluate("window.__tones") == 1


def test_nothing_when_both_are_off(browser, web_server):
    with against_seat_1(browser, web_server) as (page, other):
        look_away(page)
        end_turn(other)
        page.wait_for_function(TURN, arg="yours", timeout=TIMEOUT * 1000)
        assert page.evaluate(NOTES) == [] and page.evaluate("window.__tones") == 0


def test_your_tables_in_an_open_lobby_show_the_turn_that_comes_without_a_reload(
    browser, web_server
):
    with against_seat_1(browser, web_server) as (seat_page, other):
        table_id = seat_page.evaluate("location.pathname.split('/').pop()")
        lobby = seat_page.context.new_page()
        seat_page.close()  # the lobby alone now, remembering the seat this browser opened
        lobby.goto(f"{web_server.url}/")
        row = f'#my-tables tr[data-table="{table_id}"]'
        lobby.wait_for_selector(f'{row}[data-your-turn="no"]', timeout=TIMEOUT * 1000)
        assert lobby.title() == "intrigue — lobby"
        assert lobby.get_attribute('link[rel="icon"]', "href") == "/static/favicon.svg"
        lobby.evaluate("window.__same_page = true")

        end_turn(other)
        lobby.wait_for_selector(f'{row}[data-your-turn="yes"]', timeout=TIMEOUT * 1000)
        assert "your turn" in lobby.inner_text(row)
        assert lobby.title() == "(●) Your turn — intrigue"
        assert lobby.get_attribute('link[rel="icon"]', "href") == "/static/favicon-turn.svg"
        assert lobby.evaluate("window.__same_page") is True  # no reload
