"""The database under the store's repositories: one engine, its transactions, its errors,
its schema's migrations and the announcements of stored steps (PostgreSQL's LISTEN/NOTIFY).

Every repository (:mod:`.players`, :mod:`.move_log`, :mod:`.stats_settings`, :mod:`.leases`)
runs its statements through one :class:`Database`; :class:`~.access.Store` is their facade."""

from __future__ import annotations

import logging
import secrets
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    event,
    func,
    inspect,
    select,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from .location import describe, prepare, resolve_url

log = logging.getLogger(__name__)
HEAD_REVISION = "0011"
V1_REVISION = "0001"
KNOWN_REVISIONS = tuple(f"{n:04d}" for n in range(1, int(HEAD_REVISION) + 1))
"""Every revision this version can migrate from (a newer database is refused)."""
NOTIFY_CHANNEL = "spite_malice_rooms"
"""PostgreSQL's LISTEN/NOTIFY channel on which every stored step of a web room is announced
(payload: :func:`announcement`), so that other server instances pass it on to their
connections."""
MIGRATIONS = Path(__file__).parent / "migrations"


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


class WriteBusy(Exception):
    """A write asked for at once (:meth:`Database.connection_now`) would have waited: this
    process's SQLite writer, or another process, holds the file; nothing was written."""


class _Refused(Exception):
    """A statement of :meth:`Store._one_statement` broke an integrity rule (``error``)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


class Database:
    """One database (SQLite file or PostgreSQL server): its engine, transactions and schema."""

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
        self._now_engine: Engine | None = None
        """The SQLite file's engine for writes that never wait (:meth:`connection_now`)."""
        self._now_pooled: Any = None
        self._now_driver: sqlite3.Connection | None = None
        """That engine's one connection, kept checked out (its driver's)."""
        database = make_url(url).database
        self.writes_now = backend == "sqlite" and database not in (None, "", ":memory:")
        """Whether :meth:`connection_now` may be used (a SQLite file, not one in memory:
        another connection to that would be another database)."""
        self.origin = secrets.token_hex(8)
        """This store object's name in the step announcements it makes (see
        :data:`NOTIFY_CHANNEL`), so that a server can skip its own."""
        self.announces = self.engine.dialect.name == "postgresql"
        """Whether stored steps are announced to other processes (PostgreSQL only)."""
        self._migrate()

    def close(self) -> None:
        self.engine.dispose()
        if self._now_pooled is not None:
            self._now_pooled.close()
            self._now_pooled = self._now_driver = None
        if self._now_engine is not None:
            self._now_engine.dispose()

    @contextmanager
    def session(self, *, write: bool = False) -> Iterator[Session]:
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
            raise self.unavailable(error) from error

    @contextmanager
    def connection(self, *, write: bool = True) -> Iterator[Connection]:
        """One transaction on a bare connection, without the ORM (the move log's and the
        leases' fast path); ``write=False`` skips this process's SQLite write lock."""
        try:
            with self._writer(write), self.engine.begin() as connection:
                yield connection
        except IntegrityError:
            raise
        except SQLAlchemyError as error:
            raise self.unavailable(error) from error

    @contextmanager
    def connection_now(self) -> Iterator[sqlite3.Connection]:
        """One write transaction for a caller that must never wait (the event loop), on a
        SQLite file's driver connection of its own (``BEGIN IMMEDIATE``, then ``COMMIT``; no
        SQLAlchemy on the way: its connection, transaction and statement handling were two
        thirds of a group commit's CPU) that does not wait for a lock, so that
        :class:`WriteBusy` comes at once (nothing written) when this process's writer lock
        is taken or another process holds the file; the caller then writes the usual way.
        A broken integrity rule raises the driver's ``sqlite3.IntegrityError`` (nothing
        written), any other failure :class:`StoreUnavailable`."""
        assert self.writes_now and self._write_lock is not None
        if not self._write_lock.acquire(blocking=False):
            raise WriteBusy
        try:
            driver = self._now_driver
            if driver is None:
                driver = self._now_driver = self._open_now()
            try:
                driver.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                raise WriteBusy if _busy(error) else self.unavailable(error) from error
            try:
                yield driver
                driver.execute("COMMIT")
            except BaseException:
                if driver.in_transaction:
                    driver.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise
        except sqlite3.OperationalError as error:
            raise WriteBusy if _busy(error) else self.unavailable(error) from error
        except sqlite3.Error as error:
            raise self.unavailable(error) from error
        finally:
            self._write_lock.release()

    def _open_now(self) -> sqlite3.Connection:
        """The driver connection of :meth:`connection_now`: taken once from an engine of its
        own (the file's pragmas, a lock never waited for) and kept, in autocommit mode so
        that its transactions are the ones :meth:`connection_now` begins."""
        engine = self._now_engine = create_engine(
            self.url,
            connect_args={"timeout": 0, "check_same_thread": False},
            pool_size=1,
            max_overflow=0,
        )
        event.listen(engine, "connect", self._sqlite_pragmas_now)
        pooled = self._now_pooled = engine.raw_connection()
        driver = pooled.driver_connection
        assert isinstance(driver, sqlite3.Connection)
        driver.isolation_level = None
        return driver

    def _sqlite_pragmas_now(self, connection: Any, record: Any) -> None:
        self._sqlite_pragmas(connection, record)
        cursor = connection.cursor()
        cursor.execute("PRAGMA busy_timeout=0")
        cursor.close()

    def _writer(self, write: bool) -> AbstractContextManager[object]:
        lock = self._write_lock
        return lock if write and lock is not None else nullcontext()

    def unavailable(self, error: SQLAlchemyError | sqlite3.Error) -> StoreUnavailable:
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

    def one_statement(self, sql: str, values: dict[str, Any]) -> list[tuple[Any, ...]]:
        """Run one PostgreSQL statement as its own transaction (autocommit) on a pooled
        connection's driver connection, prepared once per connection, and return its rows:
        the hot paths' one round trip, without the ORM or statement building. An integrity
        error raises :class:`_Refused`; any other failure :class:`StoreUnavailable`."""
        import psycopg  # PostgreSQL's driver: only a server on PostgreSQL has it

        try:
            pooled = self.engine.raw_connection()
        except SQLAlchemyError as error:
            raise self.unavailable(error) from error
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

    def ping(self) -> None:
        """Check that the database answers; :class:`StoreUnavailable` when it does not."""
        with self.session() as session:
            session.execute(select(1))

    def announce(self, session: Session | Connection, room: str | None) -> None:
        """Announce a stored step of ``room`` on :data:`NOTIFY_CHANNEL`; PostgreSQL sends it
        when (and only if) the transaction commits."""
        if room is not None and self.announces:
            session.execute(select(func.pg_notify(NOTIFY_CHANNEL, f"{self.origin} {room}")))

    def announce_many(self, connection: Connection, rooms: set[str | None]) -> None:
        """:meth:`announce` for the rooms of a group commit, in one announcement."""
        if self.announces and any(room is not None for room in rooms):
            payload = announcement(self.origin, rooms)
            connection.execute(select(func.pg_notify(NOTIFY_CHANNEL, payload)))

    # ----------------------------------------------------------------- internals


