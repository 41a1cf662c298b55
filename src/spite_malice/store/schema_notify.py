"""The tables of notifications (``docs/deploying.md``, "Notifications"), kept apart from
``schema.py``: made by migration 0009.

- ``server_keys``: the server's own keys, made on first start and kept here so that every
  instance signs with the same one (``vapid``: the Web Push key, a PEM private key);
- ``push_subscriptions``: one row per browser that turned notifications on: its push
  service's endpoint and keys, whose player it is and the language it reads;
- ``notification_outbox``: one row per notification, its key naming the event (a game's
  turn, its end, a rematch offer, a reminder): the instance that inserts it is the one that
  sends it, so each event is sent once across the cluster.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, Index, MetaData, String, Table, Text

NOTIFY_META = MetaData()

SERVER_KEYS = Table(
    "server_keys",
    NOTIFY_META,
    Column("name", String(32), primary_key=True),
    Column("value", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

PUSH_SUBSCRIPTIONS = Table(
    "push_subscriptions",
    NOTIFY_META,
    Column("endpoint", String(1024), primary_key=True),
    Column("player", String(128), nullable=False),
    Column("p256dh", String(256), nullable=False),
    Column("auth", String(64), nullable=False),
    Column("language", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
Index("push_subscriptions_player", PUSH_SUBSCRIPTIONS.c.player)

NOTIFICATION_OUTBOX = Table(
    "notification_outbox",
    NOTIFY_META,
    Column("key", String(160), primary_key=True),
    Column("player", String(128), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("instance", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("sent_at", DateTime(timezone=True), nullable=True),
)
