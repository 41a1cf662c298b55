"""The store: players, the move log of every match, finished games, statistics, settings.

One :class:`Store` wraps one database (SQLite file or PostgreSQL server). Every method is a
short transaction of its own on a pooled connection, so it may be called from many threads
at once: a server runs each call on a worker thread of its own, and a slow or locked call
holds up only its caller.

A match is written as it is played: one row of ``moves`` per step (:meth:`append`), the
finished game's row and statistics in the same transaction as the move that ends it. A step
whose (match, game, ply) is already stored raises :class:`StoreConflict`: another process
wrote first, and the caller reloads the match (:meth:`load_match`) and answers from it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    Connection,
    CursorResult,
    Engine,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.expression import Update

from ..engine.errors import SpiteMaliceError
from ..engine.record import GameRecord
from ..engine.rules import Rules
from ..table.steps import CLAIM, DEAL, MOVE, RESIGN, Step
from ..table.table import TableMeta
from .location import describe, prepare, resolve_url
from .schema import (
    DailyPlayRow,
    GameRow,
    LeaseRow,
    MatchResultRow,
    MatchRow,
    MoveRow,
    PlayerRow,
    PresenceRow,
    ResultRow,
    SettingsRow,
    utcnow,
)
from .stats import (
    DAILY,
    FRIEND,
    LOSS,
    PRACTICE,
    WIN,
    GameOutcome,
    PlayerStats,
    compute,
    outcome_for,
)

log = logging.getLogger(__name__)
PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
COMPUTER = "computer"
HEAD_REVISION = "0006"
V1_REVISION = "0001"
KNOWN_REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006")
"""Every revision this version can migrate from (a newer database is refused)."""
NOTIFY_CHANNEL = "spite_malice_rooms"
"""PostgreSQL's LISTEN/NOTIFY channel on which every stored step of a web room is announced
(payload: :func:`announcement`), so that other server instances pass it on to their
connections."""
MIGRATIONS = Path(__file__).parent / "migrations"
_MOVES: Table = MoveRow.__table__  # type: ignore[assignment]
_MATCHES: Table = MatchRow.__table__  # type: ignore[assignment]
_LEASES: Table = LeaseRow.__table__  # type: ignore[assignment]
_PRESENCE: Table = PresenceRow.__table__  # type: ignore[assignment]
_GAMES: Table = GameRow.__table__  # type: ignore[assignment]
_RESULTS: Table = ResultRow.__table__  # type: ignore[assignment]
_MATCH_RESULTS: Table = MatchResultRow.__table__  # type: ignore[assignment]
_TOUCH_MANY = (
    update(_MATCHES).where(_MATCHES.c.id == bindparam("match")).values(updated_at=bindparam("now"))
)
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


_TAKE_LEASE_POSTGRES = f"""
WITH taken AS (
    INSERT INTO {_LEASES.name} (room, owner, expires_at)
    VALUES (%(room)s, %(owner)s, %(until)s)
    ON CONFLICT (room) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
    WHERE {_LEASES.name}.owner = excluded.owner OR {_LEASES.name}.expires_at < %(now)s
    RETURNING owner
), head AS (
    SELECT game, max(ply) AS ply FROM {_MOVES.name} WHERE match_id = %(match)s
    GROUP BY game ORDER BY game DESC LIMIT 1
)
SELECT (SELECT owner FROM taken), (SELECT game FROM head), (SELECT ply FROM head)
"""
""":meth:`Store.take_lease` on PostgreSQL in one statement: the lease's take-over (as
:func:`_lease_upsert`) and the match's head (as :data:`_HEAD`), one round trip."""


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
        "steps": json.dumps(rows, separators=(",", ":")),
        "now": now,
        "channel": NOTIFY_CHANNEL,
        "payload": announcement(origin, {header.room for header, _ in steps}),
        "renew": sorted(renew.rooms) if renew is not None else [],
        "owner": renew.owner if renew is not None else "",
        "until": renew.until(now) if renew is not None else now,
    }


