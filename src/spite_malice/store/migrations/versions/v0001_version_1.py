"""Version 1: the tables as the first store made them (whole matches as JSON).

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def _when() -> sa.Column[object]:
    return sa.Column("finished_at", sa.DateTime(timezone=True))


def upgrade() -> None:
    op.create_table(
        "store_info",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(256), nullable=False),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("room", sa.String(32), index=True),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("level", sa.String(64)),
        sa.Column("player0", sa.String(128)),
        sa.Column("player1", sa.String(128)),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("meta", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("winner", sa.Integer),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(128), nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("abandoned", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("match_id", "number"),
    )
    op.create_table(
        "results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("player", sa.String(128), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("level", sa.String(64), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("points_for", sa.Integer, nullable=False),
        sa.Column("points_against", sa.Integer, nullable=False),
        sa.Column("assisted", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seat"),
        sa.Index("ix_results_player_level", "player", "level"),
    )
    op.create_table(
        "match_results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("player", sa.String(128), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("level", sa.String(64), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("match_id", "seat"),
        sa.Index("ix_match_results_player_level", "player", "level"),
    )
    op.create_table(
        "settings",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute("INSERT INTO store_info (key, value) VALUES ('schema_version', '1')")
