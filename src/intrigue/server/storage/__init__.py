"""Storage: the database, which is the authority on what happened.

`db` holds the schema (created and upgraded by the Alembic scripts in ``migrations/``), the
records the other layers read, and the queries; `writer` stores every table's moves through
one thread, many per transaction (group commit). Nothing here knows a live table.
"""
