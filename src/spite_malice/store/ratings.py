"""The ratings' repository: each player's Glicko-2 rating per pool, updated in the
transaction that writes a rated game's result (:func:`rate_game`, called by the move log),
so that every server instance on the database sees the same ratings; the rating history
and the leaderboards (``docs/ratings.md``).

Rated: every finished game (a resigned or claimed one too) of a match between strangers
(``TableMeta.pool`` ``standard`` or ``quick``), in that pool; every finished game of a
turn-based one (``days-1``, ``days-3``, ``days-7``) in the ``turn-based`` pool, one rating
for the three; and every finished game
against a computer level, neither practice nor the daily deal nor assisted (undo) and under
a rules preset, in the ``computer`` pool against the level's fixed rating."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, insert, select, update
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
    TURN_POOLS,
    Rating,
    after_game,
    as_of,
    rating,
    rating_pool,
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
    if meta.pool in STRANGER_POOLS or meta.pool in TURN_POOLS:
        if not all(player is not None for player in header.players):
            return None
        return rating_pool(meta.pool)
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


_UPDATE = (
    update(RATINGS)
    .where(RATINGS.c.player == bindparam("who"), RATINGS.c.pool == bindparam("in_pool"))
    .values(
        rating=bindparam("rating"),
        deviation=bindparam("deviation"),
        volatility=bindparam("volatility"),
        games=bindparam("games"),
        updated_at=bindparam("updated_at"),
    )
)


def _locked(
    connection: Connection, players: list[str], pool: str, now: datetime
) -> dict[str, tuple[Glicko, int]]:
    """The players' ratings in ``pool`` as they stand at ``now``: their rows, made when
    missing, locked for this transaction on PostgreSQL (two games of one player ending at
    once are rated one after the other), in one statement each way."""
    new = [
        {
            "player": player,
            "pool": pool,
            "rating": NEW_RATING.rating,
            "deviation": NEW_RATING.deviation,
            "volatility": NEW_RATING.volatility,
            "games": 0,
            "updated_at": now,
        }
        for player in players
    ]
    make = postgres_insert if connection.dialect.name == "postgresql" else sqlite_insert
    connection.execute(make(RATINGS).values(new).on_conflict_do_nothing())
    query = (
        select(RATINGS)
        .where(RATINGS.c.player.in_(players), RATINGS.c.pool == pool)
        .order_by(RATINGS.c.player)
        .with_for_update()
    )
    return {row.player: _stored(row, now) for row in connection.execute(query)}


def rate_game(
    connection: Connection, header: MatchHeader, step: Step, game_id: int, now: datetime
) -> None:
    """Update the ratings a finished game changes, in its own transaction (``connection``);
    nothing for a game that is not rated (:func:`rated_pool`). Four statements whatever
    the game: the rows made, read and locked, updated, and the history's rows."""
    pool = rated_pool(header)
    record = step.finished
    if pool is None or record is None or record.result is None:
        return
    winner = record.result.winner
    # (player, seat, the opponent's rating, what history names the opponent)
    games: list[tuple[str, int, Glicko | None, str]] = []
    if pool == COMPUTER_POOL:
        seat = 1 - (header.meta.computer_seat or 0)
        player = header.players[seat]
        if step.assisted or player is None:
            return  # the player undid moves: not a test of its strength
        level = str(header.meta.level)
        games.append((player, seat, LEVEL_RATINGS[level], level))
    else:
        first, second = header.players
        if first is None or second is None or first == second:
            return  # one player in both seats: never rated
        games += [(first, 0, None, second), (second, 1, None, first)]
    stored = _locked(connection, sorted({game[0] for game in games}), pool, now)
    updates, history = [], []
    for player, seat, fixed, against in games:
        before, count = stored[player]
        opponent = fixed if fixed is not None else stored[against][0]
        score = score_of(seat, winner)
        after = after_game(before, opponent, score)
        updates.append(
            {
                "who": player,
                "in_pool": pool,
                "rating": after.rating,
                "deviation": after.deviation,
                "volatility": after.volatility,
                "games": count + 1,
                "updated_at": now,
            }
        )
        history.append(
            {
                "player": player,
                "pool": pool,
                "game_id": game_id,
                "opponent": against,
                "score": score,
                "rating": after.rating,
                "deviation": after.deviation,
                "rated_at": now,
            }
        )
    connection.execute(_UPDATE, updates)
    connection.execute(insert(RATING_HISTORY), history)


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
