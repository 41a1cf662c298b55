"""A player's statistics (from the stored games' results) and settings."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    select,
)

from .database import (
    Database,
)
from .schema import (
    MatchResultRow,
    ResultRow,
    SettingsRow,
    utcnow,
)
from .stats import (
    GameOutcome,
    PlayerStats,
    compute,
)


class StatsAndSettings:
    """The statistics and settings of the players of one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def stats(self, player: str) -> PlayerStats:
        """``player``'s statistics per level, from every stored game and match."""
        with self.db.session() as session:
            results = session.execute(
                select(
                    ResultRow.level,
                    ResultRow.outcome,
                    ResultRow.points_for,
                    ResultRow.points_against,
                    ResultRow.assisted,
                )
                .where(ResultRow.player == player)
                .order_by(ResultRow.finished_at, ResultRow.id)
            ).all()
            matches = session.execute(
                select(MatchResultRow.level, MatchResultRow.won)
                .where(MatchResultRow.player == player)
                .order_by(MatchResultRow.finished_at, MatchResultRow.id)
            ).all()
        games = [GameOutcome(r[0], r[1], r[2], r[3], bool(r[4])) for r in results]
        return compute(player, games, [(m[0], bool(m[1])) for m in matches])

    # ----------------------------------------------------------------- settings

    def settings(self, player: str) -> dict[str, Any] | None:
        """The settings stored for ``player``, or None."""
        with self.db.session() as session:
            row = session.get(SettingsRow, player)
            return None if row is None else dict(row.data)

    def save_settings(self, player: str, data: dict[str, Any]) -> None:
        with self.db.session(write=True) as session:
            row = session.get(SettingsRow, player)
            if row is None:
                session.add(SettingsRow(player=player, data=dict(data)))
            else:
                row.data = dict(data)
                row.updated_at = utcnow()

    # ----------------------------------------------------------------- several instances
