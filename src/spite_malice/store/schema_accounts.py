"""The tables of players that last (credentials) and of ratings (``docs/storage.md``),
version 7. Core tables of their own metadata, made by migration 0007.

- ``ratings``: one row per player and pool: its Glicko-2 rating, deviation and volatility.
- ``rating_history``: one row per player and rated game: the rating after it.
- ``accounts``: one row per protected player: its sign-in name and its password's Argon2 hash.
- ``passkeys``: one row per passkey (WebAuthn credential): its public key and counter.
- ``device_secrets``: one row per browser signed in: the SHA-256 of the secret it was given.
- ``webauthn_challenges``: one row per passkey ceremony under way, until it ends or expires.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
)

METADATA = MetaData()

RATINGS = Table(
    "ratings",
    METADATA,
    Column("player", String(128), primary_key=True),
    Column("pool", String(16), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_pool_rating", "pool", "rating"),
)
RATING_HISTORY = Table(
    "rating_history",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(128), nullable=False),
    Column("pool", String(16), nullable=False),
    Column("game_id", Integer, nullable=False),
    Column("opponent", String(128), nullable=True),  # a player id, or a computer level
    Column("score", Float, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("rated_at", DateTime(timezone=True), nullable=False),
    Index("ix_rating_history_player_pool", "player", "pool", "id"),
)
ACCOUNTS = Table(
    "accounts",
    METADATA,
    Column("player", String(128), primary_key=True),
    Column("login", String(64), nullable=True, unique=True),  # casefolded; None: passkeys only
    Column("password_hash", String(256), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
PASSKEYS = Table(
    "passkeys",
    METADATA,
    Column("credential_id", String(1400), primary_key=True),  # base64url
    Column("player", String(128), nullable=False, index=True),
    Column("public_key", LargeBinary, nullable=False),
    Column("sign_count", Integer, nullable=False),
    Column("transports", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True), nullable=True),
)
DEVICE_SECRETS = Table(
    "device_secrets",
    METADATA,
    Column("secret_hash", String(64), primary_key=True),
    Column("player", String(128), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
WEBAUTHN_CHALLENGES = Table(
    "webauthn_challenges",
    METADATA,
    Column("id", String(64), primary_key=True),
    Column("challenge", String(128), nullable=False),
    Column("purpose", String(16), nullable=False),  # register or sign_in
    Column("player", String(128), nullable=True),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)
