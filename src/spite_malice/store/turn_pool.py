"""The turn-based quick-match pools in the store (``docs/deploying.md``, "Quick match",
"Turn-based pools"): the players waiting for a stranger to play over days, and the seats
of the games the waves made for them.

A turn-based wait is not a live one: it lasts until a wave pairs the player or the player
cancels it (no page has to stay open, so no entry goes stale), and it never keeps the player
out of a live pool or other games. Once a pair's match and its ``turn_games`` row are
stored, :func:`start` moves both seats from ``turn_pool_entries`` to ``turn_tickets`` in one
transaction: the player's browsers collect their seat's token there (:func:`tickets_of`),
on any instance and at any later time, while the game is being played.

The waves' two halves are ``pairing.record_pairs`` and ``pairing.unready`` on
:data:`TURN_POOL_ENTRIES` (a wave cut short is finished by the next holder of the lease).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)

from .access import Store
from .pairing import POOL_SIGNAL, PoolEntry, entry_of_row
from .schema import utcnow
from .schema_notify import TURN_GAMES
from .turn_games import PLAYING

TURN_POOL_META = MetaData()

TURN_POOL_ENTRIES = Table(
    "turn_pool_entries",
    TURN_POOL_META,
    Column("player", String(128), primary_key=True),
    Column("pool", String(16), nullable=False),
    Column("name", String(64), nullable=False),
    Column("rating", Float, nullable=False),
    Column("waves", Integer, nullable=False, default=0),
    Column("joined_at", DateTime(timezone=True), nullable=False),
    Column("seen_at", DateTime(timezone=True), nullable=False),
    Column("room", String(32), nullable=True),
    Column("match_id", String(64), nullable=True),
    Column("seat", Integer, nullable=True),
    Column("token", String(128), nullable=True),
    Column("opponent", String(128), nullable=True),
    Column("ready", Integer, nullable=False, default=0),
    Column("paired_at", DateTime(timezone=True), nullable=True),
)
"""One row per player waiting in a turn-based pool (one such pool at a time), then paired
until its match is stored: the columns of ``pool_entries``, so that the waves' functions
work on either."""
Index("turn_pool_entries_waiting", TURN_POOL_ENTRIES.c.pool, TURN_POOL_ENTRIES.c.room)

TURN_TICKETS = Table(
    "turn_tickets",
    TURN_POOL_META,
    Column("player", String(128), primary_key=True),
    Column("room", String(32), primary_key=True),
    Column("pool", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("token", String(128), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""One row per seat of a turn-based game between strangers being played: the seat's token
for the player's browsers (deleted once the game is over)."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """A seat of a turn-based stranger game, as the player's browser keeps it."""

    room: str
    pool: str
    seat: int
    token: str
    created_at: datetime


def _row(connection: Any, player: str) -> Any:
    return connection.execute(
        select(TURN_POOL_ENTRIES).where(TURN_POOL_ENTRIES.c.player == player)
    ).first()


def join(store: Store, player: str, pool: str, name: str, rating: float) -> PoolEntry:
    """Put ``player`` in the turn-based ``pool``, or move it there from another one (its
    waves counted again); the same pool again only renews its name and rating. A player a
    wave is pairing right now keeps that pairing, which comes back."""
    now = utcnow()
    with store.db.connection() as connection:
        row = _row(connection, player)
        if row is not None and row.room is not None:
            return entry_of_row(row)
        if row is None:
            connection.execute(
                insert(TURN_POOL_ENTRIES).values(
                    player=player,
                    pool=pool,
                    name=name,
                    rating=rating,
                    waves=0,
                    joined_at=now,
                    seen_at=now,
                    ready=0,
                )
            )
        else:
            values: dict[str, object] = {"name": name, "rating": rating, "seen_at": now}
            if row.pool != pool:
                values |= {"pool": pool, "waves": 0, "joined_at": now}
            connection.execute(
                update(TURN_POOL_ENTRIES).where(TURN_POOL_ENTRIES.c.player == player).values(values)
            )
        return entry_of_row(_row(connection, player))


