"""Where the terminal game keeps matches and statistics.

The game talks to storage only through :class:`Persistence`, so it runs with no database at
all (:class:`NoPersistence`) and with the project's store (see ``store_link``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .session import GameSession


@dataclass(frozen=True, slots=True)
class LevelStatistics:
    """A player's results against one level."""

    level: str
    games: int
    wins: int
    losses: int
    draws: int
    points_for: int
    points_against: int
    matches: int
    matches_won: int
    assisted: int
    best_streak: int = 0
    current_streak: int = 0


class Persistence(Protocol):
    """What the terminal game needs from storage."""

    @property
    def description(self) -> str:
        """Where things are kept, for the player: ``~/.local/share/…/games.db``."""
        ...

    def load_unfinished(self) -> GameSession | None:
        """The player's unfinished match, to go on with, or None."""
        ...

    def save(self, session: GameSession) -> None:
        """Keep the match as it stands now (called after each turn)."""
        ...

    def game_finished(self, session: GameSession) -> None:
        """The current game has just ended: record it in the player's statistics."""
        ...

    def abandon(self, session: GameSession) -> None:
        """The player starts a new match: the unfinished one is no longer offered."""
        ...

    def statistics(self) -> list[LevelStatistics]:
        """The player's statistics, one row per level played."""
        ...

    def close(self) -> None: ...


class NoPersistence:
    """Storage that keeps nothing: for tests and for ``--no-db``."""

    description = "nowhere (statistics are not kept)"

    def load_unfinished(self) -> GameSession | None:
        return None

    def save(self, session: GameSession) -> None:
        return None

    def game_finished(self, session: GameSession) -> None:
        return None

    def abandon(self, session: GameSession) -> None:
        return None

    def statistics(self) -> list[LevelStatistics]:
        return []

    def close(self) -> None:
        return None
