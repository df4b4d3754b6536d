"""The HTTP side of the server: pages, the JSON API, table creation and its validation."""

from __future__ import annotations

import hashlib

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from server_driver import create_table
from sqlalchemy import create_engine, text

import intrigue
from intrigue.engine import game_ids
from intrigue.server.storage.db import Base, Store


def test_games_lists_every_registered_game(server):
    response = httpx.get(f"{server.url}/api/games")
    assert response.status_code == 200
    games = response.json()
    assert {g["id"] for g in games} == set(game_ids())
    assert all(g["players"] and isinstance(g["options"], list) for g in games)


def test_create_table_gives_a_link_per_human_seat_and_stores_only_hashes(server, db_path):
    table = create_table(server.url, seats=["human", "easy", "human", "medium", "hard"])
    assert [link["seat"] for link in table["links"]] == [0, 2]
    tokens = [link["token"] for link in table["links"]]
    assert len(set(tokens)) == 2 and all(len(t) >= 24 for t in tokens)
    for link in table["links"]:
        assert link["url"].endswith(f"/table/{table['id']}#token={link['token']}")
    assert table["spectate"].endswith(f"/table/{table['id']}")
    assert [(s["kind"], s["bot"]) for s in table["seats"]] == [
        ("human", None),
        ("bot", "easy"),
        ("human", None),
        ("bot", "medium"),
        ("bot", "hard"),
    ]
    # Secrets never leave: no seed or options in the answer.
    assert "seed" not in table and "options" not in table
    engine = create_engine(f"sqlite:///{db_path}")
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT seat, kind, bot, token_hash FROM seats WHERE table_id = :t ORDER BY seat"),
            {"t": table["id"]},
        ).all()
    engine.dispose()
    hashes = {seat: token_hash for seat, _, _, token_hash in rows}
    assert hashes[0] == hashlib.sha256(tokens[0].encode()).hexdigest()
    assert hashes[2] == hashlib.sha256(tokens[1].encode()).hexdigest()
    assert hashes[1] is None and hashes[3] is None
    assert [(seat, kind, bot) for seat, kind, bot, _ in rows][4] == (4, "bot", "hard")


@pytest.mark.parametrize("info", intrigue.games(), ids=lambda info: info["id"])
def test_a_table_can_be_created_for_every_game_and_player_count(server, info):
    for players in info["players"]:
        table = create_table(server.url, info["id"], ["human"] * players, players=players)
        assert table["players"] == players and len(table["links"]) == players
        response = httpx.get(f"{server.url}/api/tables/{table['id']}")
        assert response.status_code == 200
        public = response.json()
        assert public["view"]["seat"] is None and public["view"]["game"] == info["id"]


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"game": "masquerade-murder", "players": 3}, "not 3"),
        ({"game": "masquerade-murder", "options": {"colour": "red"}}, "unknown option"),
        ({"game": "masquerade-murder", "options": {"max_turns": "many"}}, "max_turns"),
        ({"game": "masquerade-murder", "options": {"board": "round"}}, "board"),
        ({"game": "masquerade-murder", "seats": ["human"] * 4}, "one seat kind per player"),
        ({"game": "masquerade-murder", "seats": ["human", "god", "easy", "easy", "easy"]}, "god"),
        ({"game": "masquerade-murder", "secret": 1}, "secret"),
        ({"players": 5}, "game"),
    ],
)
def test_bad_table_requests_are_refused_with_a_reason(server, body, complaint):
    before = len(httpx.get(f"{server.url}/api/tables").json()["tables"])
    response = httpx.post(f"{server.url}/api/tables", json=body)
    assert response.status_code == 400
    assert complaint in response.json()["detail"]
    assert len(httpx.get(f"{server.url}/api/tables").json()["tables"]) == before


def test_a_body_that_is_not_json_is_refused(server):
    response = httpx.post(
        f"{server.url}/api/tables",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400


def test_unknown_table_is_404(server):
    response = httpx.get(f"{server.url}/api/tables/no-such-table")
    assert response.status_code == 404
    assert "no-such-table" in response.json()["detail"]


def test_open_tables_list_new_tables_without_secrets(server):
    table = create_table(server.url, seats=["human"] * 5)
    listed = httpx.get(f"{server.url}/api/tables").json()["tables"]
    mine = [t for t in listed if t["id"] == table["id"]]
    assert len(mine) == 1
    assert mine[0]["status"] == "playing" and mine[0]["step"] == 0
    assert not {"seed", "options", "links", "token", "token_hash"} & set(mine[0])


def test_pages_and_client_files_are_served(server):
    lobby = httpx.get(f"{server.url}/")
    assert lobby.status_code == 200 and "lobby.js" in lobby.text
    page = httpx.get(f"{server.url}/table/anything")
    assert page.status_code == 200 and "table.js" in page.text
    for name in ("lobby.js", "table.js", "masquerade-murder.js", "generic.js", "dom.js"):
        script = httpx.get(f"{server.url}/static/{name}")
        assert script.status_code == 200 and "javascript" in script.headers["content-type"]


def test_migrations_build_exactly_the_models(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    store.migrate()
    store.migrate()  # a second upgrade is a no-op
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    store.close()
