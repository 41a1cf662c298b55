"""Version 8: play between strangers (``docs/deploying.md``, "Quick match").

``pool_entries`` keeps the players waiting in a quick-match pool and the pairs a wave made
until both players are told; ``blocks`` who blocked whom; ``play_outcomes`` and ``playbans``
the rated matches a player ended badly and the bans they earned (``store/schema_pairing.py``).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pool_entries",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("waves", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("room", sa.String(32), nullable=True),
        sa.Column("match_id", sa.String(64), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("token", sa.String(128), nullable=True),
        sa.Column("opponent", sa.String(128), nullable=True),
        sa.Column("ready", sa.Integer, nullable=False),
        sa.Column("paired_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("pool_entries_waiting", "pool_entries", ["pool", "room"])
    op.create_table(
        "blocks",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("blocked", sa.String(128), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "play_outcomes",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("match_id", sa.String(64), primary_key=True),
        sa.Column("outcome", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "playbans",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), primary_key=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute("UPDATE store_info SET value = '8' WHERE key = 'schema_version'")


def downgrade() -> None:
    op.drop_table("playbans")
    op.drop_table("play_outcomes")
    op.drop_table("blocks")
    op.drop_index("pool_entries_waiting", table_name="pool_entries")
    op.drop_table("pool_entries")
    op.execute("UPDATE store_info SET value = '7' WHERE key = 'schema_version'")
