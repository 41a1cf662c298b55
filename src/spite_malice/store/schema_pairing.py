"""The tables of play between strangers (``docs/deploying.md``, "Quick match"), kept apart
from ``schema.py``: made by migration 0008.

- ``pool_entries``: one row per player waiting in a quick-match pool, then paired (the room
  it was given, its seat and that seat's token until the player has been told), so that a
  wave's pairs survive the instance that made them;
- ``blocks``: one row per player and player it blocked (never paired again);
- ``play_outcomes``: one row per player and rated match ended badly by that player (an
  abort, a time-out, a game claimed because the player left): what a ban counts;
- ``playbans``: one row per ban: whose, from when, until when.
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
)

PAIRING_META = MetaData()

POOL_ENTRIES = Table(
    "pool_entries",
    PAIRING_META,
    Column("player", String(128), primary_key=True),
    Column("pool", String(16), nullable=False),
    Column("name", String(64), nullable=False),
    Column("rating", Float, nullable=False),
    Column("waves", Integer, nullable=False, default=0),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Column("room", String(32), nullable=True),
    Column("match_id", String(64), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("token", String(128), nullable=True),
    Column("opponent", String(128), nullable=True),
    Column("ready", Integer, nullable=False, default=0),
    Column("paired_at", DateTime(timezone=True), nullable=True),
)
Index("pool_entries_waiting", POOL_ENTRIES.c.pool, POOL_ENTRIES.c.room)

BLOCKS = Table(
    "blocks",
    PAIRING_META,
    Column("player", String(128), primary_key=True),
    Column("blocked", String(128), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

PLAY_OUTCOMES = Table(
    "play_outcomes",
    PAIRING_META,
    Column("player", String(128), primary_key=True),
    Column("match_id", String(64), primary_key=True),
    Column("outcome", String(16), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)

PLAYBANS = Table(
    "playbans",
    PAIRING_META,
    Column("player", String(128), primary_key=True),
    Column("started_at", DateTime(timezone=True), primary_key=True),
    Column("until", DateTime(timezone=True), nullable=False),
)
