"""Play between strangers in the store: the quick-match pools' waiting players and the pairs
the waves made, blocks, and the rated matches a player ended badly with the bans they earned
(tables in ``schema_pairing.py``; what they mean in ``docs/deploying.md``, "Quick match").

Every function is one short transaction of its own, as the :class:`~.access.Store`'s
methods are. A wave is stored in two halves so that it survives the instance making it:
:func:`record_pairs` writes the pairs (which rooms, seats and tokens) in one transaction;
the rooms' matches are then stored one by one and :func:`mark_ready` tells the players. An
instance taking the waves over finds the pairs without a stored match (:func:`unready`) and
stores them; a pair is never made twice, since an entry is paired only while it has no room.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    CursorResult,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from ..match_records import Step
from .access import Store
from .records import MatchHeader
from .schema import MatchRow, utcnow
from .schema_pairing import BLOCKS, PLAY_OUTCOMES, PLAYBANS, POOL_ENTRIES

POOL_SIGNAL = "~pool"
"""The name announced on the store's channel when a wave's rooms are ready: not a room code
(codes are six capitals and digits), so the instances' lobbies tell it apart."""
WAVE_LEASE = "~pairing"
"""The lease (in the ``leases`` table) of the instance running the waves."""
TOLD_SECONDS = 60.0
"""How long a player's game is told again (an answer lost on the way is not a lost game)."""
WAITING, READY, TOLD = 0, 1, 2
"""``pool_entries.ready``: the match not stored yet, stored, told to the player."""


@dataclass(frozen=True, slots=True)
class PoolEntry:
    """A player in a pool: waiting (``room`` None) or paired (the room, seat and token)."""

    player: str
    pool: str
    name: str
    rating: float
    waves: int
    joined_at: datetime
    room: str | None = None
    match_id: str | None = None
    seat: int | None = None
    token: str | None = None
    opponent: str | None = None
    ready: bool = False
    """The match is stored (told or not)."""
    ready_state: int = 0

    @property
    def waiting(self) -> bool:
        return self.room is None

    @property
    def told(self) -> bool:
        """Its game was told to the player already (told again for a while)."""
        return self.ready_state == TOLD


@dataclass(frozen=True, slots=True)
class Pairing:
    """One pair of a wave: the room given to both, and each seat's player and token."""

    room: str
    match_id: str
    players: tuple[str, str]
    tokens: tuple[str, str]
    names: tuple[str, str] = ("", "")
    """The players' names as they joined (the seats' names)."""


@dataclass(frozen=True, slots=True)
class Block:
    player: str
    name: str
    created_at: datetime


def entry_of_row(row: Any) -> PoolEntry:
    """A pool's row (a live pool's or a turn-based one's: the same columns) as an entry."""
    return PoolEntry(
        player=row.player,
        pool=row.pool,
        name=row.name,
        rating=float(row.rating),
        waves=int(row.waves),
        joined_at=row.joined_at,
        room=row.room,
        match_id=row.match_id,
        seat=row.seat,
        token=row.token,
        opponent=row.opponent,
        ready=bool(row.ready),
        ready_state=int(row.ready),
    )


# ----------------------------------------------------------------- the pools


def join_pool(store: Store, player: str, pool: str, name: str, rating: float) -> PoolEntry:
    """Put ``player`` in ``pool`` (or move it there from another pool, its waves counted
    again); a player already paired keeps its pairing, which comes back."""
    now = utcnow()
    with store.db.connection() as connection:
        row = connection.execute(
            select(POOL_ENTRIES).where(POOL_ENTRIES.c.player == player)
        ).first()
        if row is not None and row.room is not None and row.ready != TOLD:
            return entry_of_row(row)  # paired: its game comes back
        values = {
            "pool": pool,
            "name": name,
            "rating": rating,
            "waves": 0,
            "joined_at": now,
            "seen_at": now,
            "ready": WAITING,
        }
        if row is None:
            connection.execute(insert(POOL_ENTRIES).values(player=player, **values))
        elif row.pool != pool or row.room is not None:  # another pool, or a game told
            values |= {"room": None, "match_id": None, "seat": None, "token": None}
            values |= {"opponent": None, "paired_at": None}
            connection.execute(
                update(POOL_ENTRIES).where(POOL_ENTRIES.c.player == player).values(values)
            )
        else:
            connection.execute(
                update(POOL_ENTRIES)
                .where(POOL_ENTRIES.c.player == player)
                .values(seen_at=now, name=name, rating=rating)
            )
        found = connection.execute(
            select(POOL_ENTRIES).where(POOL_ENTRIES.c.player == player)
        ).one()
        return entry_of_row(found)


