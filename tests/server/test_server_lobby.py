"""``POST /api/my-tables``: the tables of the seat links a browser holds, "your turn" first,
with public facts only, and the tokens only ever in the request body."""

from __future__ import annotations

import json

import httpx
from server_driver import TIMEOUT, create_table, first_action, is_over, play_until, wait_until

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
ONE_NIGHT = {"max_turns": 1}
MINE = {"index", "seat", "your_turn", "rematch"}


def my_tables(base: str, tokens: list) -> httpx.Response:
    return httpx.post(f"{base}/api/my-tables", json={"tokens": tokens}, timeout=TIMEOUT)


def public_info(base: str, table_id: str) -> dict:
    info = httpx.get(f"{base}/api/tables/{table_id}", timeout=TIMEOUT).json()
    del info["view"]
    return info


def settle(base: str, table_id: str, seat: int) -> None:
    """Wait until the bots have moved and only ``seat`` (a human) is to move."""
    wait_until(lambda: public_info(base, table_id)["to_move"] == [seat], "the bots to move")


def test_your_turn_first_then_waiting_then_finished(server, connect):
    # A: two humans; seat 0 chooses its target, so A waits for seat 1 (a human), not seat 0.
    a = create_table(server.url, seats=["human", "human", "easy", "easy", "easy"])
    a0 = connect(a["id"], a["links"][0]["token"])
    assert a0.act(first_action(a0.sync()))["type"] == "update"
    # B: seat 0 is to move (every seat chooses a target first).
    b = create_table(server.url, seats=["human", "easy", "easy", "easy", "easy"])
    # C: over, and rematched.
    c = create_table(server.url, seats=["human", "easy", "easy", "easy", "easy"], options=ONE_NIGHT)
    c0 = connect(c["id"], c["links"][0]["token"])
    c0.sync()
    play_until(c0, is_over, first_action)
    c0.send({"type": "rematch"})
    while (again := c0.recv())["type"] != "rematch":
        pass

    settle(server.url, a["id"], 1)
    settle(server.url, b["id"], 0)
    settle(server.url, again["table"], again["seat"])
    tokens = [
        a["links"][0]["token"],  # 0: waiting
        "not-a-seat-token",  # 1: unknown
        c["links"][0]["token"],  # 2: over
        b["links"][0]["token"],  # 3: your turn
        a["links"][1]["token"],  # 4: your turn (the creator kept every link)
        again["token"],  # 5: the rematch seat: your turn, newest table
    ]
    response = my_tables(server.url, tokens)
    assert response.status_code == 200, response.text
    answer = response.json()

    tables = answer["tables"]
    assert [t["index"] for t in tables] == [5, 3, 4, 0, 2]
    assert [t["your_turn"] for t in tables] == [True, True, True, False, False]
    assert answer["unknown"] == [1]
    assert [t["seat"] for t in tables] == [again["seat"], 0, 1, 0, 0]
    assert tables[-1]["status"] == "over" and tables[-1]["rematch"] == again["table"]
    assert all(t["rematch"] is None for t in tables[:-1])
    # Public facts and the seat's turn, nothing else: no view, no moves, no token, no secret.
    for table in tables:
        assert set(table) - MINE == set(public_info(server.url, table["id"]))
        assert {k: v for k, v in table.items() if k not in MINE} == public_info(
            server.url, table["id"]
        )
    text = response.text.lower()
    every_token = [link["token"] for t in (a, b, c) for link in t["links"]] + [again["token"]]
    assert not [token for token in every_token if token.lower() in text]
    assert not [role for role in ROLES if role in text]


def test_bad_requests_are_refused(server):
    assert my_tables(server.url, []).json() == {"tables": [], "unknown": []}
    for bad in ("a-token", [1, 2], [""], ["x" * 101], ["t"] * 201):
        response = my_tables(server.url, bad)
        assert response.status_code == 400, (bad, response.text)
        assert response.json()["detail"]
    extra = httpx.post(
        f"{server.url}/api/my-tables", json={"tokens": [], "seat": 0}, timeout=TIMEOUT
    )
    assert extra.status_code == 400
    # Tokens travel in the body only: there is no way to ask by URL.
    assert httpx.get(f"{server.url}/api/my-tables", timeout=TIMEOUT).status_code == 405
    assert json.loads(my_tables(server.url, ["nothing"]).text) == {"tables": [], "unknown": [0]}
