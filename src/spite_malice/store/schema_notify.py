"""The tables of notifications (``docs/deploying.md``, "Notifications"), kept apart from
``schema.py``: made by migration 0009.

- ``server_keys``: the server's own keys, made on first start and kept here so that every
  instance signs with the same one (``vapid``: the Web Push key, a PEM private key);
- ``push_subscriptions``: one row per browser that turned notifications on: its push
  service's endpoint and keys, whose player it is and the language it reads;
- ``notification_outbox``: one row per notification, its key naming the event (a game's
  turn, its end, a rematch offer, a reminder): the instance that inserts it is the one that
  sends it, so each event is sent once across the cluster;
- ``turn_games``: one row per turn-based game (``docs/browser.md``, "Games over days"): its
  time per move, whose turn it is and since when, its deadline and whether the reminder
  went out: what every instance's clock reads, so a game's time runs on across restarts;
- ``email_addresses``: one row per player who gave an address for the daily summary: the
  address, the hash of the link's token that confirms it, and when it was confirmed.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, Float, Index, Integer, MetaData, String, Table, Text

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

TURN_GAMES = Table(
    "turn_games",
    NOTIFY_META,
    Column("room", String(32), primary_key=True),
    Column("match_id", String(64), nullable=False),
    Column("days", Integer, nullable=False),
    Column("player0", String(128), nullable=True),
    Column("player1", String(128), nullable=True),
    Column("name0", String(64), nullable=True),
    Column("name1", String(64), nullable=True),
    Column("status", String(16), nullable=False),
    Column("to_move", Integer, nullable=True),
    Column("turn", String(64), nullable=True),
    Column("turn_started", Float, nullable=True),
    Column("deadline", Float, nullable=True),
    Column("reminded", Integer, nullable=False, default=0),
)
Index("turn_games_deadline", TURN_GAMES.c.status, TURN_GAMES.c.deadline)
Index("turn_games_player0", TURN_GAMES.c.player0)
Index("turn_games_player1", TURN_GAMES.c.player1)

EMAIL_ADDRESSES = Table(
    "email_addresses",
    NOTIFY_META,
    Column("player", String(128), primary_key=True),
    Column("address", String(254), nullable=False),
    Column("token_hash", String(128), nullable=False),
    Column("language", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("confirmed_at", DateTime(timezone=True), nullable=True),
)
Index("email_addresses_token", EMAIL_ADDRESSES.c.token_hash)