def leave_pool(store: Store, player: str) -> PoolEntry | None:
    """Take a waiting ``player`` out of its pool. None when it was waiting (or in no pool);
    a player a wave paired meanwhile cannot leave: its entry comes back."""
    with store.db.connection() as connection:
        connection.execute(
            delete(POOL_ENTRIES).where(
                POOL_ENTRIES.c.player == player,
                POOL_ENTRIES.c.room.is_(None) | (POOL_ENTRIES.c.ready == TOLD),
            )
        )
        row = connection.execute(
            select(POOL_ENTRIES).where(POOL_ENTRIES.c.player == player)
        ).first()
        return None if row is None else entry_of_row(row)


def pool_entry(store: Store, player: str, *, seen: bool = True) -> PoolEntry | None:
    """``player``'s entry (``seen``: renewing its word that it still waits), or None."""
    with store.db.connection() as connection:
        if seen:
            connection.execute(
                update(POOL_ENTRIES).where(POOL_ENTRIES.c.player == player).values(seen_at=utcnow())
            )
        row = connection.execute(
            select(POOL_ENTRIES).where(POOL_ENTRIES.c.player == player)
        ).first()
        return None if row is None else entry_of_row(row)


def collect(store: Store, player: str) -> PoolEntry | None:
    """``player``'s ready pairing, marked told; told again for :data:`TOLD_SECONDS` after
    the pairing (the answer may be lost on its way), then gone."""
    now = utcnow()
    with store.db.connection() as connection:
        row = connection.execute(
            select(POOL_ENTRIES).where(
                POOL_ENTRIES.c.player == player, POOL_ENTRIES.c.ready.in_((READY, TOLD))
            )
        ).first()
        if row is None:
            return None
        if row.ready == TOLD and _aware(row.paired_at) < now - timedelta(seconds=TOLD_SECONDS):
            connection.execute(delete(POOL_ENTRIES).where(POOL_ENTRIES.c.player == player))
            return None
        if row.ready == READY:
            connection.execute(
                update(POOL_ENTRIES).where(POOL_ENTRIES.c.player == player).values(ready=TOLD)
            )
        return entry_of_row(row)


def waiting(store: Store, pool: str, stale_seconds: float) -> list[PoolEntry]:
    """The players waiting in ``pool``, longest first; entries not seen for ``stale_seconds``
    (the page was closed) are taken out first."""
    now = utcnow()
    with store.db.connection() as connection:
        connection.execute(
            delete(POOL_ENTRIES).where(
                POOL_ENTRIES.c.room.is_(None),
                POOL_ENTRIES.c.seen_at < now - timedelta(seconds=stale_seconds),
            )
        )
        connection.execute(
            delete(POOL_ENTRIES).where(
                POOL_ENTRIES.c.ready == TOLD,
                POOL_ENTRIES.c.paired_at < now - timedelta(seconds=TOLD_SECONDS),
            )
        )
        rows = connection.execute(
            select(POOL_ENTRIES)
            .where(POOL_ENTRIES.c.pool == pool, POOL_ENTRIES.c.room.is_(None))
            .order_by(POOL_ENTRIES.c.joined_at, POOL_ENTRIES.c.player)
        ).all()
        return [entry_of_row(row) for row in rows]