def _busy(error: sqlite3.OperationalError) -> bool:
    """Whether a SQLite failure says that another writer holds the file."""
    reason = str(error)
    return "locked" in reason or "busy" in reason


def announcement(origin: str, rooms: Iterable[str | None]) -> str:
    """The payload announcing stored steps of ``rooms`` on :data:`NOTIFY_CHANNEL`: the
    storing instance's name, then the rooms' codes, separated by spaces (one announcement
    a transaction, however many rooms it stored: a listener splits it, and a room it does
    not hold costs it a dictionary lookup). At most :data:`~.group_commit.BATCH_LIMIT` rooms of 6
    characters, far under PostgreSQL's 8000 bytes."""
    return " ".join([origin, *sorted({room for room in rooms if room is not None})])


def read_announcement(payload: str) -> tuple[str, list[str]]:
    """The (origin, rooms) of an :func:`announcement`."""
    origin, *rooms = payload.split(" ")
    return origin, rooms


def printable(url: str | None) -> str:
    """The database's place for a message, never with its password."""
    try:
        return describe(resolve_url(url))
    except SQLAlchemyError:  # sqlalchemy's ArgumentError: not a URL
        return "(an unreadable database URL)"


def cannot_open(url: str | None, error: Exception) -> StoreUnavailable:
    reason = str(error).split("\n(Background", 1)[0]
    return StoreUnavailable(f"cannot open the database {printable(url)}: {reason}")


def aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
