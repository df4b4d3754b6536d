"""Hints at a "First game" table (issue #17, item 12): each turn the seat is told the move the
medium bot would play for it, computed from the seat's own view only and sent to that seat's
connections only; its player can switch them off and on. Real sockets, a real server."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from server_driver import TIMEOUT, Player, ThreadServer

import intrigue
from intrigue.bots import make_bot
from intrigue.bots.advice import ADVICE_SEED, advise
from intrigue.engine import Rng, State
from intrigue.server.tables.hints import hint_message

GAME = "project-assassination"  # two players, one to move at a time


def _create(server: ThreadServer, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {"game": GAME, "players": 2, "seats": seats, **extra}
    response = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
    assert response.status_code == 201, response.text
    return response.json()


def _expected(state: State, seat: int) -> str:
    """The medium bot's move for ``seat``, from its view, with the hints' generator."""
    view, legal = state.view(seat), state.legal_actions(seat)
    return str(make_bot("medium").choose(view, legal, Rng(ADVICE_SEED)))


def _next_hint(player: Player) -> dict[str, Any]:
    """The hint for the position the player holds now (after its update has come)."""
    while True:
        message = player.recv()
        if message["type"] == "hint" and message["step"] == player.latest["view"]["step"]:
            return message


def _check_hint(server: ThreadServer, table_id: str, seat: int, hint: dict[str, Any]) -> None:
    state = server.hub.tables[table_id].state
    assert hint["step"] == len(state.history) and seat in state.to_move
    assert hint["action"] == _expected(state, seat)
    legal = server_legal = {a["action"]: a["text"] for a in _legal(state, seat)}
    assert hint["action"] in legal
    assert hint["text"] == server_legal[hint["action"]]  # the words on the move's button


def _legal(state: State, seat: int) -> list[dict[str, Any]]:
    from intrigue.server.tables.messages import legal_entries

    return legal_entries(state, seat, state.view(seat))


def test_a_first_game_seat_gets_the_medium_bots_move_each_turn(server, connect):
    created = _create(server, ["human", "easy"], hints=True, bot_speed="slow")
    assert created["hints"] is True and created["bot_speed"] == "slow"
    me = connect(created["id"], created["links"][0]["token"])
    assert me.sync()["hints"] == {"on": True}
    for _ in range(4):  # follow the hints for a few turns
        hint = _next_hint(me)
        _check_hint(server, created["id"], 0, hint)
        answer = me.act(hint["action"])
        assert answer["type"] != "error", answer
        if answer["view"]["is_over"]:
            break


def test_hints_reach_their_own_seat_only_and_can_be_switched_off(server, connect):
    created = _create(server, ["human", "human"], hints=True)
    table_id = created["id"]
    seats = [connect(table_id, link["token"]) for link in created["links"]]
    spectator = connect(table_id)
    for player in (*seats, spectator):
        player.sync()
    off_at = None
    for turn in range(8):
        state = server.hub.tables[table_id].state
        if state.is_over:
            break
        mover = seats[state.to_move[0]]
        step = len(state.history)
        if turn == 3:  # seat 0 switches its hints off (whoever is to move)
            seats[0].send({"type": "hints", "on": False})
            _until(seats[0], lambda m: m == {"type": "hints", "on": False})
            off_at = step
        if mover is seats[0] and off_at is not None:
            while mover.latest["view"]["step"] != step:
                mover.recv()
            answer = mover.act(mover.latest["legal_actions"][0]["action"])
        else:
            hint = _next_hint(mover)
            _check_hint(server, table_id, state.to_move[0], hint)
            answer = mover.act(hint["action"])
        assert answer["type"] != "error", answer
    assert off_at is not None
    # Every hint a seat got was its own, at a step where it was to move; none after "off".
    turns = server.hub.tables[table_id].turns
    for seat, player in enumerate(seats):
        hints = [m for m in player.received if m["type"] == "hint"]
        assert hints and all(seat in turns[m["step"]] for m in hints)
    # (a hint for the position at which it switched off may have come just before)
    assert all(m["step"] <= off_at for m in seats[0].received if m["type"] == "hint")
    given = server.hub.tables[table_id].hints.given  # not even thought of
    assert 0 not in given or given[0]["step"] <= off_at
    spectator.send({"type": "hints", "on": True})
    assert "spectators get no hints" in _error(spectator)["message"]
    assert not [m for m in spectator.received if m["type"] in ("hint", "hints")]
    # Switched on again while it is its turn: the hint for the position comes at once.
    state = server.hub.tables[table_id].state
    if not state.is_over and 0 in state.to_move:
        seats[0].send({"type": "hints", "on": True})
        hint = _next_hint(seats[0])
        _check_hint(server, table_id, 0, hint)


def _until(player: Player, wanted: Any) -> dict[str, Any]:
    """The next message the player receives for which ``wanted(message)`` holds."""
    while not wanted(message := player.recv()):
        pass
    return message


def _error(player: Player) -> dict[str, Any]:
    return _until(player, lambda m: m["type"] == "error")


def test_a_normal_table_gives_no_hints(server, connect):
    created = _create(server, ["human", "easy"])
    assert created["hints"] is False
    me = connect(created["id"], created["links"][0]["token"])
    assert "hints" not in me.sync()
    me.send({"type": "hints", "on": True})
    assert "this table gives no hints" in _error(me)["message"]
    assert not [m for m in me.received if m["type"] == "hint"]


@pytest.mark.parametrize("bad", [None, "yes", 1])
def test_a_switch_must_say_on_or_off(server, connect, bad):
    created = _create(server, ["human", "easy"], hints=True)
    me = connect(created["id"], created["links"][0]["token"])
    me.sync()
    me.send({"type": "hints", "on": bad})
    assert '"on" must be true or false' in _error(me)["message"]


def test_hints_must_be_a_boolean(server):
    body = {"game": GAME, "hints": "yes"}
    response = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
    assert response.status_code == 400 and "hints" in response.json()["detail"]


@pytest.mark.parametrize(
    "game,players",
    [
        ("masquerade-ball", 2),
        ("project-assassination", 2),
        ("masquerade-murder", 5),
        ("shadows-over-japan", 2),
    ],
)
def test_a_hint_depends_on_the_seats_view_only(game, players):
    """Worlds the seat cannot tell apart (its determinizations: other seats' secrets and the
    decks dealt differently) get the very same hint."""
    state = intrigue.load(game).new(players, 11)
    rng = Rng(5)
    differed = 0
    for _ in range(40):
        if state.is_over:
            break
        seat = state.to_move[0]
        view = state.view(seat)
        hint = hint_message(state, seat, view, advise(view, state.legal_actions(seat)))
        for k in range(3):
            other = state.determinize(seat, Rng(100 + k))
            assert other.view(seat) == view
            advice = advise(other.view(seat), other.legal_actions(seat))
            assert hint_message(other, seat, other.view(seat), advice) == hint
            differed += other.rng.state != state.rng.state or any(
                other.view(s) != state.view(s) for s in range(players) if s != seat
            )
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
    # The worlds differ in what the seat cannot see: another seat's secrets, or (Project
    # Assassination, whose decks are shuffled as they are drawn) the generator that deals.
    assert differed