def _lease_upsert(insert_for: Any) -> Any:
    """The lease's one-statement take-over (``insert_for``: the dialect's ``insert``):
    insert, or take the row over when it is the owner's or expired; the owner comes back
    only when the lease is the owner's now. Built once per dialect, with bound parameters."""
    upsert = insert_for(_LEASES).values(
        room=bindparam("room"), owner=bindparam("owner"), expires_at=bindparam("until")
    )
    return upsert.on_conflict_do_update(
        index_elements=[_LEASES.c.room],
        set_={"owner": upsert.excluded.owner, "expires_at": upsert.excluded.expires_at},
        where=(_LEASES.c.owner == upsert.excluded.owner)
        | (_LEASES.c.expires_at < bindparam("now")),
    ).returning(_LEASES.c.owner)


_LEASE_UPSERTS = {
    "postgresql": _lease_upsert(postgresql_insert),
    "sqlite": _lease_upsert(sqlite_insert),
}


@dataclass(frozen=True, slots=True)
class LeaseRenewal:
    """Computer-turn leases for a group commit to renew (:meth:`Store.append_many`): the
    ``rooms`` whose lease ``owner`` holds, for ``seconds`` from the commit."""

    owner: str
    rooms: frozenset[str]
    seconds: float

    def until(self, now: datetime) -> datetime:
        """When the renewed leases expire, for a commit at ``now``."""
        return _lease_expiry(now, self.seconds)


def _lease_expiry(now: datetime, seconds: float) -> datetime:
    """When a lease taken or renewed at ``now`` for ``seconds`` runs out."""
    return datetime.fromtimestamp(now.timestamp() + seconds, UTC)


class StoreError(Exception):
    """The store cannot do what was asked: the base of the store's errors."""


class StoreUnavailable(StoreError):
    """The database cannot be used now (unreachable, locked, failing); nothing was written."""


class StoreConflict(StoreError):
    """Another writer stored this step of the match first; reload the match and retry."""


class DailyTaken(StoreError):
    """The player has a match of that day's daily deal already (stored by another process,
    or the terminal, since the caller looked): nothing was written."""


class StoreDataError(StoreError):
    """The database holds something this version cannot read (or a newer schema)."""


class _Refused(Exception):
    """A statement of :meth:`Store._one_statement` broke an integrity rule (``error``)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True, slots=True)
class Player:
    """A player: its id (what statistics, settings and seats belong to) and display name."""

    id: str
    name: str
    source: str = "web"


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """A stored match without its moves: who plays it, where, and the score so far."""

    id: str
    rules: Rules
    meta: TableMeta
    seed: int | None = None
    """The match's seed when its games derive from one: server-side only."""
    source: str = "web"
    room: str | None = None
    status: str = PLAYING
    score: tuple[int, int] = (0, 0)
    game_number: int = 0
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @property
    def kind(self) -> str:
        return self.meta.kind

    @property
    def level(self) -> str | None:
        return self.meta.level

    @property
    def players(self) -> tuple[str | None, str | None]:
        """The player ids of the seats (None for the computer or an empty seat)."""
        return (self.meta.seats[0].player, self.meta.seats[1].player)

    @property
    def stats_level(self) -> str:
        """The level the games count under: the computer's level, or ``friend``; a match
        against the computer dealt from a seed the player chose is ``practice`` (counted
        apart, never in the total: its deals were known)."""
        if self.kind == COMPUTER:
            if self.meta.daily is not None:
                return DAILY  # the daily deal: known to everyone, counted on its own
            return PRACTICE if self.meta.practice else (self.level or COMPUTER)
        return FRIEND


