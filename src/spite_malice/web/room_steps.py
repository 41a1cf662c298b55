"""A room's step pipeline: every change of its table is checked, stored, then applied.

A request's walk: :meth:`StepPipeline.request` takes the room's lock, asks the table to
check it (a :class:`~spite_malice.table.Step`, or a refusal), stores the step in the match
log (:class:`~.match_log.MatchLog`, the group commit), applies it to the table and has the
broadcaster send it (a move is acknowledged only once its row is committed). When the store
fails the request gets ``store_unavailable``, nothing is broadcast and the table stays at
the last stored step; when another process stored the step first
(:class:`~spite_malice.store.StoreConflict`) the room reloads the match from the log and
tries again. Steps other instances store arrive through :meth:`StepPipeline.follow`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

from ..engine.errors import SpiteMaliceError
from ..store import MatchHeader, StoreConflict, StoredMatch, StoreError, StoreUnavailable
from ..table import Applied, Step, Table, TableError
from .broadcast import Broadcaster
from .computer_player import ComputerPlayer
from .match_log import MatchLog
from .room_common import Peer, RoomClosed, store_unavailable

log = logging.getLogger(__name__)

RETRIES = 3
"""Times a request is tried again after another process stored a step first."""
STALE_CODES = frozenset({"not_your_turn", "busy", "game_over", "game_not_over", "match_over"})
"""Refusals that may only mean this process is behind the log: check the log, then retry."""


def restore(stored: StoredMatch) -> Table:
    """The table of a stored match, replayed from its log (StoreError when it cannot be)."""
    header = stored.header
    try:
        return Table.restore(header.rules, header.seed, header.meta, stored.steps)
    except SpiteMaliceError as error:  # the table's and the engine's refusals
        raise StoreError(f"match {header.id!r} cannot be replayed: {error}") from error


class SteppedRoom(Protocol):
    """What the step pipeline reads and changes of its room."""

    code: str
    header: MatchHeader
    table: Table
    generation: int
    log: MatchLog
    broadcaster: Broadcaster
    computer: ComputerPlayer

    def opened(self, *, use: bool = True) -> contextlib.AbstractAsyncContextManager[None]: ...


class StepPipeline:
    """Check, store, apply and announce the steps of one room."""

    def __init__(self, room: SteppedRoom) -> None:
        self.room = room
        self.follow_task: asyncio.Task[None] | None = None
        self._follow_again = False

    async def request(
        self, check: Callable[[], Step], peer: Peer | None, reply_to: int | str | None
    ) -> Applied:
        """Check, store, apply and announce one step, under the room's lock."""
        room = self.room
        async with room.opened():
            step = await self.checked(check)
            for _attempt in range(RETRIES):
                try:
                    if await room.computer.answers_at_once(step, peer):
                        return await room.computer.commit_with_computer(step, peer, reply_to)
                    applied = await self.commit(step)
                except StoreConflict:
                    await self.reload()
                    step = check()
                    continue
                room.broadcaster.announce(applied, peer, reply_to)
                return applied
            raise store_unavailable()

    async def checked(self, check: Callable[[], Step]) -> Step:
        """``check()``, again after catching up with the log when the refusal may only
        mean that another process moved on."""
        try:
            return check()
        except TableError as error:
            if error.code not in STALE_CODES or not await self.catch_up():
                raise
        return check()

    async def commit(self, step: Step) -> Applied:
        """Store the step, then apply it; nothing changes when the store fails."""
        room = self.room
        asked, renew = room.computer.renewal()
        try:
            if await room.log.append(room.header, step, renew):
                room.computer.renewed(asked)
        except StoreUnavailable:
            log.warning("room %s: the store failed; step %s refused", room.code, step.kind)
            raise store_unavailable() from None
        return room.table.apply(step)

    async def catch_up(self) -> bool:
        """Reload the match when the log is ahead of this table; whether it was."""
        room = self.room
        try:
            head = await room.log.head(room.header.id)
        except StoreUnavailable:
            return False
        if head == (room.table.game_number, room.table.plies):
            return False
        await self.reload()
        return True

    async def reload(self) -> None:
        """Rebuild the table from the log (another process wrote to it) and tell the seats."""
        room = self.room
        match_id = await room.log.latest_in_room(room.code)
        stored = await room.log.load_match(match_id or room.header.id)
        if stored is None:
            return
        old, old_id = room.table, room.header.id
        room.table, room.header = restore(stored), stored.header
        if stored.header.id != old_id:
            room.generation += 1  # a new match: a computer turn of the old one stops
        old.close()
        room.broadcaster.state("reload", None, None)

    # ----------------------------------------------------------------- other instances

    def follow(self) -> None:
        """Bring the table up to the log soon (another instance stored a step of this room);
        announcements that arrive meanwhile are folded into one more round."""
        task = self.follow_task
        if task is not None and not task.done():
            self._follow_again = True
            return
        self.follow_task = asyncio.get_running_loop().create_task(self._following())

    async def _following(self) -> None:
        room = self.room
        while True:
            self._follow_again = False
            try:
                async with room.opened(use=False):  # following is no use: the room may idle
                    await self._follow_log()
            except RoomClosed:
                return
            except StoreError as error:
                log.warning("room %s: could not follow the log: %s", room.code, error)
            room.computer.start()
            if not self._follow_again:
                return

    async def _follow_log(self) -> None:
        """Apply the steps stored since this table's last one and announce each, as if they
        were played here; reload the whole match when that is not possible (a new match, a
        friend seated, or a step this table refuses)."""
        room = self.room
        header, table = room.header, room.table
        steps = await room.log.steps_after(header.id, table.game_number, table.plies - 1)
        latest = await room.log.latest_in_room(room.code)
        if not steps or latest != header.id:
            await self.reload()
            return
        for step in steps:
            try:
                applied = table.apply(step)
            except (TableError, SpiteMaliceError) as error:
                log.warning("room %s: a stored step does not apply here: %s", room.code, error)
                await self.reload()
                return
            room.broadcaster.announce(applied, None, None)
