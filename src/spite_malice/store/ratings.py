"""The ratings' repository: each player's Glicko-2 rating per pool, updated in the
transaction that writes a rated game's result (:func:`rate_game`, called by the move log),
so that every server instance on the database sees the same ratings; the rating history
and the leaderboards (``docs/ratings.md``).

Rated: every finished game (a resigned or claimed one too) of a match between strangers
(``TableMeta.pool`` ``standard`` or ``quick``), in that pool; and every finished game
against a computer level, neither practice nor the daily deal nor assisted (undo) and under
a rules preset, in the ``computer`` pool against the level's fixed rating."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ..engine.rules import PRESETS
from ..match_records import Step
from ..ratings.glicko2 import Glicko
from ..ratings.policy import (
    COMPUTER_POOL,
    LEADERBOARD_DAYS,
    LEADERBOARD_SIZE,
    LEVEL_RATINGS,
    NEW_RATING,
    PROVISIONAL_DEVIATION,
    STRANGER_POOLS,
    Rating,
    after_game,
    as_of,
    rating,
    score_of,
)
from .database import Database, aware
from .records import COMPUTER, MatchHeader
from .schema import PlayerRow, utcnow
from .schema_accounts import RATING_HISTORY, RATINGS

_PLAYERS = PlayerRow.__table__


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A player's rating in a pool after one rated game."""

    rated_at: datetime
    rating: float
    deviation: float
    score: float
    opponent: str | None


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    player: str
    name: str
    rating: float
    deviation: float
    games: int


def rated_pool(header: MatchHeader) -> str | None:
    """The pool whose rating a game of this match changes, or None when it is not rated."""
    meta = header.meta
    if meta.pool in STRANGER_POOLS:
        return meta.pool if all(player is not None for player in header.players) else None
    if (
        meta.kind == COMPUTER
        and not meta.practice
        and meta.daily is None
        and meta.level in LEVEL_RATINGS
        and header.rules in PRESETS.values()
    ):
        return COMPUTER_POOL
    return None


def _stored(row: object | None, now: datetime) -> tuple[Glicko, int]:
    """A ``ratings`` row as it stands at ``now`` (idle days widen its deviation)."""
    if row is None:
        return NEW_RATING.glicko, 0
    value = Glicko(row.rating, row.deviation, row.volatility)  # type: ignore[attr-defined]
    return as_of(value, aware(row.updated_at), now), row.games  # type: ignore[attr-defined]


def _locked(connection: Connection, player: str, pool: str, now: datetime) -> object:
    """The player's rating row in ``pool``, made when missing, locked for this transaction
    on PostgreSQL (two games of one player ending at once are rated one after the other)."""
    values = {
        "player": player,
        "pool": pool,
        "rating": NEW_RATING.rating,
        "deviation": NEW_RATING.deviation,
        "volatility": NEW_RATING.volatility,
        "games": 0,
        "updated_at": now,
    }
    make = postgres_insert if connection.dialect.name == "postgresql" else sqlite_insert
    connection.execute(make(RATINGS).values(values).on_conflict_do_nothing())
    query = select(RATINGS).where(RATINGS.c.player == player, RATINGS.c.pool == pool)
    return connection.execute(query.with_for_update()).one()


def rate_game(
    connection: Connection, header: MatchHeader, step: Step, game_id: int, now: datetime
) -> None:
    """Update the ratings a finished game changes, in its own transaction (``connection``);
    nothing for a game that is not rated (:func:`rated_pool`)."""
    pool = rated_pool(header)
    record = step.finished
    if pool is None or record is None or record.result is None:
        return
    winner = record.result.winner
    if pool == COMPUTER_POOL:
        if step.assisted:
            return  # the player undid moves: not a test of its strength
        seat = 1 - (header.meta.computer_seat or 0)
        player = header.players[seat]
        level = LEVEL_RATINGS[str(header.meta.level)]
        if player is None:
            return
        before, games = _stored(_locked(connection, player, pool, now), now)
        _write(
            connection,
            player,
            pool,
            before,
            games,
            level,
            score_of(seat, winner),
            game_id,
            str(header.meta.level),
            now,
        )
        return
    players = [p for p in header.players if p is not None]
    rows = [_locked(connection, p, pool, now) for p in sorted(set(players))]
    if len(rows) != 2:
        return  # one player in both seats: never rated
    stored = {row.player: _stored(row, now) for row in rows}  # type: ignore[attr-defined]
    for seat, player in enumerate(players):
        opponent = players[1 - seat]
        before, games = stored[player]
        _write(
            connection,
            player,
            pool,
            before,
            games,
            stored[opponent][0],
            score_of(seat, winner),
            game_id,
            opponent,
            now,
        )


