"""Storage of matches, games, statistics and settings through SQLAlchemy (SQLite by default,
PostgreSQL through the same URL). Shared by the web server and the terminal game; see
``docs/storage.md``."""

from __future__ import annotations

from .access import (
    ABANDONED,
    FINISHED,
    PLAYING,
    MatchSummary,
    SavedMatch,
    Store,
    StoreError,
    default_player,
)
from .location import default_path, describe, resolve_url
from .stats import FRIEND, GameOutcome, LevelStats, PlayerStats, compute

__all__ = [
    "ABANDONED",
    "FINISHED",
    "FRIEND",
    "PLAYING",
    "GameOutcome",
    "LevelStats",
    "MatchSummary",
    "PlayerStats",
    "SavedMatch",
    "Store",
    "StoreError",
    "compute",
    "default_path",
    "default_player",
    "describe",
    "resolve_url",
]
