"""Version 7: players that last (a password, passkeys, the browsers signed in) and ratings
(Glicko-2 per pool, and each rated game's rating after it): ``docs/storage.md``.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("pool", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_pool_rating", "ratings", ["pool", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(128), nullable=False),
        sa.Column("pool", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer, nullable=False),
        sa.Column("opponent", sa.String(128), nullable=True),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("rated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_history_player_pool", "rating_history", ["player", "pool", "id"])
    op.create_table(
        "accounts",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("login", sa.String(64), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), primary_key=True),
        sa.Column("player", sa.String(128), nullable=False, index=True),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("transports", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "device_secrets",
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(128), nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "webauthn_challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player", sa.String(128), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.execute("UPDATE store_info SET value = '7' WHERE key = 'schema_version'")


def downgrade() -> None:
    for table in (
        "webauthn_challenges",
        "device_secrets",
        "passkeys",
        "accounts",
        "rating_history",
        "ratings",
    ):
        op.drop_table(table)
    op.execute("UPDATE store_info SET value = '6' WHERE key = 'schema_version'")