def record_pairs(
    store: Store,
    pool: str,
    pairs: Sequence[Pairing],
    passed: Sequence[str],
    entries: Table = POOL_ENTRIES,
) -> list[Pairing]:
    """A wave's first half, one transaction: give each pair its room (only entries still
    waiting, locked meanwhile: a player who left leaves its pair unmade, the other waiting
    on), and count one more missed wave for the ``passed`` players. Returns the pairs made.
    ``entries``: the table of the pool's entries (the turn-based pools have their own,
    ``store/turn_pool.py``)."""
    now = utcnow()
    wanted = [player for pair in pairs for player in pair.players]
    with store.db.connection() as connection:
        still = set()
        if wanted:
            query = select(entries.c.player).where(
                entries.c.player.in_(wanted),
                entries.c.pool == pool,
                entries.c.room.is_(None),
            )
            if connection.dialect.name == "postgresql":
                query = query.with_for_update()  # a player leaving now waits for this wave
            still = {row.player for row in connection.execute(query)}
        made = [pair for pair in pairs if set(pair.players) <= still]
        seats = [
            {
                "who": pair.players[seat],
                "room": pair.room,
                "match_id": pair.match_id,
                "seat": seat,
                "token": pair.tokens[seat],
                "opponent": pair.players[1 - seat],
                "paired_at": now,
            }
            for pair in made
            for seat in (0, 1)
        ]
        if seats:
            connection.execute(
                update(entries)
                .where(entries.c.player == bindparam("who"))
                .values(
                    room=bindparam("room"),
                    match_id=bindparam("match_id"),
                    seat=bindparam("seat"),
                    token=bindparam("token"),
                    opponent=bindparam("opponent"),
                    paired_at=bindparam("paired_at"),
                ),
                seats,
            )
        if passed:
            connection.execute(
                update(entries)
                .where(entries.c.player.in_(passed), entries.c.room.is_(None))
                .values(waves=entries.c.waves + 1)
            )
    return made


def unready(
    store: Store, entries: Table = POOL_ENTRIES
) -> list[tuple[Pairing, str, tuple[str, str]]]:
    """The pairs whose match is not stored yet (a wave's second half not done, or cut short
    by its instance's death): each pairing with its pool and the two players' names
    (``entries``: as for :func:`record_pairs`)."""
    with store.db.connection(write=False) as connection:
        rows = connection.execute(
            select(entries)
            .where(entries.c.room.is_not(None), entries.c.ready == WAITING)
            .order_by(entries.c.room, entries.c.seat)
        ).all()
    rooms: dict[str, list[Any]] = {}
    for row in rows:
        rooms.setdefault(row.room, []).append(row)
    found = []
    for room, seats in rooms.items():
        if len(seats) != 2:
            continue  # cannot happen: both seats are written in one transaction
        first, second = seats
        names = (str(first.name), str(second.name))
        pairing = Pairing(
            room, first.match_id, (first.player, second.player), (first.token, second.token), names
        )
        found.append((pairing, str(first.pool), names))
    return found


def mark_ready(store: Store, rooms: Sequence[str]) -> None:
    """A wave's second half: these rooms' matches are stored; tell every instance."""
    if not rooms:
        return
    with store.db.connection() as connection:
        connection.execute(
            update(POOL_ENTRIES)
            .where(POOL_ENTRIES.c.room.in_(rooms), POOL_ENTRIES.c.ready == WAITING)
            .values(ready=READY)
        )
        store.db.announce(connection, POOL_SIGNAL)


def taken_rooms(store: Store, codes: Sequence[str]) -> set[str]:
    """Which of ``codes`` are rooms already (one query for a whole wave's codes)."""
    from .schema import MatchRow

    if not codes:
        return set()
    with store.db.connection(write=False) as connection:
        rows = connection.execute(select(MatchRow.room).where(MatchRow.room.in_(codes))).all()
    return {str(row.room) for row in rows}


def pool_sizes(store: Store) -> dict[str, int]:
    """How many players wait in each pool."""
    with store.db.connection(write=False) as connection:
        rows = connection.execute(
            select(POOL_ENTRIES.c.pool, func.count())
            .where(POOL_ENTRIES.c.room.is_(None))
            .group_by(POOL_ENTRIES.c.pool)
        ).all()
    return {str(pool): int(count) for pool, count in rows}


# ----------------------------------------------------------------- blocks


def block(store: Store, player: str, blocked: str, name: str) -> None:
    """``player`` blocks ``blocked`` (named ``name``): they are never paired again."""
    if player == blocked:
        return
    try:
        with store.db.connection() as connection:
            connection.execute(
                insert(BLOCKS).values(
                    player=player, blocked=blocked, name=name, created_at=utcnow()
                )
            )
    except IntegrityError:
        return  # blocked already


def unblock(store: Store, player: str, blocked: str) -> bool:
    with store.db.connection() as connection:
        result: CursorResult[Any] = connection.execute(
            delete(BLOCKS).where(BLOCKS.c.player == player, BLOCKS.c.blocked == blocked)
        )
        return bool(result.rowcount)


