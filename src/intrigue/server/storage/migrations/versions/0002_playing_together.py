"""Playing together: table settings (clocks, chat), rematches, stand-in bots, chat messages.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(
            sa.Column("settings", sa.JSON(), nullable=False, server_default=sa.text("'{}'"))
        )
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("standin", sa.String(64), nullable=True))
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("auto", sa.String(16), nullable=True))
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("to_seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name="fk_messages_table_id_tables", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_messages"),
    )
    op.create_index("ix_messages_table_id", "messages", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_messages_table_id", table_name="messages")
    op.drop_table("messages")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("auto")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("standin")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rematch")
        batch.drop_column("settings")
