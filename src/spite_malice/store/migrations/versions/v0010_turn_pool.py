"""Version 10: the turn-based quick-match pools (``docs/deploying.md``, "Quick match").

``turn_pool_entries`` keeps the players waiting for a stranger to play over days (the
columns of ``pool_entries``), ``turn_tickets`` the seats of the turn-based games the waves
made, until each player's browser has them (``store/turn_pool.py``).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turn_pool_entries",
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
    op.create_index("turn_pool_entries_waiting", "turn_pool_entries", ["pool", "room"])
    op.create_table(
        "turn_tickets",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("room", sa.String(32), primary_key=True),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("token", sa.String(128), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("turn_tickets")
    op.drop_index("turn_pool_entries_waiting", "turn_pool_entries")
    op.drop_table("turn_pool_entries")
