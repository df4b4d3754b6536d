"""Alembic environment: run by `Store.migrate` with a live connection in ``attributes``.

Run by hand (``alembic -x url=... upgrade head`` with a config whose ``script_location`` points
here) it connects to the ``url`` given with ``-x`` instead.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from intrigue.server.storage.db import Base, make_engine


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata)
    with context.begin_transaction():
        context.run_migrations()


connection = context.config.attributes.get("connection")
if connection is not None:
    run(connection)
else:
    engine = make_engine(context.get_x_argument(as_dictionary=True)["url"])
    with engine.begin() as own_connection:
        run(own_connection)
