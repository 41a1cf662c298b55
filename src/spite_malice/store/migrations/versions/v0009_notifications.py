"""Version 9: notifications (``docs/deploying.md``, "Notifications").

``server_keys`` keeps the server's Web Push (VAPID) key, ``push_subscriptions`` the browsers
that turned notifications on, ``notification_outbox`` one row per notification sent, whose
key makes each event's notification go out once across the cluster
(``store/schema_notify.py``); ``turn_games`` the clock of each turn-based game,
``email_addresses`` the addresses of the daily summary.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1024), primary_key=True),
        sa.Column("player", sa.String(128), nullable=False),
        sa.Column("p256dh", sa.String(256), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("push_subscriptions_player", "push_subscriptions", ["player"])
    op.create_table(
        "notification_outbox",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("player", sa.String(128), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("instance", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "turn_games",
        sa.Column("room", sa.String(32), primary_key=True),
        sa.Column("match_id", sa.String(64), nullable=False),
        sa.Column("days", sa.Integer, nullable=False),
        sa.Column("player0", sa.String(128), nullable=True),
        sa.Column("player1", sa.String(128), nullable=True),
        sa.Column("name0", sa.String(64), nullable=True),
        sa.Column("name1", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("to_move", sa.Integer, nullable=True),
        sa.Column("turn", sa.String(64), nullable=True),
        sa.Column("turn_started", sa.Float, nullable=True),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("reminded", sa.Integer, nullable=False),
    )
    op.create_index("turn_games_deadline", "turn_games", ["status", "deadline"])
    op.create_index("turn_games_player0", "turn_games", ["player0"])
    op.create_index("turn_games_player1", "turn_games", ["player1"])
    op.create_table(
        "email_addresses",
        sa.Column("player", sa.String(128), primary_key=True),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("token_hash", sa.String(128), nullable=False),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("email_addresses_token", "email_addresses", ["token_hash"])
    op.execute("UPDATE store_info SET value = '9' WHERE key = 'schema_version'")


def downgrade() -> None:
    op.drop_table("email_addresses")
    op.drop_table("turn_games")
    op.drop_table("notification_outbox")
    op.drop_index("push_subscriptions_player", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("server_keys")
    op.execute("UPDATE store_info SET value = '8' WHERE key = 'schema_version'")
