"""Bot speed (issue #17, item 4): a table setting, instant / normal / slow, in place of one fixed
pause per bot move. The pauses are multiples of the server's bot delay (tables/pace.py); how
long they really last is not asserted here (no timed assertions), only what each speed asks for
and that an instant table does not wait for the server's delay at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_driver import TIMEOUT, ThreadServer, wait_until

from intrigue.server.config import Settings
from intrigue.server.tables.pace import SPEEDS, bot_pause, bot_speed


def test_each_speed_pauses_less_within_a_bots_turn_than_at_its_start():
    delay = 0.8
    assert bot_pause("instant", delay, False) == bot_pause("instant", delay, True) == 0
    for speed in ("normal", "slow"):
        assert 0 < bot_pause(speed, delay, True) < bot_pause(speed, delay, False)
    assert bot_pause("normal", delay, False) < bot_pause("slow", delay, False)
    assert bot_pause("normal", delay, True) < bot_pause("slow", delay, True)
    # normal is quicker than the old fixed pause for every move; slow is not.
    assert bot_pause("normal", delay, False) < delay <= bot_pause("slow", delay, False)
    assert bot_pause(None, delay, False) == bot_pause("normal", delay, False)
    assert bot_pause("slow", 0, False) == 0  # --bot-delay 0: every table's bots move at once


def test_a_speed_is_checked():
    assert [bot_speed(s) for s in SPEEDS] == list(SPEEDS)
    assert bot_speed(None) == "normal" and bot_speed(" Slow ") == "slow"
    for bad in ("fast", 3, ["slow"]):
        with pytest.raises(ValueError, match="bot_speed must be one of instant, normal, slow"):
            bot_speed(bad)


@pytest.fixture(scope="module")
def patient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server whose bots would wait ten minutes before each move at any speed but instant."""
    db: Path = tmp_path_factory.mktemp("pace") / "pace.sqlite3"
    running = ThreadServer(Settings(database_url=f"sqlite:///{db}", bot_delay=600)).start()
    yield running
    running.stop()


def _create(base: str, **extra: object) -> httpx.Response:
    body = {"game": "masquerade-murder", "seats": ["easy"] * 5, "options": {"max_turns": 1}}
    return httpx.post(f"{base}/api/tables", json={**body, **extra}, timeout=TIMEOUT)


def test_the_table_says_its_speed_and_refuses_an_unknown_one(patient):
    assert _create(patient.url).json()["bot_speed"] == "normal"
    assert _create(patient.url, bot_speed="slow").json()["bot_speed"] == "slow"
    refused = _create(patient.url, bot_speed="warp")
    assert refused.status_code == 400 and "bot_speed must be one of" in refused.json()["detail"]


def test_bots_at_an_instant_table_play_to_the_end_without_the_servers_pause(patient):
    table = _create(patient.url, bot_speed="instant").json()
    waiting = _create(patient.url, bot_speed="normal").json()

    def over() -> bool:
        info = httpx.get(f"{patient.url}/api/tables/{table['id']}", timeout=TIMEOUT).json()
        return info["status"] == "over"

    wait_until(over, "the instant table's bots to finish")
    # The normal table's first bot is still in its (ten-minute) pause.
    info = httpx.get(f"{patient.url}/api/tables/{waiting['id']}", timeout=TIMEOUT).json()
    assert info["step"] == 0 and info["status"] != "over"


def test_the_lobby_creates_a_table_at_the_chosen_speed(browser, patient):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{patient.url}/")
        page.wait_for_selector("#game option", state="attached")
        assert page.input_value("#bot-speed") == "normal"
        page.select_option("#bot-speed", "instant")
        page.click('#create-form [type="submit"]')
        page.wait_for_selector("#created-links li a")
        table_id = page.inner_text("#created-id")
        info = httpx.get(f"{patient.url}/api/tables/{table_id}", timeout=TIMEOUT).json()
        assert info["bot_speed"] == "instant"
    finally:
        context.close()