def blocks(store: Store, player: str) -> list[tuple[str, Block]]:
    """The players ``player`` blocked, latest first: (their id, the block)."""
    with store.db.connection(write=False) as connection:
        rows = connection.execute(
            select(BLOCKS).where(BLOCKS.c.player == player).order_by(BLOCKS.c.created_at.desc())
        ).all()
    return [(row.blocked, Block(row.blocked, row.name, row.created_at)) for row in rows]


def blocks_among(store: Store, players: Sequence[str]) -> set[frozenset[str]]:
    """Every pair of ``players`` where either blocked the other."""
    if len(players) < 2:
        return set()
    with store.db.connection(write=False) as connection:
        rows = connection.execute(
            select(BLOCKS.c.player, BLOCKS.c.blocked).where(
                and_(BLOCKS.c.player.in_(players), BLOCKS.c.blocked.in_(players))
            )
        ).all()
    return {frozenset((row.player, row.blocked)) for row in rows}


def is_blocked(store: Store, first: str, second: str) -> bool:
    """Whether either of the two blocked the other."""
    with store.db.connection(write=False) as connection:
        row = connection.execute(
            select(BLOCKS.c.player).where(
                or_(
                    and_(BLOCKS.c.player == first, BLOCKS.c.blocked == second),
                    and_(BLOCKS.c.player == second, BLOCKS.c.blocked == first),
                )
            )
        ).first()
    return row is not None


# ----------------------------------------------------------------- bad outcomes, bans


def record_outcome(
    store: Store, player: str, match_id: str, outcome: str, at: datetime | None = None
) -> bool:
    """Keep that ``player`` ended the rated match ``match_id`` badly (``abort``,
    ``timeout``, ``left``); False when that match was counted against it already."""
    try:
        with store.db.connection() as connection:
            connection.execute(
                insert(PLAY_OUTCOMES).values(
                    player=player, match_id=match_id, outcome=outcome, at=at or utcnow()
                )
            )
    except IntegrityError:
        return False
    return True


def outcomes_since(store: Store, player: str, since: datetime) -> list[tuple[str, datetime]]:
    """``player``'s bad outcomes since ``since``, oldest first: (outcome, when)."""
    with store.db.connection(write=False) as connection:
        rows = connection.execute(
            select(PLAY_OUTCOMES.c.outcome, PLAY_OUTCOMES.c.at)
            .where(PLAY_OUTCOMES.c.player == player, PLAY_OUTCOMES.c.at >= since)
            .order_by(PLAY_OUTCOMES.c.at)
        ).all()
    return [(str(row.outcome), _aware(row.at)) for row in rows]


def bans_since(store: Store, player: str, since: datetime) -> list[tuple[datetime, datetime]]:
    """``player``'s bans started since ``since``, oldest first: (from, until)."""
    with store.db.connection(write=False) as connection:
        rows = connection.execute(
            select(PLAYBANS.c.started_at, PLAYBANS.c.until)
            .where(PLAYBANS.c.player == player, PLAYBANS.c.started_at >= since)
            .order_by(PLAYBANS.c.started_at)
        ).all()
    return [(_aware(row.started_at), _aware(row.until)) for row in rows]


def add_ban(store: Store, player: str, started_at: datetime, until: datetime) -> None:
    with store.db.connection() as connection:
        connection.execute(
            insert(PLAYBANS).values(player=player, started_at=started_at, until=until)
        )


def banned_until(store: Store, player: str, now: datetime) -> datetime | None:
    """The end of ``player``'s ban in force at ``now``, or None."""
    with store.db.connection(write=False) as connection:
        until = connection.scalar(
            select(func.max(PLAYBANS.c.until)).where(
                PLAYBANS.c.player == player, PLAYBANS.c.until > now
            )
        )
    return None if until is None else _aware(until)


def _aware(moment: datetime) -> datetime:
    from .database import aware

    return aware(moment)


def create_match_once(store: Store, header: MatchHeader, deal: Step) -> bool:
    """Store a pair's match, unless it is stored already (two instances finishing one wave
    at once, a lease handed over while its holder was slow: the first one's deal stays, and
    the other's tokens are the same pair's). Whether this call stored it."""
    try:
        store.create_match(header, deal)
    except IntegrityError:
        with store.db.connection(write=False) as connection:
            found = connection.scalar(select(MatchRow.id).where(MatchRow.id == header.id))
        if found is None:
            raise
        return False
    return True