def _write(
    connection: Connection,
    player: str,
    pool: str,
    before: Glicko,
    games: int,
    opponent: Glicko,
    score: float,
    game_id: int,
    against: str,
    now: datetime,
) -> None:
    after = after_game(before, opponent, score)
    connection.execute(
        update(RATINGS)
        .where(RATINGS.c.player == player, RATINGS.c.pool == pool)
        .values(
            rating=after.rating,
            deviation=after.deviation,
            volatility=after.volatility,
            games=games + 1,
            updated_at=now,
        )
    )
    connection.execute(
        insert(RATING_HISTORY).values(
            player=player,
            pool=pool,
            game_id=game_id,
            opponent=against,
            score=score,
            rating=after.rating,
            deviation=after.deviation,
            rated_at=now,
        )
    )


class Ratings:
    """The ratings of one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def rating_of(self, player_id: str, pool: str) -> Rating:
        """``player_id``'s rating in ``pool`` now (a new player's: 1500, 350, 0.06,
        provisional)."""
        now = utcnow()
        with self.db.connection(write=False) as connection:
            row = connection.execute(
                select(RATINGS).where(RATINGS.c.player == player_id, RATINGS.c.pool == pool)
            ).first()
        value, games = _stored(row, now)
        return rating(value, games)

    def ratings_of(self, player_id: str) -> dict[str, Rating]:
        """Every pool's rating of the player (the pools it never played left out)."""
        now = utcnow()
        with self.db.connection(write=False) as connection:
            rows = connection.execute(select(RATINGS).where(RATINGS.c.player == player_id)).all()
        return {row.pool: rating(*_stored(row, now)) for row in rows}

    def history(self, player_id: str, pool: str, limit: int = 500) -> list[HistoryPoint]:
        """The player's rating after each of its last ``limit`` rated games, oldest first."""
        query = (
            select(RATING_HISTORY)
            .where(RATING_HISTORY.c.player == player_id, RATING_HISTORY.c.pool == pool)
            .order_by(RATING_HISTORY.c.id.desc())
            .limit(limit)
        )
        with self.db.connection(write=False) as connection:
            rows = connection.execute(query).all()
        return [
            HistoryPoint(aware(r.rated_at), r.rating, r.deviation, r.score, r.opponent)
            for r in reversed(rows)
        ]

    def leaderboard(
        self, pool: str, *, now: datetime | None = None, size: int = LEADERBOARD_SIZE
    ) -> list[LeaderboardRow]:
        """The pool's best established players (deviation at most
        :data:`PROVISIONAL_DEVIATION` today) who played it in the last
        :data:`LEADERBOARD_DAYS` days, best first."""
        now = now or utcnow()
        since = now - timedelta(days=LEADERBOARD_DAYS)
        query = (
            select(RATINGS, _PLAYERS.c.name)
            .join(_PLAYERS, _PLAYERS.c.id == RATINGS.c.player)
            .where(
                RATINGS.c.pool == pool,
                RATINGS.c.updated_at >= since,
                RATINGS.c.deviation <= PROVISIONAL_DEVIATION,
            )
            .order_by(RATINGS.c.rating.desc(), RATINGS.c.player)
            .limit(size * 2)
        )
        with self.db.connection(write=False) as connection:
            rows = connection.execute(query).all()
        board = []
        for row in rows:
            value, games = _stored(row, now)
            if rating(value, games).provisional:
                continue  # idle days since made it provisional again
            board.append(LeaderboardRow(row.player, row.name, value.rating, value.deviation, games))
        return board[:size]
