"""The group commit of the rooms' steps: steps asked for while the store is busy are written
together, in one transaction for many rooms (:meth:`~.access.Store.append_many`): by one
writer while few wait, by up to :data:`FLUSHERS` at once (one on SQLite) when more do. While
the server is busy, an idle writer waits :data:`GATHER_SECONDS` for the moves of other rooms
before it commits, so that they share its transaction. The commit runs on the event loop: on
PostgreSQL on connections of its own (:class:`~.async_writer.AsyncWriter`), on a SQLite file
without waiting for its lock (:meth:`~.move_log.MoveLog.append_many_now`; when another
writer holds it, on a worker thread of the caller's that waits, as every other call does)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..match_records import ABORT, DEAL, Step
from .access import LeaseRenewal, MatchHeader, Store, StoreConflict, StoreError
from .async_writer import AsyncWriter
from .database import WriteBusy

FLUSHERS = 4
"""Group commits of moves in flight at once (each on its own thread and connection); one on
SQLite, which has a single writer anyway, so its batches are as large as they can be."""
SPREAD_AT = 4
"""Entries waiting for a writer before another one starts (up to :data:`FLUSHERS`): below
that, one writer takes every entry that came while its last commit was in flight, so that
the moves of many rooms share a transaction (PostgreSQL spends about 0.7 ms of CPU on each
transaction, whatever its size); past it, more writers keep a slow commit from holding up
the next moves."""
GATHER_SECONDS = 0.006
"""How long an idle writer waits for more entries before its commit, while the server is
busy (:data:`BUSY_SECONDS`): on a server taking a few hundred moves a second most commits
held one room's move, and a transaction costs the database about the same whatever its size,
so a wait this short (next to a move's round trip) lets several moves share one. 3 ms let
about twice as many share one as no wait; 6 ms made 0.53 transactions a client move against
3 ms's 0.60 in one round on three instances at a load of 1 to 5, and no difference on a
machine several times over its capacity, which batches its commits anyway
(docs/measurements/2026-12-07-cpu-2.md). Alternated with 3 ms on a machine with nothing
else running (docs/measurements/2026-12-07-cpu-3.md): through three instances, the same
transactions a move (0.49 to 0.51) and all parts 1.89 and 1.76 ms against 1.93 and 1.89,
p95 69 and 55 ms against 90 and 61 (that machine at its limit); on one SQLite server no CPU
saved (0.96 ms a move against 0.95, medians of three) for a p95 of 11.5 ms against 7.4."""
BUSY_SECONDS = 0.010
"""The server counts as busy while entries come within this of each other: a lone move on a
quiet server is committed at once, without :data:`GATHER_SECONDS`'s wait."""
BATCH_LIMIT = 256
"""Entries (a room's step, or a computer's turn of steps) written in one group commit at most."""

log = logging.getLogger(__name__)
_Entry = tuple[MatchHeader, tuple[Step, ...], float | None, "asyncio.Future[bool]"]
"""One entry of the group commit: a room's steps, stored together; the seconds to renew the
room's computer-turn lease for (None: not renewed); and who waits for them."""


class GroupCommit:
    """The group commit of one store's moves for one server instance (``instance``: its name
    in computer-turn leases); ``run`` calls the store on a worker thread."""

    def __init__(
        self,
        store: Store,
        run: Callable[..., Awaitable[Any]],
        instance: str,
        gather: Callable[[], Awaitable[object]] | None = None,
        busy_seconds: float = BUSY_SECONDS,
    ) -> None:
        self.store = store
        self.run = run
        self.instance = instance
        self._gather = gather or _gather
        """Awaited by an idle writer of a busy server before it commits (tests pass their own)."""
        self._busy_seconds = busy_seconds
        self._pending: list[_Entry] = []
        self._last_entry = -busy_seconds
        """When (``time.monotonic()``) the last entry came."""
        self._flushing = 0
        self._writers: set[asyncio.Task[None]] = set()
        self._flushers = 1 if store.engine.dialect.name == "sqlite" else FLUSHERS
        self._writer = AsyncWriter(store) if store.announces else None
        """PostgreSQL's group commits, run on the event loop rather than a worker thread."""
        self._now = self._flushers == 1 and store.log.db.writes_now
        """Whether a SQLite file's group commits are written on the event loop, unless
        another writer holds the file (then on a thread, waiting for it)."""

    async def append(self, header: MatchHeader, step: Step, renew: float | None = None) -> bool:
        """Store one step of a room; return once it is committed (``StoreConflict``,
        ``StoreUnavailable`` as :meth:`Store.append`). With ``renew``, the write also renews
        the room's computer-turn lease, if this instance holds it, for that many seconds:
        True when it did (see :meth:`append_steps`).

        Steps asked for while the store is busy are written together (a group commit), by
        up to :data:`FLUSHERS` writers at once (one on SQLite): a slow write holds up
        only the steps in its own batch, the next ones go out through another writer.
        Deals and the last moves of games (which write more rows) are written one by one."""
        if step.finished is not None or step.kind in (DEAL, ABORT):
            await self.run(self.store.append, header, step)
            return False
        return await self.append_steps(header, (step,), renew)

    async def append_steps(
        self, header: MatchHeader, steps: tuple[Step, ...], renew: float | None = None
    ) -> bool:
        """Store several steps of one room, in order, as one entry of the group commit: all
        of them or none (a computer's whole turn, one write instead of one a move). Only
        steps that end no game and deal none (those go through :meth:`append`).

        With ``renew``, the group commit also renews the room's computer-turn lease for that
        many seconds from the commit, if this instance still holds it: True when it did (a
        room played here keeps its lease through its own writes, with no call of its own)."""
        assert steps and all(step.finished is None and step.kind != DEAL for step in steps)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._pending.append((header, steps, renew, future))
        now = time.monotonic()
        busy, self._last_entry = now - self._last_entry < self._busy_seconds, now
        if self._flushing == 0:
            self._flushing += 1
            self._start(loop.create_task(self._flush(gather=busy)))
        elif self._flushing < self._flushers and len(self._pending) >= SPREAD_AT:
            self._flushing += 1
            self._start(loop.create_task(self._flush(gather=False)))
        return await future

    def _start(self, writer: asyncio.Task[None]) -> None:
        """Keep a writer's task until it ends (the loop holds its tasks only weakly)."""
        self._writers.add(writer)
        writer.add_done_callback(self._writers.discard)

    async def _flush(self, gather: bool) -> None:
        """Write what waits, batch after batch; an idle writer of a busy server first waits
        :data:`GATHER_SECONDS` for more entries (unless :data:`SPREAD_AT` wait already:
        then the next writer takes them at once)."""
        try:
            if gather and len(self._pending) < SPREAD_AT:
                await self._gather()
            while self._pending:
                batch, self._pending = self._pending[:BATCH_LIMIT], self._pending[BATCH_LIMIT:]
                await self._write(batch)
        finally:
            self._flushing -= 1

    async def _write(self, batch: list[_Entry]) -> None:
        steps = [(header, step) for header, group, _, _ in batch for step in group]
        try:
            renewed = await self._append_many(steps, self._renewal(batch))
        except StoreConflict:
            # some step was stored by another process: find which, entry by entry (each
            # entry's steps in one transaction, so an entry is stored whole or not at all)
            for header, group, renew, future in batch:
                try:
                    one = self._renewal([(header, group, renew, future)])
                    kept = await self._append_many([(header, s) for s in group], one)
                except Exception as error:
                    _settle(future, _logged(error, 1))
                else:
                    _settle(future, None, header.room in kept)
            return
        except Exception as error:  # a store error, or a bug: every waiter hears of it
            _logged(error, len(batch))
            for _, _, _, future in batch:
                _settle(future, error)
            return
        for header, _, _, future in batch:
            _settle(future, None, header.room in renewed)

    async def _append_many(
        self, steps: list[tuple[MatchHeader, Step]], renew: LeaseRenewal | None
    ) -> frozenset[str]:
        """:meth:`Store.append_many`: on the event loop on PostgreSQL, else on a thread."""
        if self._writer is not None:
            return await self._writer.append_many(steps, renew)
        if self._now:
            try:
                return self.store.append_many_now(steps, renew)
            except WriteBusy:
                pass  # another writer holds the file: wait for it on a thread, as before
        renewed: frozenset[str] = await self.run(self.store.append_many, steps, renew)
        return renewed

    def _renewal(self, batch: list[_Entry]) -> LeaseRenewal | None:
        """The leases a group commit of ``batch`` renews: its entries' rooms that ask for
        it, for the longest time asked (every room asks for the same one)."""
        asked = {
            header.room: renew
            for header, _, renew, _ in batch
            if renew is not None and header.room is not None
        }
        if not asked:
            return None
        return LeaseRenewal(self.instance, frozenset(asked), max(asked.values()))

    async def close(self) -> None:
        """Close the PostgreSQL writer's connections."""
        if self._writer is not None:
            await self._writer.close()


async def _gather() -> None:
    await asyncio.sleep(GATHER_SECONDS)


def _logged(error: Exception, entries: int) -> Exception:
    """``error``, logged with its traceback when it is not the store's (a bug): a group
    commit that fails answers its waiters with it rather than leaving them waiting."""
    if not isinstance(error, StoreError):
        log.error("a group commit of %d entries failed", entries, exc_info=error)
    return error


def _settle(future: asyncio.Future[bool], error: Exception | None, renewed: bool = False) -> None:
    """Answer a group commit's waiter: stored (and whether its lease was renewed) or not."""
    if future.done():
        return
    if error is None:
        future.set_result(renewed)
    else:
        future.set_exception(error)
