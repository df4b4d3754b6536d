"""Replays of finished games over HTTP: refused while the game is on; afterwards every step as
each seat saw it (exactly its view and events then), as a spectator, or everything revealed."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from server_driver import TIMEOUT, ThreadServer, create_table, wait_until

import intrigue

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
PERSPECTIVES: list[int | None] = [0, 1, 2, 3, 4, None]


def get(server: ThreadServer, path: str) -> httpx.Response:
    return httpx.get(f"{server.url}{path}", timeout=TIMEOUT)


def seat_param(seat: int | None) -> str:
    return "spectator" if seat is None else str(seat)


def finished_table(server: ThreadServer, **options: Any) -> tuple[str, intrigue.State]:
    """A Masquerade Murder table of bots with fixed roles, played to its end by the server."""
    table = create_table(
        server.url, seats=["easy"] * 5, options={"roles": ROLES, "max_turns": 2, **options}
    )
    live = server.hub.tables[table["id"]]
    wait_until(lambda: live.state.is_over, "the bots to finish the game")
    return table["id"], live.state


def states_by_step(final: intrigue.State) -> list[intrigue.State]:
    """The game rebuilt here, independently of the server: the state after every step."""
    state = final.game.new(final.players, final.seed, **final.options)
    states = [state.clone()]
    for seat, action in final.history:
        state.apply(seat, action)
        states.append(state.clone())
    return states


@pytest.fixture(scope="module")
def finished(server: ThreadServer) -> tuple[str, intrigue.State, list[intrigue.State]]:
    table_id, final = finished_table(server)
    return table_id, final, states_by_step(final)


def test_a_replay_is_refused_while_the_game_is_on(server):
    table = create_table(server.url, seats=["human"] * 5, options={"roles": ROLES})
    for path in ("replay", "replay?seat=all", "replay?seat=1", "replay/0?seat=all"):
        response = get(server, f"/api/tables/{table['id']}/{path}")
        assert response.status_code == 409
        assert "not over" in response.json()["detail"]
        assert "constable" not in response.text
    assert get(server, "/api/tables/nosuchtable/replay").status_code == 404


def test_bad_perspectives_and_steps_are_refused(server, finished):
    table_id, final, _ = finished
    assert get(server, f"/api/tables/{table_id}/replay?seat=5").status_code == 400
    assert get(server, f"/api/tables/{table_id}/replay?seat=me").status_code == 400
    beyond = get(server, f"/api/tables/{table_id}/replay/{len(final.history) + 1}?seat=0")
    assert beyond.status_code == 404 and "no step" in beyond.json()["detail"]
    assert get(server, f"/api/tables/{table_id}/replay/-1?seat=0").status_code == 404


@pytest.mark.parametrize("seat", PERSPECTIVES, ids=seat_param)
def test_every_step_is_exactly_what_the_seat_saw_then(server, finished, seat):
    table_id, final, states = finished
    index = get(server, f"/api/tables/{table_id}/replay?seat={seat_param(seat)}").json()
    assert index["perspective"] == seat_param(seat) and index["length"] == len(final.history)
    assert index["outcome"] == final.outcome.to_json()
    assert "seed" not in index and str(final.seed) not in json.dumps(index)
    seen = 0
    for step, state in enumerate(states):
        answer = get(server, f"/api/tables/{table_id}/replay/{step}?seat={seat_param(seat)}")
        data = answer.json()
        assert data["step"] == step and data["view"] == state.view(seat)
        assert data["events"] == state.events(seat, since=seen) == index["steps"][step]["events"]
        seen = state.log_length
        actor = None if step == 0 else final.history[step - 1][0]
        assert data["seat"] == actor
        # Only the mover's own replay names its action: another seat's may be a secret.
        named = str(final.history[step - 1][1]) if step and actor == seat else None
        assert data["action"] == named


def test_a_seats_replay_never_shows_another_seats_secrets_before_the_end(server, finished):
    table_id, _, states = finished
    base = f"/api/tables/{table_id}/replay"
    index = get(server, f"{base}?seat=1").json()
    for step, state in enumerate(states):
        data = get(server, f"{base}/{step}?seat=1").json()
        shown = json.dumps([data, index["steps"][step]]).lower()
        if state.is_over:
            assert "constable" in shown  # the end reveals every role
            continue
        assert "constable" not in shown  # seat 0's role
        assert data["view"]["you"]["role"] == "thug"
        # Seat 0's secret targets never appear: its moves are not named.
        if data["seat"] == 0:
            assert data["action"] is None and data["action_text"] is None


def test_everything_revealed_shows_every_seats_view_and_the_whole_log(server, finished):
    table_id, final, states = finished
    base = f"/api/tables/{table_id}/replay"
    index = get(server, f"{base}?seat=all").json()
    assert index["perspective"] == "all"
    for step in (0, len(states) // 2, len(states) - 1):
        data = get(server, f"{base}/{step}?seat=revealed").json()
        assert data["view"] == states[step].view(None)
        assert data["views"] == [states[step].view(seat) for seat in range(5)]
        if step:
            assert data["action"] == str(final.history[step - 1][1])
    # Every event appears once, with who saw it: each seat's share is exactly its own log.
    entries = [
        (event, seats)
        for entry in index["steps"]
        for event, seats in zip(entry["events"], entry["event_seats"], strict=True)
    ]
    for seat in range(5):
        assert [e for e, seats in entries if seats is None or seat in seats] == final.events(seat)
    assert [e for e, seats in entries if seats is None] == final.events(None)
    roles = {tuple(seats): e["role"] for e, seats in entries if e["kind"] == "role"}
    assert roles == {(seat,): role for seat, role in enumerate(ROLES)}


def test_a_finished_table_loaded_from_the_database_replays_too(server, finished):
    table_id, final, states = finished
    server.hub.tables.pop(table_id)  # as after a restart: only the database knows it
    data = get(server, f"/api/tables/{table_id}/replay/{len(states) - 1}?seat=2").json()
    assert data["view"] == final.view(2)
