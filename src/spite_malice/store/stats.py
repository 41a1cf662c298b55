"""Players' statistics per level, made from the stored results of their games and matches."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

LEVEL_ORDER = ("easy", "medium", "hard", "expert")
FRIEND = "friend"
"""The level of a game against a person."""
PRACTICE = "practice"
"""The level of a game against the computer dealt from a seed the player chose: shown on
its own row and left out of the total (the player may have known the deal)."""
DAILY = "daily"
"""The level of the daily deal's games (``spite_malice.daily``): the same deal for everyone,
so, like practice, shown on its own row and left out of the total."""
APART = (PRACTICE, DAILY)
"""Levels whose deals were known: kept out of the total."""
WIN, LOSS, DRAW = "win", "loss", "draw"


@dataclass(slots=True)
class LevelStats:
    """One player's record against one level (or against friends, or in total)."""

    level: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    points_for: int = 0
    points_against: int = 0
    matches: int = 0
    matches_won: int = 0
    matches_lost: int = 0
    current_streak: int = 0
    """Wins in a row up to the last game."""
    best_streak: int = 0
    """The longest run of wins."""
    assisted: int = 0
    """Games in which the player used undo."""

    @property
    def win_rate(self) -> float:
        """Wins per game, 0.0 with no games."""
        return round(self.wins / self.games, 3) if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["win_rate"] = self.win_rate
        return data


@dataclass(slots=True)
class PlayerStats:
    """A player's statistics: one row per level played, and the total."""

    player: str
    levels: list[LevelStats] = field(default_factory=list)
    total: LevelStats = field(default_factory=lambda: LevelStats("all"))

    def level(self, level: str) -> LevelStats:
        """The row of ``level`` (an empty one when it was never played)."""
        for row in self.levels:
            if row.level == level:
                return row
        return LevelStats(level)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "levels": [row.to_json() for row in self.levels],
            "total": self.total.to_json(),
        }


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished game from one player's side, oldest first when fed to :func:`compute`."""

    level: str
    outcome: str
    points_for: int
    points_against: int
    assisted: bool


def compute(
    player: str, games: Iterable[GameOutcome], matches: Iterable[tuple[str, bool]]
) -> PlayerStats:
    """Statistics from a player's games (in the order played) and matches (level, won)."""
    rows: dict[str, LevelStats] = {}
    total = LevelStats("all")
    runs: dict[str, int] = {}
    total_run = 0
    for game in games:
        row = rows.setdefault(game.level, LevelStats(game.level))
        counted = game.level not in APART
        for target in (row, total) if counted else (row,):
            target.games += 1
            target.points_for += game.points_for
            target.points_against += game.points_against
            target.assisted += int(game.assisted)
            if game.outcome == WIN:
                target.wins += 1
            elif game.outcome == LOSS:
                target.losses += 1
            else:
                target.draws += 1
        won = game.outcome == WIN
        runs[game.level] = runs.get(game.level, 0) + 1 if won else 0
        row.current_streak = runs[game.level]
        row.best_streak = max(row.best_streak, row.current_streak)
        if not counted:
            continue
        total_run = total_run + 1 if won else 0
        total.current_streak = total_run
        total.best_streak = max(total.best_streak, total_run)
    for level, won in matches:
        row = rows.setdefault(level, LevelStats(level))
        for target in (row, total) if level not in APART else (row,):
            target.matches += 1
            target.matches_won += int(won)
            target.matches_lost += int(not won)
    return PlayerStats(player, _ordered(rows.values()), total)


def _ordered(rows: Iterable[LevelStats]) -> list[LevelStats]:
    def key(row: LevelStats) -> tuple[int, int, str]:
        if row.level in LEVEL_ORDER:
            return (0, LEVEL_ORDER.index(row.level), "")
        if row.level == FRIEND:
            return (2, 0, "")
        if row.level == PRACTICE:
            return (3, 0, "")
        if row.level == DAILY:
            return (4, 0, "")
        return (1, 0, row.level)

    return sorted(rows, key=key)


def outcome_for(seat: int, winner: int | None) -> str:
    """``win``, ``loss`` or ``draw`` for ``seat`` in a game won by ``winner``."""
    if winner is None:
        return DRAW
    return WIN if winner == seat else LOSS


__all__: Sequence[str] = [
    "APART",
    "DAILY",
    "DRAW",
    "FRIEND",
    "LOSS",
    "PRACTICE",
    "WIN",
    "GameOutcome",
    "LevelStats",
    "PlayerStats",
    "compute",
    "outcome_for",
]
