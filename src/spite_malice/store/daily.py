"""The daily deal in the store: a player's daily results and the daily match of a day.

A daily match is an ordinary match whose meta names its day (``TableMeta.daily``); its
games' results carry the level ``daily``. Only the first game of a daily match is the day's
deal (a drawn one is followed by a game dealt from the deal's seed, which is not the deal).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from ..daily import DailyResult, DailyStats, daily_seed, daily_stats, parse_day
from .access import Store
from .schema import GameRow, MatchRow, ResultRow
from .stats import DAILY


@dataclass(frozen=True, slots=True)
class DailyMatch:
    """A player's daily match of one day: its id, web room (None in the terminal), status
    (``playing``, ``finished`` or ``abandoned``) and where it is played."""

    id: str
    room: str | None
    status: str
    source: str
    level: str | None


def daily_results(store: Store, player: str) -> list[DailyResult]:
    """``player``'s daily games (each match's first game), in the order finished."""
    query = (
        select(ResultRow.outcome, ResultRow.points_for, MatchRow.meta)
        .join(GameRow, GameRow.id == ResultRow.game_id)
        .join(MatchRow, MatchRow.id == GameRow.match_id)
        .where(ResultRow.player == player, ResultRow.level == DAILY, GameRow.number == 1)
        .order_by(ResultRow.finished_at, ResultRow.id)
    )
    found = []
    with store._session() as session:
        for outcome, points, meta in session.execute(query).all():
            day = parse_day(meta.get("daily")) if isinstance(meta, dict) else None
            if day is None:
                continue  # not readable as a daily match: leave it out
            level = meta.get("level")
            found.append(DailyResult(day, str(outcome), int(points), str(level) if level else None))
    return found


def player_daily_stats(store: Store, player: str, on: date) -> DailyStats:
    """``player``'s daily statistics on the day ``on``."""
    return daily_stats(daily_results(store, player), on)


def daily_match(store: Store, player: str, day: date) -> DailyMatch | None:
    """``player``'s daily match of ``day`` (the first made), or None."""
    query = (
        select(MatchRow)
        .where(
            MatchRow.seed == daily_seed(day),
            (MatchRow.player0 == player) | (MatchRow.player1 == player),
        )
        .order_by(MatchRow.created_at, MatchRow.id)
    )
    with store._session() as session:
        for row in session.scalars(query).all():
            meta = row.meta if isinstance(row.meta, dict) else {}
            if meta.get("daily") == day.isoformat():
                return DailyMatch(row.id, row.room, row.status, row.source, row.level)
    return None


__all__ = ["DailyMatch", "daily_match", "daily_results", "player_daily_stats"]
