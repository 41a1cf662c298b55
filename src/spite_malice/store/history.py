"""A player's finished games, for replays: the list, and one game's record.

Only a player who sat in a game may read its record (the record holds the deal's seed, which
tells every card of that game, and nothing of any other game: each game has its own seed).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from ..engine.record import GameRecord
from .access import Store
from .schema import GameRow, MatchRow, ResultRow

HISTORY_LIMIT = 50
"""The most games a list holds (the most recent)."""


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One finished game of one player, from that player's side."""

    id: int
    seat: int
    level: str
    """The opponent's level, ``friend``, ``practice`` or ``daily`` (as statistics count it)."""
    outcome: str
    points_for: int
    points_against: int
    players: tuple[str, str]
    moves: int
    finished_at: datetime
    source: str
    """``web`` or ``terminal``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seat": self.seat,
            "level": self.level,
            "outcome": self.outcome,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "players": list(self.players),
            "moves": self.moves,
            "finished": _aware(self.finished_at).isoformat().replace("+00:00", "Z"),
            "source": self.source,
        }


def finished_games(store: Store, player: str, limit: int = HISTORY_LIMIT) -> list[GameEntry]:
    """``player``'s finished games, the most recent first (at most ``limit``)."""
    query = (
        select(ResultRow, GameRow, MatchRow.source)
        .join(GameRow, GameRow.id == ResultRow.game_id)
        .join(MatchRow, MatchRow.id == GameRow.match_id)
        .where(ResultRow.player == player)
        .order_by(ResultRow.finished_at.desc(), ResultRow.id.desc())
        .limit(max(1, min(limit, HISTORY_LIMIT)))
    )
    entries = []
    with store._session() as session:
        for result, game, source in session.execute(query).all():
            record = game.record if isinstance(game.record, dict) else {}
            players = record.get("players")
            names = (
                (str(players[0]), str(players[1]))
                if isinstance(players, list) and len(players) == 2
                else ("Player 1", "Player 2")
            )
            moves = record.get("moves")
            entries.append(
                GameEntry(
                    id=game.id,
                    seat=result.seat,
                    level=result.level,
                    outcome=result.outcome,
                    points_for=result.points_for,
                    points_against=result.points_against,
                    players=names,
                    moves=len(moves) if isinstance(moves, list) else 0,
                    finished_at=result.finished_at,
                    source=str(source),
                )
            )
    return entries


def game_record(store: Store, player: str, game_id: int) -> tuple[GameRecord, int] | None:
    """The record of game ``game_id`` and ``player``'s seat in it; None when the game is
    unknown or ``player`` did not sit in it."""
    query = (
        select(GameRow.record, ResultRow.seat)
        .join(ResultRow, ResultRow.game_id == GameRow.id)
        .where(GameRow.id == game_id, ResultRow.player == player)
    )
    with store._session() as session:
        row = session.execute(query).first()
    if row is None:
        return None
    return GameRecord.from_json(row[0]), int(row[1])


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


__all__ = ["HISTORY_LIMIT", "GameEntry", "finished_games", "game_record"]
