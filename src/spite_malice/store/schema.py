"""The database tables (SQLAlchemy 2 ORM), the same on SQLite and PostgreSQL; version 2.

Alembic migrations in ``migrations/`` make and upgrade them (a version-1 database is
migrated in place when it is opened).

- ``players``: one row per player: display name and the hash of its secret.
- ``matches``: one row per match (a web room or a terminal match): its rules, seats and the
  score so far; what happened in it is the move log.
- ``moves``: the move log: one row per deal, move, undo, hint or resignation, written in one
  small insert whatever the match's length; replaying it rebuilds the match exactly.
- ``games``: one row per finished or abandoned game: its record and how it ended.
- ``results``: one row per player and game, what statistics are made of.
- ``match_results``: one row per player and finished match.
- ``settings``: one row per player: the page's or the terminal's settings.
- ``leases``: one row per web room whose computer turn an instance is playing: who plays it
  and until when (several instances on one database, see docs/deploying.md).
- ``presence``: one row per web room, seat and server instance: whether that instance holds
  a connection of the seat, and when it last saw one (so that any instance can tell how long
  a friend has been offline, web-protocol.md 4.2 ``claim``).
- ``store_info``: the schema version, for people (Alembic keeps its own).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

SCHEMA_VERSION = 2


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class StoreInfo(Base):
    __tablename__ = "store_info"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class PlayerRow(Base):
    """A player: a display name and the hash of the secret its browser or terminal keeps."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    source: Mapped[str] = mapped_column(String(16))
    """Where it was made: ``web`` or ``terminal``."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    room: Mapped[str | None] = mapped_column(String(32), index=True)
    """The web room playing it (a room plays one match after another); None elsewhere."""
    source: Mapped[str] = mapped_column(String(16))
    """Which program plays it: ``web`` or ``terminal``."""
    kind: Mapped[str] = mapped_column(String(16))
    """``computer`` or ``friend``."""
    level: Mapped[str | None] = mapped_column(String(64))
    """The computer's level in a computer match."""
    player0: Mapped[str | None] = mapped_column(String(128))
    player1: Mapped[str | None] = mapped_column(String(128))
    """Player ids of the seats; None for the computer or a seat nobody took yet."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``playing``, ``finished`` (someone reached the target) or ``abandoned``."""
    rules: Mapped[dict[str, Any]]
    """``Rules.to_json()``."""
    seed: Mapped[int | None] = mapped_column(BigInteger)
    """The match's seed when its games derive from one; None: each game has a secret seed
    (in its deal row). Never sent to a client."""
    meta: Mapped[dict[str, Any]]
    """``TableMeta.to_json()``: seats, level, seat token hashes, the bot's seed."""
    score0: Mapped[int] = mapped_column(Integer, default=0)
    score1: Mapped[int] = mapped_column(Integer, default=0)
    game_number: Mapped[int] = mapped_column(Integer, default=0)
    """Kept with each deal and finished game, for lists of matches without a replay."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MoveRow(Base):
    """The move log, the truth of every match: one row per step (deal, move, undo, hint,
    resignation), (match, game, ply) unique, so two writers of one ply conflict."""

    __tablename__ = "moves"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[int] = mapped_column(Integer, primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int | None] = mapped_column(Integer)
    move: Mapped[str | None] = mapped_column(String(16))
    seed: Mapped[int | None] = mapped_column(BigInteger)
    """A deal's seed: secret, server-side only."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    """1 for the first game of the match."""
    seed: Mapped[int] = mapped_column(BigInteger)
    record: Mapped[dict[str, Any]]
    """``GameRecord.to_json()``."""
    winner: Mapped[int | None] = mapped_column(Integer)
    points: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(128))
    assisted: Mapped[bool] = mapped_column(Boolean, default=False)
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ResultRow(Base):
    __tablename__ = "results"
    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        Index("ix_results_player_level", "player", "level"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(128))
    seat: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(64))
    """The opponent's level, or ``friend``."""
    outcome: Mapped[str] = mapped_column(String(8))
    """``win``, ``loss`` or ``draw``."""
    points_for: Mapped[int] = mapped_column(Integer)
    points_against: Mapped[int] = mapped_column(Integer)
    assisted: Mapped[bool] = mapped_column(Boolean, default=False)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchResultRow(Base):
    __tablename__ = "match_results"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        Index("ix_match_results_player_level", "player", "level"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(128))
    seat: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(64))
    won: Mapped[bool] = mapped_column(Boolean)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SettingsRow(Base):
    __tablename__ = "settings"

    player: Mapped[str] = mapped_column(String(128), primary_key=True)
    data: Mapped[dict[str, Any]]
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LeaseRow(Base):
    """Who plays a room's computer turns: with several server instances on one database,
    exactly one instance holds a room's lease at a time; a lease that is not renewed expires,
    so another instance takes the room over when its holder dies."""

    __tablename__ = "leases"

    room: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(Base):
    """Whether one server instance holds a connection of a room's seat (``online``), and
    when it last saw one: renewed while connected, written when the last one closes. A row
    whose instance died goes stale, so a seat counts as online only while it is renewed."""

    __tablename__ = "presence"

    room: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    instance: Mapped[str] = mapped_column(String(64), primary_key=True)
    online: Mapped[bool] = mapped_column(Boolean)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyPlayRow(Base):
    """A player's daily deal of one day (``spite_malice.daily``): at most one match a player
    and a day, kept by the database itself, so that two server processes (or the terminal
    and the browser) asked at the same moment cannot both start one."""

    __tablename__ = "daily_plays"

    player: Mapped[str] = mapped_column(String(128), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    """The deal's date, ISO (``2026-12-02``), as ``TableMeta.daily``."""
    match_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
