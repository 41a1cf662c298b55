"""Storage of players, matches (as a move log), games, statistics and settings through
SQLAlchemy (SQLite by default, PostgreSQL through the same URL), migrated with Alembic.
Shared by the web server and the terminal game; see ``docs/storage.md``."""

from __future__ import annotations

from .access import (
    ABANDONED,
    FINISHED,
    PLAYING,
    DailyTaken,
    LeaseRenewal,
    MatchHeader,
    MatchSummary,
    Player,
    SeatPresence,
    Store,
    StoreConflict,
    StoreDataError,
    StoredMatch,
    StoreError,
    StoreUnavailable,
)
from .async_writer import AsyncWriter
from .location import default_path, describe, resolve_url
from .stats import FRIEND, GameOutcome, LevelStats, PlayerStats, compute

__all__ = [
    "ABANDONED",
    "FINISHED",
    "FRIEND",
    "PLAYING",
    "AsyncWriter",
    "DailyTaken",
    "GameOutcome",
    "LeaseRenewal",
    "LevelStats",
    "MatchHeader",
    "MatchSummary",
    "Player",
    "PlayerStats",
    "SeatPresence",
    "Store",
    "StoreConflict",
    "StoreDataError",
    "StoreError",
    "StoreUnavailable",
    "StoredMatch",
    "compute",
    "default_path",
    "describe",
    "resolve_url",
]
