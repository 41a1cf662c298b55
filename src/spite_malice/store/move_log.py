"""The move log's repository: a match's header and its steps, one row a step, the finished
games' rows and results in the transaction of their last step, and the group commit of many
rooms' steps in one transaction (:meth:`MoveLog.append_many`).

A step whose (match, game, ply) is already stored raises :class:`StoreConflict`: another
process wrote first, and the caller reloads the match (:meth:`MoveLog.load_match`)."""

from __future__ import annotations

import functools
import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import datetime
from typing import Any

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - a store used without the web extra
    _orjson = None  # type: ignore[assignment]

from sqlalchemy import (
    Connection,
    Table,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.sql.expression import Update

from ..engine.errors import SpiteMaliceError
from ..engine.record import GameRecord
from ..engine.rules import Rules
from ..match_records import ABORT, CLAIM, DEAL, MOVE, RESIGN, Step, TableMeta
from .database import (
    NOTIFY_CHANNEL,
    DailyTaken,
    Database,
    StoreConflict,
    StoreDataError,
    _Refused,
    announcement,
    aware,
)
from .ratings import rate_game
from .records import (
    ABANDONED,
    FINISHED,
    PLAYING,
    LeaseRenewal,
    MatchHeader,
    MatchSummary,
    StoredMatch,
)
from .schema import (
    DailyPlayRow,
    GameRow,
    LeaseRow,
    MatchResultRow,
    MatchRow,
    MoveRow,
    PresenceRow,
    ResultRow,
    utcnow,
)
from .stats import (
    LOSS,
    WIN,
    outcome_for,
)

log = logging.getLogger(__name__)


def _json_text(rows: list[dict[str, Any]]) -> str:
    """``rows`` as compact JSON: by orjson when it is there (the web extra; about a tenth of
    the standard library's time) and can write them (not a number past 64 bits), else by the
    standard library. The same JSON either way (orjson leaves non-ASCII text unescaped)."""
    if _orjson is not None:
        try:
            return _orjson.dumps(rows).decode()
        except _orjson.JSONEncodeError:
            pass
    return json.dumps(rows, separators=(",", ":"))


_MOVES: Table = MoveRow.__table__  # type: ignore[assignment]
_MATCHES: Table = MatchRow.__table__  # type: ignore[assignment]
_LEASES: Table = LeaseRow.__table__  # type: ignore[assignment]
_PRESENCE: Table = PresenceRow.__table__  # type: ignore[assignment]
_GAMES: Table = GameRow.__table__  # type: ignore[assignment]
_RESULTS: Table = ResultRow.__table__  # type: ignore[assignment]
_MATCH_RESULTS: Table = MatchResultRow.__table__  # type: ignore[assignment]
_HEAD = (
    select(_MOVES.c.game, func.max(_MOVES.c.ply))
    .where(_MOVES.c.match_id == bindparam("match"))
    .group_by(_MOVES.c.game)
    .order_by(_MOVES.c.game.desc())
    .limit(1)
)
"""The last stored step's (game, ply) of a match: built once, so that a call only binds
its parameters (building a statement for every call cost several times its execution)."""

_STEPS_AFTER = (
    select(_MOVES.c.kind, _MOVES.c.game, _MOVES.c.ply, _MOVES.c.seat, _MOVES.c.move, _MOVES.c.seed)
    .where(
        _MOVES.c.match_id == bindparam("match"),
        (_MOVES.c.game > bindparam("game"))
        | ((_MOVES.c.game == bindparam("game")) & (_MOVES.c.ply > bindparam("ply"))),
    )
    .order_by(_MOVES.c.game, _MOVES.c.ply)
)
"""The steps of a match after a (game, ply): what another instance stored since."""
_LATEST_IN_ROOM = (
    select(_MATCHES.c.id)
    .where(_MATCHES.c.room == bindparam("room"))
    .order_by(_MATCHES.c.created_at.desc(), _MATCHES.c.id.desc())
    .limit(1)
)
"""The id of a web room's latest match."""
_RENEW_HELD = (
    update(_LEASES)
    .where(
        _LEASES.c.room.in_(bindparam("rooms", expanding=True)),
        _LEASES.c.owner == bindparam("lease_owner"),
        _LEASES.c.expires_at >= bindparam("now"),
    )
    .values(expires_at=bindparam("until"))
    .returning(_LEASES.c.room)
)
"""The computer-turn leases of some rooms that their owner still holds, renewed until a
time, answering the rooms renewed: one statement, built once (a SELECT, then an UPDATE
built for each call, cost half of a group commit's CPU on SQLite)."""


APPEND_MANY_POSTGRES = f"""
WITH steps AS (
    SELECT * FROM json_to_recordset(%(steps)s::json)
    AS step(match_id text, game int, ply int, kind text, seat int, move text, seed bigint)
), stored AS (
    INSERT INTO {_MOVES.name} (match_id, game, ply, kind, seat, move, seed, created_at)
    SELECT match_id, game, ply, kind, seat, move, seed, %(now)s FROM steps
), touched AS (
    UPDATE {_MATCHES.name} SET updated_at = %(now)s WHERE id IN (SELECT match_id FROM steps)
), renewed AS (
    UPDATE {_LEASES.name} SET expires_at = %(until)s
    WHERE room = ANY(%(renew)s::text[]) AND owner = %(owner)s AND expires_at >= %(now)s
    RETURNING room
)
SELECT pg_notify(%(channel)s, %(payload)s), ARRAY(SELECT room FROM renewed)
"""
"""A group commit on PostgreSQL in one statement, run as its own transaction: the steps'
rows, their matches' times, the computer-turn leases it renews (the rooms that come back)
and one announcement of all its rooms (PostgreSQL runs every
data-changing part of a WITH, and sends the announcement only if the statement commits).
One round trip instead of five (begin, insert, update, notify, commit), and no ORM or
statement building on the way: a server's commit of a few moves cost about three times as
much CPU before. The steps go as one JSON text, not as seven arrays: the driver inspected
every element of every array to choose its type, a third of the call's CPU."""


def append_many_values(
    steps: Sequence[tuple[MatchHeader, Step]],
    now: datetime,
    renew: LeaseRenewal | None,
    origin: str,
) -> dict[str, Any]:
    """The parameters of :data:`APPEND_MANY_POSTGRES` for a group commit of ``steps`` at
    ``now`` renewing ``renew``, announced as ``origin``'s."""
    rows = [_step_row(header.id, step) for header, step in steps]
    return {
        "steps": _json_text(rows),
        "now": now,
        "channel": NOTIFY_CHANNEL,
        "payload": announcement(origin, {header.room for header, _ in steps}),
        "renew": sorted(renew.rooms) if renew is not None else [],
        "owner": renew.owner if renew is not None else "",
        "until": renew.until(now) if renew is not None else now,
    }


def renew_leases(
    connection: Connection, renew: LeaseRenewal | None, now: datetime
) -> frozenset[str]:
    """The leases of ``renew`` renewed in the caller's transaction (SQLite's group
    commit; PostgreSQL's is one statement): the rooms whose lease the owner held."""
    if renew is None or not renew.rooms:
        return frozenset()
    rooms = connection.scalars(
        _RENEW_HELD,
        {
            "rooms": sorted(renew.rooms),
            "lease_owner": renew.owner,
            "now": now,
            "until": renew.until(now),
        },
    ).all()
    return frozenset(rooms)


class MoveLog:
    """The matches and their steps in one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def create_match(self, header: MatchHeader, deal: Step) -> MatchHeader:
        """Store a new match with its first step (the first deal); returns the header as
        stored (with its times)."""
        now = utcnow()
        with self.db.session(write=True) as session:
            session.add(
                MatchRow(
                    id=header.id,
                    room=header.room,
                    source=header.source,
                    kind=header.kind,
                    level=header.level,
                    player0=header.players[0],
                    player1=header.players[1],
                    status=header.status,
                    rules=header.rules.to_json(),
                    seed=header.seed,
                    meta=header.meta.to_json(),
                    score0=header.score[0],
                    score1=header.score[1],
                    game_number=deal.game,
                    created_at=now,
                    updated_at=now,
                )
            )
            session.flush()
            if header.meta.daily is not None:
                self._take_daily(session, header, now)
            session.execute(insert(_MOVES), [_move_row(header.id, deal, now)])
            self.db.announce(session, header.room)
        return replace(header, game_number=deal.game, created_at=now, updated_at=now)

    @staticmethod
    def _take_daily(session: Session, header: MatchHeader, now: datetime) -> None:
        """Record ``header``'s match as its players' daily deal of its day, in the match's
        own transaction: :class:`DailyTaken` (and nothing stored) when one has it already."""
        day = header.meta.daily
        for player in header.players:
            if player is not None:
                session.add(
                    DailyPlayRow(player=player, day=day, match_id=header.id, created_at=now)
                )
        try:
            session.flush()  # the whole transaction is rolled back on the way out
        except IntegrityError:
            raise DailyTaken(f"a daily deal of {day} is started already") from None

    def append(self, header: MatchHeader, step: Step) -> None:
        """Write one step of the match (one insert, plus an update of the match's row; the
        finished game's rows when the step ends one). Constant time whatever the match's
        length. :class:`StoreConflict` when that ply is stored already."""
        now = utcnow()
        values: dict[str, Any] = {"updated_at": now}
        if step.kind == DEAL:
            values["game_number"] = step.game
        try:
            with self.db.connection() as connection:  # a few statements, no ORM
                connection.execute(insert(_MOVES), [_move_row(header.id, step, now)])
                if step.finished is not None:
                    self._add_game(connection, header, step, values, now)
                if step.kind == ABORT:  # no result: no game row, nothing counted or rated
                    values["status"] = ABANDONED
                connection.execute(_touch(header.id, values))
                self.db.announce(connection, header.room)
        except IntegrityError as error:
            raise StoreConflict(
                f"game {step.game} ply {step.ply} of match {header.id} is stored already"
            ) from error

    def append_many(
        self,
        steps: Sequence[tuple[MatchHeader, Step]],
        renew: LeaseRenewal | None = None,
    ) -> frozenset[str]:
        """:meth:`append` for steps of several matches in one transaction (a group commit:
        a busy server commits once for many rooms' moves). Only steps that end no game and
        deal none; :class:`StoreConflict` for the whole batch when any one conflicts.

        With ``renew``, the same transaction renews those rooms' computer-turn leases that
        its owner still holds (unexpired), as :meth:`acquire_lease` would, and returns the
        rooms renewed: a server playing a room renews its lease in the room's own writes,
        not in a transaction of its own."""
        now = utcnow()
        assert all(step.finished is None and step.kind != DEAL for _, step in steps)
        if self.db.announces:  # PostgreSQL
            return self._append_many_postgres(steps, now, renew)
        return self._append_many_sqlite(self.db.connection(), steps, now, renew)

    def append_many_now(
        self,
        steps: Sequence[tuple[MatchHeader, Step]],
        renew: LeaseRenewal | None = None,
    ) -> frozenset[str]:
        """:meth:`append_many` on a SQLite file without waiting for its lock, for a caller on
        the event loop (a commit of a few rows takes a fraction of a millisecond, less than
        handing it to a thread and back): :class:`~.database.WriteBusy` at once, nothing
        written, when another writer holds the file (see :meth:`Database.connection_now`)."""
        assert all(step.finished is None and step.kind != DEAL for _, step in steps)
        now = utcnow()
        stored_at = _time_text(self.db.engine.dialect, now)
        rooms = sorted(renew.rooms) if renew is not None else []
        try:
            with self.db.connection_now() as driver:
                # the driver's own calls, as _append_many_sqlite's statements: the same rows
                driver.executemany(
                    _INSERT_MOVES_SQLITE,
                    [(header.id, *_step_values(step), stored_at) for header, step in steps],
                )
                driver.executemany(_TOUCH_SQLITE, [(stored_at, header.id) for header, _ in steps])
                renewed: frozenset[str] = frozenset()
                if renew is not None and rooms:
                    until = _time_text(self.db.engine.dialect, renew.until(now))
                    held = driver.execute(
                        _renew_held_sqlite(len(rooms)), [until, *rooms, renew.owner, stored_at]
                    ).fetchall()
                    renewed = frozenset(room for (room,) in held)
        except sqlite3.IntegrityError as error:
            raise StoreConflict("a step of the batch is stored already") from error
        return renewed

    def _append_many_sqlite(
        self,
        transaction: AbstractContextManager[Connection],
        steps: Sequence[tuple[MatchHeader, Step]],
        now: datetime,
        renew: LeaseRenewal | None,
    ) -> frozenset[str]:
        try:
            with transaction as connection:
                # the driver's own statements, the time bound as SQLAlchemy binds it: no
                # statement to build, cache or compile for each commit (half its CPU)
                stored_at = _sqlite_time(connection, now)
                connection.exec_driver_sql(
                    _INSERT_MOVES_SQLITE,
                    [(header.id, *_step_values(step), stored_at) for header, step in steps],
                )
                connection.exec_driver_sql(
                    _TOUCH_SQLITE, [(stored_at, header.id) for header, _ in steps]
                )
                renewed = renew_leases(connection, renew, now)
                self.db.announce_many(connection, {header.room for header, _ in steps})
        except IntegrityError as error:
            raise StoreConflict("a step of the batch is stored already") from error
        return renewed

    def _append_many_postgres(
        self,
        steps: Sequence[tuple[MatchHeader, Step]],
        now: datetime,
        renew: LeaseRenewal | None,
    ) -> frozenset[str]:
        """:meth:`append_many` on PostgreSQL: :data:`APPEND_MANY_POSTGRES`, one statement
        (:meth:`_one_statement`)."""
        values = append_many_values(steps, now, renew, self.db.origin)
        try:
            answer = self.db.one_statement(APPEND_MANY_POSTGRES, values)
        except _Refused as refused:
            raise StoreConflict("a step of the batch is stored already") from refused.error
        renewed: list[str] = answer[0][1] or []
        return frozenset(renewed)

    def update_header(self, header: MatchHeader) -> None:
        """Write the match's seats and meta again (a friend took a seat)."""
        with self.db.session(write=True) as session:
            session.execute(
                update(_MATCHES)
                .where(_MATCHES.c.id == header.id)
                .values(
                    player0=header.players[0],
                    player1=header.players[1],
                    meta=header.meta.to_json(),
                    updated_at=utcnow(),
                )
            )
            self.db.announce(session, header.room)

    def claim_seat(self, header: MatchHeader, seat: int) -> bool:
        """Write ``header`` (a friend taking ``seat``) only if that seat is still empty in
        the store: one conditional UPDATE, so that of two joins at once, through two
        processes, exactly one gets the seat. False (nothing written) when it was taken."""
        column = _MATCHES.c.player0 if seat == 0 else _MATCHES.c.player1
        with self.db.session(write=True) as session:
            result = session.execute(
                update(_MATCHES)
                .where(_MATCHES.c.id == header.id, column.is_(None))
                .values(
                    player0=header.players[0],
                    player1=header.players[1],
                    meta=header.meta.to_json(),
                    updated_at=utcnow(),
                )
            )
            if getattr(result, "rowcount", 0) != 1:
                return False
            self.db.announce(session, header.room)
        return True

    def load_match(self, match_id: str) -> StoredMatch | None:
        """The stored match and its log, or None when unknown."""
        with self.db.session() as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                return None
            steps = session.scalars(
                select(MoveRow)
                .where(MoveRow.match_id == match_id)
                .order_by(MoveRow.game, MoveRow.ply)
            ).all()
            header = _header(row)
            return StoredMatch(header, [_step(move) for move in steps])

    def head(self, match_id: str) -> tuple[int, int]:
        """(game number, steps in that game) of the match's last stored step: compare it
        with a table's to know whether another process moved on."""
        with self.db.connection(write=False) as connection:  # no ORM session: a hot path
            return head_of(connection, match_id)

    def latest_in_room(self, room: str) -> str | None:
        """The id of the latest match of a web room, or None when the room is unknown."""
        with self.db.connection(write=False) as connection:  # no ORM: each follow asks it
            found: str | None = connection.scalar(_LATEST_IN_ROOM, {"room": room})
            return found

    def load_room(self, room: str) -> StoredMatch | None:
        """The latest match of a web room, or None when the room is unknown."""
        match_id = self.latest_in_room(room)
        return None if match_id is None else self.load_match(match_id)

    def has_room(self, room: str) -> bool:
        return self.latest_in_room(room) is not None

    def matches(
        self,
        *,
        status: str | None = PLAYING,
        source: str | None = None,
        player: str | None = None,
    ) -> list[MatchSummary]:
        """Stored matches, most recently played first (by default the unfinished ones)."""
        query = select(MatchRow).order_by(MatchRow.updated_at.desc(), MatchRow.id)
        if status is not None:
            query = query.where(MatchRow.status == status)
        if source is not None:
            query = query.where(MatchRow.source == source)
        if player is not None:
            query = query.where((MatchRow.player0 == player) | (MatchRow.player1 == player))
        with self.db.session() as session:
            found = []
            for row in session.scalars(query).all():
                try:
                    found.append(_summary(row))
                except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
                    # one unreadable row must not hide the others (opening it says damaged)
                    log.warning("match %r cannot be read: %s", row.id, error)
            return found

    def delete_match(self, match_id: str) -> None:
        """Forget a match, its log and its games (and so their statistics)."""
        with self.db.session(write=True) as session:
            games = select(GameRow.id).where(GameRow.match_id == match_id)
            session.execute(delete(ResultRow).where(ResultRow.game_id.in_(games)))
            session.execute(delete(GameRow).where(GameRow.match_id == match_id))
            session.execute(delete(MatchResultRow).where(MatchResultRow.match_id == match_id))
            session.execute(delete(MoveRow).where(MoveRow.match_id == match_id))
            session.execute(delete(MatchRow).where(MatchRow.id == match_id))

    def games(self, match_id: str) -> list[GameRecord]:
        """The stored records of a match's finished games, in order (resigned ones too)."""
        with self.db.session() as session:
            rows = session.scalars(
                select(GameRow).where(GameRow.match_id == match_id).order_by(GameRow.number)
            ).all()
            return [GameRecord.from_json(row.record) for row in rows]

    def steps_after(self, match_id: str, game: int, ply: int) -> list[Step]:
        """The match's stored steps after ``ply`` of ``game`` (the steps another process
        stored since a table was at that point), in order."""
        with self.db.connection(write=False) as connection:  # no ORM: each follow asks it
            rows = connection.execute(
                _STEPS_AFTER, {"match": match_id, "game": game, "ply": ply}
            ).all()
            return [Step(row.kind, row.game, row.ply, row.seat, row.move, row.seed) for row in rows]

    def _add_game(
        self,
        connection: Connection,
        header: MatchHeader,
        step: Step,
        values: dict[str, Any],
        now: datetime,
    ) -> None:
        """The finished game's row and its results, in the transaction of its last step
        (Core inserts: the ORM's unit of work cost several times their CPU here)."""
        record = step.finished
        assert record is not None and record.result is not None
        result = record.result
        resigned = step.kind in (RESIGN, CLAIM)  # a claim ends the absent seat's match so
        game_id = connection.execute(
            insert(_GAMES)
            .values(
                match_id=header.id,
                number=step.game,
                seed=record.seed,
                record=record.to_json(),
                winner=result.winner,
                points=result.points,
                reason=result.reason,
                assisted=step.assisted,
                abandoned=resigned,
                finished_at=now,
            )
            .returning(_GAMES.c.id)
        ).scalar_one()
        results = []
        for seat, player in enumerate(header.players):
            if player is None:
                continue
            scored = result.points if result.winner == seat else 0
            conceded = result.points if result.winner == 1 - seat else 0
            if resigned:
                outcome = WIN if seat == result.winner else LOSS
            else:
                outcome = outcome_for(seat, result.winner)
            results.append(
                {
                    "game_id": game_id,
                    "player": player,
                    "seat": seat,
                    "level": header.stats_level,
                    "outcome": outcome,
                    "points_for": scored,
                    "points_against": conceded,
                    "assisted": step.assisted and (not resigned or seat == step.seat),
                    "finished_at": now,
                }
            )
        if results:
            connection.execute(insert(_RESULTS), results)
        rate_game(connection, header, step, game_id, now)  # ratings.py: rated games only
        if result.winner is not None and result.points:
            column = _MATCHES.c.score0 if result.winner == 0 else _MATCHES.c.score1
            values[column.name] = column + result.points
        if resigned:
            values["status"] = ABANDONED
        elif step.kind == MOVE and step.match_winner is not None:
            values["status"] = FINISHED
            won = [
                {
                    "match_id": header.id,
                    "player": player,
                    "seat": seat,
                    "level": header.stats_level,
                    "won": step.match_winner == seat,
                    "finished_at": now,
                }
                for seat, player in enumerate(header.players)
                if player is not None
            ]
            if won:
                connection.execute(insert(_MATCH_RESULTS), won)


def _touch(match_id: str, values: dict[str, Any]) -> Update:
    return update(_MATCHES).where(_MATCHES.c.id == match_id).values(values)


def head_of(connection: Session | Connection, match_id: str) -> tuple[int, int]:
    """(game number, steps in that game) of the match's last stored step, (0, 0) for none."""
    last = connection.execute(_HEAD, {"match": match_id}).first()
    if last is None:
        return (0, 0)
    return (int(last[0]), int(last[1] or 0) + 1)


_STEP_COLUMNS = ("game", "ply", "kind", "seat", "move", "seed")
"""The columns of a step's row in ``moves`` after its match and before its time, in the
order of :func:`_step_values`."""


def _step_row(match_id: str, step: Step) -> dict[str, Any]:
    """The columns of ``step``'s row in ``moves`` but its time."""
    return {"match_id": match_id, **dict(zip(_STEP_COLUMNS, _step_values(step), strict=True))}


_INSERT_MOVES_SQLITE = (
    f"INSERT INTO {_MOVES.name} (match_id, {', '.join(_STEP_COLUMNS)}, created_at)"
    f" VALUES ({', '.join('?' * (len(_STEP_COLUMNS) + 2))})"
)
"""A SQLite group commit's rows of the move log, in the driver's own form."""
_TOUCH_SQLITE = f"UPDATE {_MATCHES.name} SET updated_at = ? WHERE id = ?"
"""A SQLite group commit's update of its matches' times."""


@functools.cache
def _renew_held_sqlite(rooms: int) -> str:
    """:data:`_RENEW_HELD` for ``rooms`` rooms in the driver's own form: its parameters the
    time renewed until, the rooms, the owner and the time now."""
    return (
        f"UPDATE {_LEASES.name} SET expires_at = ?"
        f" WHERE room IN ({', '.join('?' * rooms)}) AND owner = ? AND expires_at >= ?"
        " RETURNING room"
    )


def _step_values(step: Step) -> tuple[int, int, str, int | None, str | None, int | None]:
    """The values of ``step``'s row in ``moves`` after its match, before its time (the
    columns of :data:`_STEP_COLUMNS`)."""
    return (step.game, step.ply, step.kind, step.seat, step.move, step.seed)


_TIME_BINDS: dict[type[Any], Callable[[Any], Any] | None] = {}
"""By dialect class: how SQLAlchemy binds a ``created_at`` (and an ``updated_at``)."""


def _sqlite_time(connection: Connection, now: datetime) -> Any:
    """``now`` as SQLAlchemy binds a ``created_at`` (and an ``updated_at``) on this
    connection's dialect: the same stored text as its own statements write."""
    return _time_text(connection.dialect, now)


def _time_text(dialect: Dialect, now: datetime) -> Any:
    """``now`` as SQLAlchemy binds a ``created_at`` (an ``updated_at``, a lease's
    ``expires_at``: the same type) on ``dialect``."""
    kind = type(dialect)
    if kind not in _TIME_BINDS:
        _TIME_BINDS[kind] = _MOVES.c.created_at.type.dialect_impl(dialect).bind_processor(dialect)
    bind = _TIME_BINDS[kind]
    return now if bind is None else bind(now)


def _move_row(match_id: str, step: Step, now: datetime) -> dict[str, Any]:
    row = _step_row(match_id, step)
    row["created_at"] = now
    return row


def _step(row: MoveRow) -> Step:
    return Step(row.kind, row.game, row.ply, row.seat, row.move, row.seed)


def _header(row: MatchRow) -> MatchHeader:
    try:
        rules = Rules.from_json(row.rules)
    except SpiteMaliceError as error:
        raise StoreDataError(
            f"match {row.id!r} has rules this version cannot read: {error}"
        ) from error
    return MatchHeader(
        id=row.id,
        rules=rules,
        meta=TableMeta.from_json(dict(row.meta)),
        seed=row.seed,
        source=row.source,
        room=row.room,
        status=row.status,
        score=(row.score0, row.score1),
        game_number=row.game_number,
        created_at=aware(row.created_at),
        updated_at=aware(row.updated_at),
    )


def _summary(row: MatchRow) -> MatchSummary:
    meta = TableMeta.from_json(dict(row.meta))
    return MatchSummary(
        id=row.id,
        room=row.room,
        source=row.source,
        kind=row.kind,
        level=row.level,
        players=(row.player0, row.player1),
        names=(meta.seats[0].name, meta.seats[1].name),
        status=row.status,
        score=(row.score0, row.score1),
        game_number=row.game_number,
        updated_at=aware(row.updated_at),
        pool=meta.pool,
    )
