"""The computer-turn leases of web rooms (which server instance plays a room's computer) and
the seats' presence (which instance holds a connection of a seat, and when it saw one)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    CursorResult,
    Table,
    bindparam,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from .database import (
    Database,
    StoreUnavailable,
    _Refused,
    aware,
)
from .move_log import head_of
from .records import (
    SeatPresence,
    lease_expiry,
)
from .schema import (
    LeaseRow,
    MoveRow,
    PresenceRow,
    utcnow,
)

_MOVES: Table = MoveRow.__table__  # type: ignore[assignment]
_LEASES: Table = LeaseRow.__table__  # type: ignore[assignment]
_PRESENCE: Table = PresenceRow.__table__  # type: ignore[assignment]

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


class Leases:
    """The leases and presence rows of one :class:`~.database.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def acquire_lease(self, room: str, owner: str, seconds: float) -> bool:
        """Take or renew the lease on ``room``'s computer turns for ``seconds``: True when
        ``owner`` holds it now, False while another owner's lease has not expired."""
        try:
            with self.db.connection(write=False) as connection:
                return self._lease(connection, room, owner, seconds)
        except IntegrityError:
            return False  # another owner inserted it first

    def take_lease(
        self, room: str, owner: str, seconds: float, match_id: str
    ) -> tuple[bool, tuple[int, int]]:
        """:meth:`acquire_lease` and :meth:`head` of ``match_id`` in one transaction (what a
        computer turn asks before it begins)."""
        if self.db.announces:  # PostgreSQL: one statement, one round trip
            now = utcnow()
            until = lease_expiry(now, seconds)
            values = {"room": room, "owner": owner, "until": until, "now": now, "match": match_id}
            try:
                holder, game, ply = self.db.one_statement(_TAKE_LEASE_POSTGRES, values)[0]
            except _Refused:
                return False, self.head(match_id)
            return holder is not None, (0, 0) if game is None else (int(game), int(ply) + 1)
        try:
            with self.db.connection(write=False) as connection:
                taken = self._lease(connection, room, owner, seconds)
                return taken, head_of(connection, match_id)
        except IntegrityError:
            return False, self.head(match_id)

    def _lease(self, connection: Connection, room: str, owner: str, seconds: float) -> bool:
        now = utcnow()
        until = lease_expiry(now, seconds)
        dialect = self.db.engine.dialect.name
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
        with self.db.session() as session:
            session.execute(delete(_LEASES).where(_LEASES.c.room == room, _LEASES.c.owner == owner))

    def lease_owner(self, room: str) -> str | None:
        """Who holds an unexpired lease on ``room``, or None."""
        with self.db.session() as session:
            row = session.get(LeaseRow, room)
            if row is None or aware(row.expires_at) < utcnow():
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
                with self.db.session(write=True) as session:
                    for room, seat, online in marks:
                        where = (
                            (_PRESENCE.c.room == room)
                            & (_PRESENCE.c.seat == seat)
                            & (_PRESENCE.c.instance == self.db.origin)
                        )
                        done: CursorResult[Any] = session.execute(  # type: ignore[assignment]
                            update(_PRESENCE).where(where).values(online=online, seen_at=now)
                        )
                        if done.rowcount == 0:
                            session.execute(
                                insert(_PRESENCE).values(
                                    room=room,
                                    seat=seat,
                                    instance=self.db.origin,
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
        with self.db.session() as session:
            rows = session.scalars(select(PresenceRow).where(PresenceRow.room.in_(rooms))).all()
            for row in rows:
                found.setdefault(row.room, []).append(
                    SeatPresence(row.seat, row.instance, row.online, aware(row.seen_at))
                )
        return found

    def head(self, match_id: str) -> tuple[int, int]:
        """The match's head (as :meth:`~.move_log.MoveLog.head`), when a take-over failed."""
        with self.db.connection(write=False) as connection:
            return head_of(connection, match_id)
