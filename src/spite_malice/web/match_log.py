"""A room's one way to the store: its match log, leases and presence, each call awaited off
the event loop (on a worker thread of the lobby's, or the group commit's writer).

A room neither holds the store nor the lobby that made it: it asks its :class:`MatchLog`,
whose methods are the few things a room does with the database, named as the room thinks
of them. A move goes: the room's step pipeline (``web/room_steps.py``) checks it, stores it
here (:meth:`MatchLog.append`, the group commit in ``store/group_commit.py``), then applies
it and the broadcaster (``web/broadcast.py``) sends it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..match_records import Step
from ..store import MatchHeader, SeatPresence, Store, StoredMatch
from ..store.group_commit import GroupCommit


class MatchLog:
    """What the rooms of one server instance ask of its store (``run``: a store call on a
    worker thread; ``commits``: the group commit of their steps)."""

    def __init__(
        self, store: Store, run: Callable[..., Awaitable[Any]], commits: GroupCommit
    ) -> None:
        self._store = store
        self._run = run
        self._commits = commits
        self.instance = commits.instance
        """This server instance's name in computer-turn leases and presence rows."""

    # ----------------------------------------------------------------- the log

    async def load_match(self, match_id: str) -> StoredMatch | None:
        stored: StoredMatch | None = await self._run(self._store.load_match, match_id)
        return stored

    async def latest_in_room(self, room: str) -> str | None:
        found: str | None = await self._run(self._store.latest_in_room, room)
        return found

    async def head(self, match_id: str) -> tuple[int, int]:
        """(game, plies) of the match's last stored step: the log's version."""
        head: tuple[int, int] = await self._run(self._store.head, match_id)
        return head

    async def steps_after(self, match_id: str, game: int, ply: int) -> list[Step]:
        steps: list[Step] = await self._run(self._store.steps_after, match_id, game, ply)
        return steps

    async def create_match(self, header: MatchHeader, deal: Step) -> MatchHeader:
        made: MatchHeader = await self._run(self._store.create_match, header, deal)
        return made

    async def update_header(self, header: MatchHeader) -> None:
        await self._run(self._store.update_header, header)

    async def claim_seat(self, header: MatchHeader, seat: int) -> bool:
        claimed: bool = await self._run(self._store.claim_seat, header, seat)
        return claimed

    async def append(self, header: MatchHeader, step: Step, renew: float | None = None) -> bool:
        """Store one step (the group commit's :meth:`GroupCommit.append`)."""
        return await self._commits.append(header, step, renew)

    async def append_steps(
        self, header: MatchHeader, steps: tuple[Step, ...], renew: float | None = None
    ) -> bool:
        """Store several steps of one room as one entry of the group commit."""
        return await self._commits.append_steps(header, steps, renew)

    # ----------------------------------------------------------------- leases, presence

    async def take_lease(
        self, room: str, seconds: float, match_id: str
    ) -> tuple[bool, tuple[int, int]]:
        """Take this instance's lease on ``room``'s computer turns, and the match's head."""
        taken: tuple[bool, tuple[int, int]] = await self._run(
            self._store.take_lease, room, self.instance, seconds, match_id
        )
        return taken

    async def renew_lease(self, room: str, seconds: float) -> bool:
        """Renew (or take) the lease; False when another instance holds it."""
        kept: bool = await self._run(self._store.acquire_lease, room, self.instance, seconds)
        return kept

    async def release_lease(self, room: str) -> None:
        await self._run(self._store.release_lease, room, self.instance)

    async def mark_presence(self, marks: list[tuple[str, int, bool]]) -> None:
        await self._run(self._store.mark_presence, marks)

    async def presence(self, rooms: list[str]) -> dict[str, list[SeatPresence]]:
        found: dict[str, list[SeatPresence]] = await self._run(self._store.presence, rooms)
        return found
