"""Version 11: offline games counted by what they are (``docs/offline.md``).

``offline_results.content`` holds each counted game's content key (``game_key``) and each
finished match's (``match_key``), under a unique index: the same game counts once, whoever
sends it under whatever id. Rows counted before get their keys here; a row whose key an
earlier row has already (the same game counted again before this version) keeps none, and
stays counted as it was: a migration takes nothing away from a player's statistics.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spite_malice.store.offline_games import MATCH_NUMBER, game_key, match_key

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("offline_results") as batch:
        batch.add_column(sa.Column("content", sa.String(64), nullable=True))
    results = sa.table(
        "offline_results",
        sa.column("player", sa.String),
        sa.column("match_id", sa.String),
        sa.column("number", sa.Integer),
        sa.column("level", sa.String),
        sa.column("outcome", sa.String),
        sa.column("record", sa.JSON),
        sa.column("finished_at", sa.DateTime),
        sa.column("content", sa.String),
    )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(
            results.c.player,
            results.c.match_id,
            results.c.number,
            results.c.level,
            results.c.outcome,
            results.c.record,
        ).order_by(results.c.finished_at, results.c.player, results.c.match_id, results.c.number)
    ).all()
    games: dict[tuple[str, str], list[tuple[int, str]]] = {}
    keyed: list[tuple[tuple[str, str, int], str | None]] = []
    for player, match_id, number, level, _outcome, record in rows:
        if number == MATCH_NUMBER:
            continue
        key = game_key(level, record) if isinstance(record, dict) else None
        keyed.append(((player, match_id, number), key))
        if key is not None:
            games.setdefault((player, match_id), []).append((number, key))
    for player, match_id, number, level, outcome, _record in rows:
        if number == MATCH_NUMBER:
            ordered = [key for _n, key in sorted(games.get((player, match_id), []))]
            keyed.append(((player, match_id, number), match_key(level, ordered, outcome == "win")))
    taken: set[str] = set()
    for (player, match_id, number), key in keyed:
        if key is None or key in taken:
            continue
        taken.add(key)
        connection.execute(
            sa.update(results)
            .where(
                results.c.player == player,
                results.c.match_id == match_id,
                results.c.number == number,
            )
            .values(content=key)
        )
    op.create_index("offline_results_content", "offline_results", ["content"], unique=True)


def downgrade() -> None:
    op.drop_index("offline_results_content", "offline_results")
    with op.batch_alter_table("offline_results") as batch:
        batch.drop_column("content")
