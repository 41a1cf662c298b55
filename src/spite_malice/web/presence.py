"""A room's presence: which seats are connected (here, or for a friend room on another
instance on the same database, as the store's presence rows say) and for how long a seat
has been away (the claim clock, ``web-protocol.md`` 4.2 ``claim``)."""

from __future__ import annotations

import contextlib
import os
import time
from typing import Protocol

from ..i18n import ngettext
from ..store import MatchHeader, SeatPresence, StoreError
from ..table import Table
from .match_log import MatchLog
from .room_common import COMPUTER_MODE, FRIEND_MODE, Peer

CLAIM_SECONDS = 180.0
"""How long a friend must have been offline (no connection to any server instance) before
the other seat may claim the game (``web-protocol.md`` 4.2 ``claim``): 3 minutes."""
CLAIM_ENV = "SPITE_MALICE_CLAIM_SECONDS"
"""An environment variable that sets another claim time (seconds), for tests and operators."""
ONLINE_SECONDS = 75.0
"""How long another instance's word that a seat is connected holds without being renewed
(it renews it every ``lobby.PRESENCE_SECONDS``): a dead instance's seats go offline."""


def claim_seconds() -> float:
    """The claim time: :data:`CLAIM_SECONDS` unless :data:`CLAIM_ENV` says otherwise."""
    try:
        value = float(os.environ.get(CLAIM_ENV) or CLAIM_SECONDS)
    except ValueError:
        return CLAIM_SECONDS
    return value if value >= 0 else CLAIM_SECONDS


def minutes(seconds: float) -> str:
    """'3 minutes', '1 minute', '20 seconds': a duration for a sentence (current language)."""
    if seconds >= 60:
        count = max(1, round(seconds / 60))
        return ngettext("{n} minute", "{n} minutes", count)
    count = max(1, round(seconds))
    return ngettext("{n} second", "{n} seconds", count)


class PresentRoom(Protocol):
    """What presence reads of its room."""

    code: str
    header: MatchHeader
    table: Table
    peers: tuple[set[Peer], set[Peer]]
    log: MatchLog

    @property
    def mode(self) -> str: ...


class Presence:
    """The seats' presence of one room."""

    def __init__(self, room: PresentRoom) -> None:
        self.room = room
        self.remote_online = [False, False]
        """Whether another instance holds a connection of each seat (as last read)."""
        self.last_seen: list[float | None] = [None, None]
        """When each seat was last seen connected anywhere (a wall-clock time, as last read
        from the store or seen here); None when never."""

    def connected(self) -> list[bool]:
        """Whether each seat has a connection open, to this instance or (friend rooms) to
        another one on the same database."""
        room = self.room
        if room.mode == COMPUTER_MODE:
            return [bool(room.peers[0]), True]
        return [bool(room.peers[s]) or self.remote_online[s] for s in (0, 1)]

    def away(self) -> list[float | None]:
        """Seconds each seat of a friend room has been offline (None while connected, and in
        computer rooms): since it was last seen, or since the match began if never, and
        never since before the friend joined: until both seats are taken nobody is away
        from a game, so a claim cannot follow the join at once (web-protocol.md 4.2)."""
        room = self.room
        if room.mode == COMPUTER_MODE:
            return [None, None]
        now = time.time()
        began = room.header.created_at.timestamp() if room.header.created_at else now
        joined = room.table.meta.joined_at or began
        connected = self.connected()
        return [
            None
            if connected[s]
            else round(max(0.0, now - max(self.last_seen[s] or began, joined)), 1)
            for s in (0, 1)
        ]

    def learn(self, rows: list[SeatPresence]) -> None:
        """Take in the store's presence rows of this room (every instance's word)."""
        now = time.time()
        instance = self.room.log.instance
        for seat in (0, 1):
            mine = [row for row in rows if row.seat == seat]
            self.remote_online[seat] = any(
                row.online
                and row.instance != instance
                and now - row.seen_at.timestamp() < ONLINE_SECONDS
                for row in mine
            )
            seen = max((row.seen_at.timestamp() for row in mine), default=None)
            if seen is not None:
                self.last_seen[seat] = max(seen, self.last_seen[seat] or seen)

    async def mark(self, seat: int, online: bool) -> None:
        """Write this instance's presence of ``seat`` and read every instance's (friend
        rooms only; a failing store only leaves the presence as last known)."""
        room = self.room
        if room.mode != FRIEND_MODE:
            return
        with contextlib.suppress(StoreError):
            await room.log.mark_presence([(room.code, seat, online)])
            rows = await room.log.presence([room.code])
            self.learn(rows.get(room.code, []))

    async def read(self) -> None:
        """Read every instance's presence rows of this room (StoreUnavailable when the
        store fails)."""
        rows = await self.room.log.presence([self.room.code])
        self.learn(rows.get(self.room.code, []))
