"""Version 6: matches played offline in the page and sent back (``docs/offline.md``).

``offline_matches`` keeps each sent match's replayed steps (one row a player and match id);
``offline_results`` one row a finished game of it (number from 1) and one for the match
itself (number 0), which statistics count apart as offline games.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offline_matches",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("level", sa.String(64), nullable=False),
        sa.Column("steps", sa.JSON, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "offline_results",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("level", sa.String(64), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("points_for", sa.Integer, nullable=False),
        sa.Column("points_against", sa.Integer, nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("record", sa.JSON, nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute("UPDATE store_info SET value = '6' WHERE key = 'schema_version'")


def downgrade() -> None:
    op.drop_table("offline_results")
    op.drop_table("offline_matches")
    op.execute("UPDATE store_info SET value = '5' WHERE key = 'schema_version'")
