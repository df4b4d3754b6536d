"""The same server on PostgreSQL (skipped, with the reason, when none is reachable).

The URL is ``INTRIGUE_TEST_POSTGRES`` or postgresql+psycopg://127.0.0.1:5432/test. Each run
works in a schema of its own, dropped afterwards.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from server_driver import Player, ThreadServer, create_table, first_action, is_over, play_until
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

import intrigue
from intrigue.engine import Record
from intrigue.server.config import Settings, normalise_database_url
from intrigue.server.storage.db import Base, Store

DEFAULT_URL = "postgresql+psycopg://127.0.0.1:5432/test"


def base_url() -> str:
    return normalise_database_url(os.environ.get("INTRIGUE_TEST_POSTGRES") or DEFAULT_URL)


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    """A URL whose connections use a fresh schema; the schema is dropped at the end."""
    url = base_url()
    admin = create_engine(url, connect_args={"connect_timeout": 3})
    try:
        with admin.connect():
            pass
    except Exception as exc:
        admin.dispose()
        shown = make_url(url).render_as_string(hide_password=True)
        pytest.skip(f"no PostgreSQL reachable at {shown} ({type(exc).__name__})")
    schema = f"intrigue_test_{secrets.token_hex(4)}"
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    scoped = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield scoped.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def start(url: str) -> ThreadServer:
    return ThreadServer(Settings(database_url=url, bot_delay=0)).start()


def test_migrations_build_exactly_the_models(pg_url):
    store = Store(pg_url)
    store.migrate()
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        tables = conn.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        )
        assert {"tables", "seats", "actions", "alembic_version"} <= {row[0] for row in tables}
    store.close()


def test_games_are_stored_and_restored_on_postgres(pg_url):
    server = start(pg_url)
    try:
        finished = create_table(
            server.url, seats=["human", "easy", "medium", "easy", "easy"], options={"max_turns": 2}
        )
        player = Player(server.ws_url, finished["id"], finished["links"][0]["token"])
        player.sync()
        play_until(player, is_over, first_action)
        player.close()
        waiting = create_table(server.url, seats=["human"] * 5)
        seat0 = Player(server.ws_url, waiting["id"], waiting["links"][0]["token"])
        seat0.sync()
        assert seat0.act("target 4")["accepted"] == "target 4"
        seat0.close()
        state = server.hub.tables[finished["id"]].state
    finally:
        server.stop()

    store = Store(pg_url)
    stored = store.load(finished["id"])
    store.close()
    assert stored is not None and stored.status == "over"
    assert stored.actions == [(seat, str(action)) for seat, action in state.history]
    replayed = intrigue.replay(
        Record(stored.game, stored.players, stored.seed, stored.options, stored.actions)
    )
    assert replayed.view(None) == state.view(None)

    again = start(pg_url)
    try:
        assert waiting["id"] in again.hub.tables  # unfinished tables come back at start-up
        back = Player(again.ws_url, waiting["id"], waiting["links"][0]["token"])
        sync = back.sync()
        assert sync["view"]["you"]["target"] == 4 and sync["view"]["step"] == 1
        back.close()
    finally:
        again.stop()
