"""Version 3: leases, so that one server instance plays a room's computer turns.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("room", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute("UPDATE store_info SET value = '3' WHERE key = 'schema_version'")


def downgrade() -> None:
    op.drop_table("leases")
    op.execute("UPDATE store_info SET value = '2' WHERE key = 'schema_version'")