@dataclass(slots=True)
class StoredMatch:
    """A match as the log holds it: its header and every step, in order."""

    header: MatchHeader
    steps: list[Step] = field(default_factory=list)

    @property
    def head(self) -> tuple[int, int]:
        """(game number, steps in that game) of the last step: the log's version."""
        if not self.steps:
            return (0, 0)
        last = self.steps[-1]
        return (last.game, last.ply + 1)


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A stored match without replaying it: enough for a list of games to resume."""

    id: str
    room: str | None
    source: str
    kind: str
    level: str | None
    players: tuple[str | None, str | None]
    names: tuple[str | None, str | None]
    status: str
    score: tuple[int, int]
    game_number: int
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class SeatPresence:
    """One instance's word on one seat of a web room: whether it holds a connection of it
    (``online``) and when it last saw one."""

    seat: int
    instance: str
    online: bool
    seen_at: datetime


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Store:
    """A database of players, matches, games, statistics and settings (see :meth:`open`)."""

    def __init__(self, url: str, *, echo: bool = False, busy_timeout: float = 5.0) -> None:
        self.url = url
        self.location = describe(url)
        prepare(url)
        backend = make_url(url).get_backend_name()
        self.busy_timeout = busy_timeout
        """Seconds a write waits for a locked SQLite file before it fails (unavailable)."""
        if backend == "sqlite":
            self.engine: Engine = create_engine(
                url,
                echo=echo,
                connect_args={"timeout": busy_timeout, "check_same_thread": False},
                pool_size=16,
                max_overflow=16,
            )
            event.listen(self.engine, "connect", self._sqlite_pragmas)
        else:
            # no pre-ping: it would cost a round trip on every call; a dropped connection
            # fails that one call (StoreUnavailable) and the pool replaces it
            self.engine = create_engine(
                url, echo=echo, pool_size=16, max_overflow=16, pool_recycle=3600
            )
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock = threading.Lock() if backend == "sqlite" else None
        self.origin = secrets.token_hex(8)
        """This store object's name in the step announcements it makes (see
        :data:`NOTIFY_CHANNEL`), so that a server can skip its own."""
        self.announces = self.engine.dialect.name == "postgresql"
        """Whether stored steps are announced to other processes (PostgreSQL only)."""
        self._migrate()

    @classmethod
    def open(cls, url: str | None = None, *, busy_timeout: float = 5.0) -> Store:
        """Open (creating or migrating it as needed) the database at ``url``, a URL or an
        SQLite path; None means ``$SPITE_MALICE_DB``, ``$DATABASE_URL`` or the per-user file."""
        try:
            return cls(resolve_url(url), busy_timeout=busy_timeout)
        except SQLAlchemyError as error:  # a bad URL, a server not reachable
            raise _cannot_open(url, error) from error
        except ImportError as error:  # the database's driver is not installed
            raise _cannot_open(url, error) from error
        except OSError as error:  # the SQLite file's folder cannot be made
            raise _cannot_open(url, error) from error

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _session(self, *, write: bool = False) -> Iterator[Session]:
        """One transaction; the database's failures become :class:`StoreUnavailable`.

        On SQLite the writes of this process take turns on a lock of their own: SQLite has one
        writer at a time, and threads waiting in its busy handler (which polls) would wait
        far longer than in line."""
        try:
            with self._writer(write), self._sessions.begin() as session:
                yield session
        except IntegrityError:
            raise
        except SQLAlchemyError as error:
            raise self._unavailable(error) from error

    @contextmanager
    def _connection(self, *, write: bool = True) -> Iterator[Connection]:
        """One transaction on a bare connection, without the ORM (the move log's and the
        leases' fast path); ``write=False`` skips this process's SQLite write lock."""
        try:
            with self._writer(write), self.engine.begin() as connection:
                yield connection
        except IntegrityError:
            raise
        except SQLAlchemyError as error:
            raise self._unavailable(error) from error

    def _writer(self, write: bool) -> AbstractContextManager[object]:
        lock = self._write_lock
        return lock if write and lock is not None else nullcontext()

    def _unavailable(self, error: SQLAlchemyError) -> StoreUnavailable:
        reason = str(error).split("\n", 1)[0]
        return StoreUnavailable(f"the database {self.location} failed: {reason}")

    def _sqlite_pragmas(self, connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(self.busy_timeout * 1000)}")
        cursor.close()

    def _migrate(self) -> None:
        """Bring the schema to this version with Alembic; a version-1 database (made before
        Alembic) is stamped as revision 0001 first, then migrated in place."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        sqlite = self.engine.dialect.name == "sqlite"
        with self.engine.connect() as connection:
            if sqlite:  # rebuilding a table in place must not cascade into its children
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                connection.commit()
            with connection.begin():
                self._upgrade(connection, config)
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()

    def _upgrade(self, connection: Connection, config: Config) -> None:
        """Stamp a version-1 database, then upgrade to this version's revision."""
        tables = set(inspect(connection).get_table_names())
        current = MigrationContext.configure(connection).get_current_revision()
        if current is not None and current not in KNOWN_REVISIONS:
            raise StoreDataError(
                f"the database {self.location} has schema revision {current}, newer "
                "than this program reads"
            )
        config.attributes["connection"] = connection
        if current is None and "store_info" in tables:
            version = connection.exec_driver_sql(
                "SELECT value FROM store_info WHERE key = 'schema_version'"
            ).scalar()
            if version != "1":
                raise StoreDataError(
                    f"the database {self.location} has schema version {version}; "
                    "this program reads versions 1 and 2"
                )
            command.stamp(config, V1_REVISION)
        if current != HEAD_REVISION:
            command.upgrade(config, HEAD_REVISION)

    # ----------------------------------------------------------------- players

    def create_player(self, name: str, source: str = "web") -> tuple[Player, str]:
        """A new player named ``name``; returns it and its secret (kept only as a hash)."""
        secret = secrets.token_urlsafe(32)
        player = Player(secrets.token_hex(16), name, source)
        with self._session(write=True) as session:
            session.add(
                PlayerRow(id=player.id, name=name, secret_hash=hash_secret(secret), source=source)
            )
        return player, secret

    def player_for(self, secret: str) -> Player | None:
        """The player whose secret this is, or None."""
        wanted = hash_secret(secret)
        with self._session() as session:
            row = session.scalar(select(PlayerRow).where(PlayerRow.secret_hash == wanted))
            if row is None or not hmac.compare_digest(row.secret_hash, wanted):
                return None
            return Player(row.id, row.name, row.source)

    def player(self, player_id: str) -> Player | None:
        with self._session() as session:
            row = session.get(PlayerRow, player_id)
            return None if row is None else Player(row.id, row.name, row.source)

    def rename_player(self, player_id: str, name: str) -> None:
        with self._session(write=True) as session:
            session.execute(update(PlayerRow).where(PlayerRow.id == player_id).values(name=name))

    def local_player(self, source: str = "terminal") -> Player:
        """The one player of this store's local program (the terminal), made on first use."""
        with self._session() as session:
            row = session.scalar(
                select(PlayerRow).where(PlayerRow.source == source).order_by(PlayerRow.created_at)
            )
            if row is not None:
                return Player(row.id, row.name, row.source)
        player, _ = self.create_player("You", source)
        return player

    # ----------------------------------------------------------------- the move log

    def create_match(self, header: MatchHeader, deal: Step) -> MatchHeader:
        """Store a new match with its first step (the first deal); returns the header as
        stored (with its times)."""
        now = utcnow()
        with self._session(write=True) as session:
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
            self._announce(session, header.room)
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
            with self._connection() as connection:  # a few statements, no ORM
                connection.execute(insert(_MOVES), [_move_row(header.id, step, now)])
                if step.finished is not None:
                    self._add_game(connection, header, step, values, now)
                connection.execute(_touch(header.id, values))
                self._announce(connection, header.room)
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
        if self.announces:  # PostgreSQL
            return self._append_many_postgres(steps, now, renew)
        try:
            with self._connection() as connection:
                connection.execute(
                    insert(_MOVES), [_move_row(header.id, step, now) for header, step in steps]
                )
                connection.execute(
                    _TOUCH_MANY, [{"match": header.id, "now": now} for header, _ in steps]
                )
                renewed = self._renew_leases(connection, renew, now)
                self._announce_many(connection, {header.room for header, _ in steps})
        except IntegrityError as error:
            raise StoreConflict("a step of the batch is stored already") from error
        return renewed

    @staticmethod
    def _renew_leases(
        connection: Connection, renew: LeaseRenewal | None, now: datetime
    ) -> frozenset[str]:
        """The leases of ``renew`` renewed in the caller's transaction (SQLite's group
        commit; PostgreSQL's is one statement): the rooms whose lease the owner held."""
        if renew is None or not renew.rooms:
            return frozenset()
        until = renew.until(now)
        held = (
            _LEASES.c.room.in_(sorted(renew.rooms)),
            _LEASES.c.owner == renew.owner,
            _LEASES.c.expires_at >= now,
        )
        rooms = connection.scalars(select(_LEASES.c.room).where(*held)).all()
        if rooms:
            connection.execute(
                update(_LEASES).where(_LEASES.c.room.in_(rooms)).values(expires_at=until)
            )
        return frozenset(rooms)

    def _append_many_postgres(
        self,
        steps: Sequence[tuple[MatchHeader, Step]],
        now: datetime,
        renew: LeaseRenewal | None,
    ) -> frozenset[str]:
        """:meth:`append_many` on PostgreSQL: :data:`APPEND_MANY_POSTGRES`, one statement
        (:meth:`_one_statement`)."""
        values = append_many_values(steps, now, renew, self.origin)
        try:
            answer = self._one_statement(APPEND_MANY_POSTGRES, values)
        except _Refused as refused:
            raise StoreConflict("a step of the batch is stored already") from refused.error
        renewed: list[str] = answer[0][1] or []
        return frozenset(renewed)

    def _one_statement(self, sql: str, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Run one PostgreSQL statement as its own transaction (autocommit) on a pooled
        connection's driver connection, prepared once per connection, and return its rows:
        the hot paths' one round trip, without the ORM or statement building. An integrity
        error raises :class:`_Refused`; any other failure :class:`StoreUnavailable`."""
        import psycopg  # PostgreSQL's driver: only a server on PostgreSQL has it

        try:
            pooled = self.engine.raw_connection()
        except SQLAlchemyError as error:
            raise self._unavailable(error) from error
        try:
            driver = pooled.driver_connection
            assert driver is not None
            driver.autocommit = True
            try:
                rows: list[tuple[Any, ...]] = driver.execute(sql, values, prepare=True).fetchall()
            finally:
                driver.autocommit = False  # the pool's other users expect transactions
            return rows
        except psycopg.IntegrityError as error:
            raise _Refused(error) from error
        except psycopg.Error as error:
            pooled.invalidate()  # whatever state it is in, it is not given out again
            reason = str(error).split("\n", 1)[0]
            raise StoreUnavailable(f"the database {self.location} failed: {reason}") from error
        finally:
            pooled.close()

    def update_header(self, header: MatchHeader) -> None:
        """Write the match's seats and meta again (a friend took a seat)."""
        with self._session(write=True) as session:
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
            self._announce(session, header.room)

    def claim_seat(self, header: MatchHeader, seat: int) -> bool:
        """Write ``header`` (a friend taking ``seat``) only if that seat is still empty in
        the store: one conditional UPDATE, so that of two joins at once, through two
        processes, exactly one gets the seat. False (nothing written) when it was taken."""
        column = _MATCHES.c.player0 if seat == 0 else _MATCHES.c.player1
        with self._session(write=True) as session:
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
            self._announce(session, header.room)
        return True

    def load_match(self, match_id: str) -> StoredMatch | None:
        """The stored match and its log, or None when unknown."""
        with self._session() as session:
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
        with self._connection(write=False) as connection:  # no ORM session: a hot path
            return _head(connection, match_id)

    def latest_in_room(self, room: str) -> str | None:
        """The id of the latest match of a web room, or None when the room is unknown."""
        with self._connection(write=False) as connection:  # no ORM: each follow asks it
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
        with self._session() as session:
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
        with self._session(write=True) as session:
            games = select(GameRow.id).where(GameRow.match_id == match_id)
            session.execute(delete(ResultRow).where(ResultRow.game_id.in_(games)))
            session.execute(delete(GameRow).where(GameRow.match_id == match_id))
            session.execute(delete(MatchResultRow).where(MatchResultRow.match_id == match_id))
            session.execute(delete(MoveRow).where(MoveRow.match_id == match_id))
            session.execute(delete(MatchRow).where(MatchRow.id == match_id))

    def games(self, match_id: str) -> list[GameRecord]:
        """The stored records of a match's finished games, in order (resigned ones too)."""
        with self._session() as session:
            rows = session.scalars(
                select(GameRow).where(GameRow.match_id == match_id).order_by(GameRow.number)
            ).all()
            return [GameRecord.from_json(row.record) for row in rows]

    # ----------------------------------------------------------------- statistics

    def stats(self, player: str) -> PlayerStats:
        """``player``'s statistics per level, from every stored game and match."""
        with self._session() as session:
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
        with self._session() as session:
            row = session.get(SettingsRow, player)
            return None if row is None else dict(row.data)

    def save_settings(self, player: str, data: dict[str, Any]) -> None:
        with self._session(write=True) as session:
            row = session.get(SettingsRow, player)
            if row is None:
                session.add(SettingsRow(player=player, data=dict(data)))
            else:
                row.data = dict(data)
                row.updated_at = utcnow()

    # ----------------------------------------------------------------- several instances

    def ping(self) -> None:
        """Check that the database answers; :class:`StoreUnavailable` when it does not."""
        with self._session() as session:
            session.execute(select(1))

    def steps_after(self, match_id: str, game: int, ply: int) -> list[Step]:
        """The match's stored steps after ``ply`` of ``game`` (the steps another process
        stored since a table was at that point), in order."""
        with self._connection(write=False) as connection:  # no ORM: each follow asks it
            rows = connection.execute(
                _STEPS_AFTER, {"match": match_id, "game": game, "ply": ply}
            ).all()
            return [Step(row.kind, row.game, row.ply, row.seat, row.move, row.seed) for row in rows]

    def acquire_lease(self, room: str, owner: str, seconds: float) -> bool:
        """Take or renew the lease on ``room``'s computer turns for ``seconds``: True when
        ``owner`` holds it now, False while another owner's lease has not expired."""
        try:
            with self._connection(write=False) as connection:
                return self._lease(connection, room, owner, seconds)
        except IntegrityError:
            return False  # another owner inserted it first

    def take_lease(
        self, room: str, owner: str, seconds: float, match_id: str
    ) -> tuple[bool, tuple[int, int]]:
        """:meth:`acquire_lease` and :meth:`head` of ``match_id`` in one transaction (what a
        computer turn asks before it begins)."""
        if self.announces:  # PostgreSQL: one statement, one round trip
            now = utcnow()
            until = _lease_expiry(now, seconds)
            values = {"room": room, "owner": owner, "until": until, "now": now, "match": match_id}
            try:
                holder, game, ply = self._one_statement(_TAKE_LEASE_POSTGRES, values)[0]
            except _Refused:
                return False, self.head(match_id)
            return holder is not None, (0, 0) if game is None else (int(game), int(ply) + 1)
        try:
            with self._connection(write=False) as connection:
                taken = self._lease(connection, room, owner, seconds)
                return taken, _head(connection, match_id)
        except IntegrityError:
            return False, self.head(match_id)

    def _lease(self, connection: Connection, room: str, owner: str, seconds: float) -> bool:
        now = utcnow()
        until = _lease_expiry(now, seconds)
        dialect = self.engine.dialect.name
        if dialect == "postgresql" or (
            dialect == "sqlite" and sqlite3.sqlite_version_info >= (3, 35)
        ):
            # one statement: insert, or take over (RETURNING needs SQLite 3.35)
            holder = connection.scalar(
                _LEASE_UPSERTS[dialect],
                {"room": room, "owner": owner, "until": until, "now": now},
            )
            return holder is not None  # no row back: another owner's lease stands
        free = (_LEASES.c.owner == owner) | (_LEASES.c.expires_at < now)
        taken: CursorResult[Any] = connection.execute(
            update(_LEASES)
            .where(_LEASES.c.room == room, free)
            .values(owner=owner, expires_at=until)
        )
        if taken.rowcount == 1:
            return True
        if connection.scalar(select(_LEASES.c.room).where(_LEASES.c.room == room)) is not None:
            return False  # someone else's, not expired
        connection.execute(insert(_LEASES).values(room=room, owner=owner, expires_at=until))
        return True

    def release_lease(self, room: str, owner: str) -> None:
        """Give up ``owner``'s lease on ``room`` (nothing when another owner holds it)."""
        with self._session() as session:
            session.execute(delete(_LEASES).where(_LEASES.c.room == room, _LEASES.c.owner == owner))

    def lease_owner(self, room: str) -> str | None:
        """Who holds an unexpired lease on ``room``, or None."""
        with self._session() as session:
            row = session.get(LeaseRow, room)
            if row is None or _aware(row.expires_at) < utcnow():
                return None
            return row.owner

    def mark_presence(self, marks: Sequence[tuple[str, int, bool]]) -> None:
        """Write this instance's presence of each (room, seat, online): seen now, connected
        or not (heartbeats renew the connected ones; see ``web/lobby.py``)."""
        if not marks:
            return
        for attempt in (1, 2):
            now = utcnow()
            try:
                with self._session(write=True) as session:
                    for room, seat, online in marks:
                        where = (
                            (_PRESENCE.c.room == room)
                            & (_PRESENCE.c.seat == seat)
                            & (_PRESENCE.c.instance == self.origin)
                        )
                        done: CursorResult[Any] = session.execute(  # type: ignore[assignment]
                            update(_PRESENCE).where(where).values(online=online, seen_at=now)
                        )
                        if done.rowcount == 0:
                            session.execute(
                                insert(_PRESENCE).values(
                                    room=room,
                                    seat=seat,
                                    instance=self.origin,
                                    online=online,
                                    seen_at=now,
                                )
                            )
                return
            except IntegrityError:
                if attempt == 2:  # another thread of this instance inserted it first, twice
                    raise StoreUnavailable("the presence of a seat could not be written") from None

    def presence(self, rooms: Sequence[str]) -> dict[str, list[SeatPresence]]:
        """Every instance's presence rows of these rooms (rooms without any are left out)."""
        found: dict[str, list[SeatPresence]] = {}
        if not rooms:
            return found
        with self._session() as session:
            rows = session.scalars(select(PresenceRow).where(PresenceRow.room.in_(rooms))).all()
            for row in rows:
                found.setdefault(row.room, []).append(
                    SeatPresence(row.seat, row.instance, row.online, _aware(row.seen_at))
                )
        return found

    def _announce(self, session: Session | Connection, room: str | None) -> None:
        """Announce a stored step of ``room`` on :data:`NOTIFY_CHANNEL`; PostgreSQL sends it
        when (and only if) the transaction commits."""
        if room is not None and self.announces:
            session.execute(select(func.pg_notify(NOTIFY_CHANNEL, f"{self.origin} {room}")))

    def _announce_many(self, connection: Connection, rooms: set[str | None]) -> None:
        """:meth:`_announce` for the rooms of a group commit, in one announcement."""
        if self.announces and any(room is not None for room in rooms):
            payload = announcement(self.origin, rooms)
            connection.execute(select(func.pg_notify(NOTIFY_CHANNEL, payload)))

    # ----------------------------------------------------------------- internals

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


def announcement(origin: str, rooms: Iterable[str | None]) -> str:
    """The payload announcing stored steps of ``rooms`` on :data:`NOTIFY_CHANNEL`: the
    storing instance's name, then the rooms' codes, separated by spaces (one announcement
    a transaction, however many rooms it stored: a listener splits it, and a room it does
    not hold costs it a dictionary lookup). At most :data:`lobby.BATCH_LIMIT` rooms of 6
    characters, far under PostgreSQL's 8000 bytes."""
    return " ".join([origin, *sorted({room for room in rooms if room is not None})])


def read_announcement(payload: str) -> tuple[str, list[str]]:
    """The (origin, rooms) of an :func:`announcement`."""
    origin, *rooms = payload.split(" ")
    return origin, rooms


def _touch(match_id: str, values: dict[str, Any]) -> Update:
    return update(_MATCHES).where(_MATCHES.c.id == match_id).values(values)


def _head(connection: Session | Connection, match_id: str) -> tuple[int, int]:
    """(game number, steps in that game) of the match's last stored step, (0, 0) for none."""
    last = connection.execute(_HEAD, {"match": match_id}).first()
    if last is None:
        return (0, 0)
    return (int(last[0]), int(last[1] or 0) + 1)


def _step_row(match_id: str, step: Step) -> dict[str, Any]:
    """The columns of ``step``'s row in ``moves`` but its time."""
    return {
        "match_id": match_id,
        "game": step.game,
        "ply": step.ply,
        "kind": step.kind,
        "seat": step.seat,
        "move": step.move,
        "seed": step.seed,
    }


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
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
    )


def _printable(url: str | None) -> str:
    """The database's place for a message, never with its password."""
    try:
        return describe(resolve_url(url))
    except SQLAlchemyError:  # sqlalchemy's ArgumentError: not a URL
        return "(an unreadable database URL)"


def _cannot_open(url: str | None, error: Exception) -> StoreUnavailable:
    reason = str(error).split("\n(Background", 1)[0]
    return StoreUnavailable(f"cannot open the database {_printable(url)}: {reason}")


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


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
        updated_at=_aware(row.updated_at),
    )


__all__: Sequence[str] = [
    "ABANDONED",
    "FINISHED",
    "PLAYING",
    "MatchHeader",
    "MatchSummary",
    "Player",
    "SeatPresence",
    "Store",
    "StoreConflict",
    "StoreDataError",
    "StoreError",
    "StoreUnavailable",
    "StoredMatch",
]