def leave(store: Store, player: str) -> PoolEntry | None:
    """Take a waiting ``player`` out of its turn-based pool: None once out (or never in);
    the entry of a player a wave is pairing right now (its game is being made)."""
    with store.db.connection() as connection:
        connection.execute(
            delete(TURN_POOL_ENTRIES).where(
                TURN_POOL_ENTRIES.c.player == player, TURN_POOL_ENTRIES.c.room.is_(None)
            )
        )
        row = _row(connection, player)
        return None if row is None else entry_of_row(row)


def entry(store: Store, player: str) -> PoolEntry | None:
    """``player``'s turn-based wait (waiting, or being paired), or None."""
    with store.db.connection(write=False) as connection:
        row = _row(connection, player)
        return None if row is None else entry_of_row(row)


def waiting(store: Store, pool: str) -> list[PoolEntry]:
    """The players waiting in the turn-based ``pool``, longest first (none goes stale)."""
    with store.db.connection(write=False) as connection:
        rows = connection.execute(
            select(TURN_POOL_ENTRIES)
            .where(TURN_POOL_ENTRIES.c.pool == pool, TURN_POOL_ENTRIES.c.room.is_(None))
            .order_by(TURN_POOL_ENTRIES.c.joined_at, TURN_POOL_ENTRIES.c.player)
        ).all()
    return [entry_of_row(row) for row in rows]


def start(store: Store, rooms: Sequence[str]) -> list[PoolEntry]:
    """A wave's second half for turn-based pairs, one transaction: the rooms' matches and
    clocks are stored, so each seat becomes a ticket and its wait ends; every instance is
    told (the pool's signal). The entries that ended (each seat's): none of a room another
    instance started first (the rows are locked meanwhile on PostgreSQL, so two instances
    finishing one wave at once make its tickets once)."""
    if not rooms:
        return []
    now = utcnow()
    with store.db.connection() as connection:
        query = select(TURN_POOL_ENTRIES).where(TURN_POOL_ENTRIES.c.room.in_(list(rooms)))
        if connection.dialect.name == "postgresql":
            query = query.with_for_update()
        rows = connection.execute(query).all()
        started = [entry_of_row(row) for row in rows]
        tickets = [
            {
                "player": e.player,
                "room": e.room,
                "pool": e.pool,
                "seat": e.seat,
                "token": e.token,
                "created_at": now,
            }
            for e in started
        ]
        if tickets:
            have = {
                (row.player, row.room)
                for row in connection.execute(
                    select(TURN_TICKETS.c.player, TURN_TICKETS.c.room).where(
                        TURN_TICKETS.c.room.in_(list(rooms))
                    )
                )
            }
            fresh = [t for t in tickets if (t["player"], t["room"]) not in have]
            if fresh:
                connection.execute(insert(TURN_TICKETS), fresh)
            connection.execute(
                delete(TURN_POOL_ENTRIES).where(TURN_POOL_ENTRIES.c.room.in_(list(rooms)))
            )
        store.db.announce(connection, POOL_SIGNAL)
    return started


def tickets_of(store: Store, player: str) -> list[Ticket]:
    """The seats of ``player``'s turn-based stranger games still being played, newest
    first; those of games over are deleted on the way."""
    with store.db.connection() as connection:
        rows = connection.execute(
            select(TURN_TICKETS, TURN_GAMES.c.status)
            .join(TURN_GAMES, TURN_GAMES.c.room == TURN_TICKETS.c.room, isouter=True)
            .where(TURN_TICKETS.c.player == player)
            .order_by(TURN_TICKETS.c.created_at.desc(), TURN_TICKETS.c.room)
        ).all()
        over = [row.room for row in rows if row.status is not None and row.status != PLAYING]
        if over:
            connection.execute(
                delete(TURN_TICKETS).where(
                    TURN_TICKETS.c.player == player, TURN_TICKETS.c.room.in_(over)
                )
            )
    return [
        Ticket(row.room, row.pool, int(row.seat), row.token, row.created_at)
        for row in rows
        if row.room not in over
    ]


__all__ = [
    "TURN_POOL_ENTRIES",
    "TURN_POOL_META",
    "TURN_TICKETS",
    "Ticket",
    "entry",
    "join",
    "leave",
    "start",
    "tickets_of",
    "waiting",
]
