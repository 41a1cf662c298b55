"""The database tables (SQLAlchemy 2 ORM), the same on SQLite and PostgreSQL.

- ``matches``: one row per match (a web room or a terminal match), its state as
  ``Match.to_json()`` (which holds every game record, the unfinished one included), updated
  after every move, so a restarted program resumes it exactly.
- ``games``: one row per finished or abandoned game: its record and how it ended.
- ``results``: one row per player and game, what statistics are made of.
- ``match_results``: one row per player and finished match.
- ``settings``: one row per player: the page's or the terminal's settings.
- ``store_info``: the schema version.
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

SCHEMA_VERSION = 1


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class StoreInfo(Base):
    __tablename__ = "store_info"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


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
    """Statistics ids of the seats; None for the computer or a seat nobody took yet."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``playing``, ``finished`` (someone reached the target) or ``abandoned``."""
    state: Mapped[dict[str, Any]]
    """``Match.to_json()``."""
    assisted: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the current game used undo."""
    meta: Mapped[dict[str, Any]]
    """What the program playing the match needs besides (names, token hashes ...)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


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
