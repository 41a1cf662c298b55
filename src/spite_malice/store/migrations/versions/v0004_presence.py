"""Version 4: presence, so that every server instance knows when a friend was last connected.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("room", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("instance", sa.String(64), primary_key=True),
        sa.Column("online", sa.Boolean, nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute("UPDATE store_info SET value = '4' WHERE key = 'schema_version'")


def downgrade() -> None:
    op.drop_table("presence")
    op.execute("UPDATE store_info SET value = '3' WHERE key = 'schema_version'")
