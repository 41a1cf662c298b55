"""Version 5: one daily deal a player and a day, kept by the database (``daily_plays``).

Before, only a lock inside one server process kept a player from starting two matches of the
same daily deal; two processes on one database, asked at the same moment, both started one.
The upgrade records the first daily match of each player and day already stored.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    plays = op.create_table(
        "daily_plays",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    matches = sa.table(
        "matches",
        sa.column("id", sa.String),
        sa.column("player0", sa.String),
        sa.column("player1", sa.String),
        sa.column("meta", sa.JSON),
        sa.column("created_at", sa.DateTime(timezone=True)),
    )
    rows = op.get_bind().execute(
        sa.select(
            matches.c.id, matches.c.player0, matches.c.player1, matches.c.meta, matches.c.created_at
        ).order_by(matches.c.created_at, matches.c.id)
    )
    first: dict[tuple[str, str], dict[str, Any]] = {}
    for match_id, player0, player1, meta, created_at in rows:
        day = meta.get("daily") if isinstance(meta, dict) else None
        if not isinstance(day, str):
            continue
        for player in (player0, player1):
            if player is not None:
                first.setdefault(
                    (player, day),
                    {"player": player, "day": day, "match_id": match_id, "created_at": created_at},
                )
    if first:
        op.bulk_insert(plays, list(first.values()))
    op.execute("UPDATE store_info SET value = '5' WHERE key = 'schema_version'")


def downgrade() -> None:
    op.drop_table("daily_plays")
    op.execute("UPDATE store_info SET value = '4' WHERE key = 'schema_version'")
