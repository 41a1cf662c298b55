"""Turn-based games in the store (table ``turn_games`` in ``schema_notify.py``; what they
are in ``docs/browser.md``, "Games over days"): each game's time per move and its clock,
written by the instance that stores a step which passes the turn, read by every instance's
clock, so that a game's time runs on across restarts and instances.

Times are seconds since the epoch (the caller's clock, injected in tests)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from .database import Database
from .schema_notify import TURN_GAMES

PLAYING, OVER = "playing", "over"


@dataclass(frozen=True)
class TurnGame:
    """One turn-based game's row."""

    room: str
    match_id: str
    days: int
    players: tuple[str | None, str | None]
    names: tuple[str | None, str | None]
    status: str
    to_move: int | None
    turn: str | None
    """Names the turn being played (game and turns ended): a reminder's and a time-out's."""
    turn_started: float | None
    deadline: float | None
    reminded: bool


def _game(r: Any) -> TurnGame:
    return TurnGame(
        r.room,
        r.match_id,
        r.days,
        (r.player0, r.player1),
        (r.name0, r.name1),
        r.status,
        r.to_move,
        r.turn,
        r.turn_started,
        r.deadline,
        bool(r.reminded),
    )


def _order(turn: str | None) -> tuple[int, ...] | None:
    """A turn's name (``"1.12"``: game 1, 12 turns ended) as numbers, to compare."""
    if turn is None:
        return None
    try:
        return tuple(int(part) for part in turn.split("."))
    except ValueError:
        return None


def _behind(current: TurnGame, match_id: str, status: str, turn: str | None) -> bool:
    """Whether a state of the room's match is older than the row: the row already has the
    match over, or a later turn of it."""
    if match_id != current.match_id:
        return False  # another match (a rematch): the row follows the room's new match
    if current.status != PLAYING:
        return status == PLAYING
    seen, stored = _order(turn), _order(current.turn)
    return status == PLAYING and seen is not None and stored is not None and seen < stored


def _base(game: TurnGame) -> list[tuple[str, object]]:
    """The row's columns that every observation writes, as they stand."""
    return [
        ("match_id", game.match_id),
        ("player0", game.players[0]),
        ("player1", game.players[1]),
        ("name0", game.names[0]),
        ("name1", game.names[1]),
        ("status", game.status),
    ]


class TurnGames:
    """The turn-based games of one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, room: str, match_id: str, days: int) -> None:
        with self.db.connection() as connection:
            connection.execute(
                insert(TURN_GAMES).values(
                    room=room, match_id=match_id, days=days, status=PLAYING, reminded=0
                )
            )

    def start(
        self,
        room: str,
        match_id: str,
        days: int,
        *,
        players: tuple[str, str],
        names: tuple[str, str],
        to_move: int,
        turn: str,
        now: float,
    ) -> None:
        """The row of a game whose two seats are taken and whose first game is dealt (a
        turn-based game between strangers): its first turn's clock runs from ``now``. A row
        already there stays as it is (another instance finishing the same wave wrote it
        first, from the same stored deal; its game may have gone on since)."""
        values: dict[str, object] = {
            "match_id": match_id,
            "days": days,
            "player0": players[0],
            "player1": players[1],
            "name0": names[0],
            "name1": names[1],
            "status": PLAYING,
            "to_move": to_move,
            "turn": turn,
            "turn_started": now,
            "deadline": now + days * 86400.0,
            "reminded": 0,
        }
        with self.db.connection() as connection:
            make = postgres_insert if connection.dialect.name == "postgresql" else sqlite_insert
            connection.execute(
                make(TURN_GAMES)
                .values(room=room, **values)
                .on_conflict_do_nothing(index_elements=[TURN_GAMES.c.room])
            )

    def get(self, room: str) -> TurnGame | None:
        with self.db.connection(write=False) as connection:
            row = connection.execute(select(TURN_GAMES).where(TURN_GAMES.c.room == room)).first()
        return None if row is None else _game(row)

    def rooms(self, rooms: list[str]) -> set[str]:
        """Which of ``rooms`` are turn-based."""
        if not rooms:
            return set()
        with self.db.connection(write=False) as connection:
            found = connection.execute(
                select(TURN_GAMES.c.room).where(TURN_GAMES.c.room.in_(rooms))
            ).scalars()
            return set(found)

    def observe(
        self,
        game: TurnGame,
        *,
        match_id: str,
        players: tuple[str | None, str | None],
        names: tuple[str | None, str | None],
        status: str,
        to_move: int | None,
        turn: str | None,
        now: float,
    ) -> bool:
        """Write the game as it stands: a new turn starts its clock (the time per move from
        ``now``); the same turn seen again (another instance followed the step) changes
        nothing, and neither does an older one (an instance following the room late, once
        the row has a later turn of the match, or its end). Whether the row changed. The
        row is read in the same transaction (locked on PostgreSQL), not taken from
        ``game``, which may be an instance's old copy."""
        with self.db.connection() as connection:
            query = select(TURN_GAMES).where(TURN_GAMES.c.room == game.room)
            if connection.dialect.name == "postgresql":
                query = query.with_for_update()
            row = connection.execute(query).first()
            if row is None:
                return False
            current = _game(row)
            if _behind(current, match_id, status, turn):
                return False
            values: dict[str, object] = {
                "match_id": match_id,
                "player0": players[0],
                "player1": players[1],
                "name0": names[0],
                "name1": names[1],
                "status": status,
            }
            if status != PLAYING:
                values |= {"to_move": None, "deadline": None, "turn": None}
            elif turn != current.turn or match_id != current.match_id:
                values |= {
                    "to_move": to_move,
                    "turn": turn,
                    "turn_started": now,
                    "deadline": now + current.days * 86400.0,
                    "reminded": 0,
                }
            elif all(current_value == values[key] for key, current_value in _base(current)):
                return False  # the same turn seen again: nothing to write
            statement = update(TURN_GAMES).where(TURN_GAMES.c.room == game.room)
            return bool(connection.execute(statement.values(**values)).rowcount)

    def due(self, now: float, remind_at: float) -> list[TurnGame]:
        """The games being played whose deadline passed, or whose reminder is due
        (``remind_at`` of the time per move gone, not sent yet)."""
        with self.db.connection(write=False) as connection:
            rows = connection.execute(
                select(TURN_GAMES).where(
                    TURN_GAMES.c.status == PLAYING, TURN_GAMES.c.deadline.is_not(None)
                )
            ).all()
        games = [_game(row) for row in rows]
        return [
            game
            for game in games
            if game.deadline is not None
            and game.turn_started is not None
            and (
                game.deadline <= now
                or (
                    not game.reminded
                    and now >= game.turn_started + remind_at * (game.deadline - game.turn_started)
                )
            )
        ]

    def mark_reminded(self, room: str, turn: str) -> bool:
        """Note the reminder of ``turn`` sent; False when another instance did first."""
        with self.db.connection() as connection:
            return bool(
                connection.execute(
                    update(TURN_GAMES)
                    .where(
                        TURN_GAMES.c.room == room,
                        TURN_GAMES.c.turn == turn,
                        TURN_GAMES.c.reminded == 0,
                    )
                    .values(reminded=1)
                ).rowcount
            )

    def of_player(self, player: str) -> list[TurnGame]:
        with self.db.connection(write=False) as connection:
            rows = connection.execute(
                select(TURN_GAMES).where(
                    or_(TURN_GAMES.c.player0 == player, TURN_GAMES.c.player1 == player)
                )
            ).all()
        return [_game(row) for row in rows]


__all__ = ["OVER", "PLAYING", "TurnGame", "TurnGames"]
