"""Group commits of moves on PostgreSQL from the event loop, with no worker thread.

A busy server's hottest store call is the group commit of its rooms' moves
(:meth:`Store.append_many`): on PostgreSQL one statement, :data:`~.access.APPEND_MANY_POSTGRES`.
Run on a worker thread, each commit is handed to the thread and its answer handed back to
the event loop, which cost about as much CPU as the statement's own driver work. An
:class:`AsyncWriter` runs the same statement, with the same parameters and the same answers,
on psycopg's asyncio connections of its own (one per group commit in flight, kept open,
autocommit, the statement prepared once per connection), so the commit never leaves the
event loop. The rest of the store stays on its pool and threads.

Failures are :meth:`Store.append_many`'s: a step stored already raises
:class:`~.access.StoreConflict` for the whole commit (nothing of it is stored); any other
failure of the database :class:`~.access.StoreUnavailable`, and the connection is closed
and not used again (the next commit opens another).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..match_records import DEAL, Step
from .access import (
    APPEND_MANY_POSTGRES,
    LeaseRenewal,
    MatchHeader,
    Store,
    StoreConflict,
    StoreUnavailable,
    append_many_values,
)
from .location import connect_args
from .schema import utcnow

if TYPE_CHECKING:
    from psycopg import AsyncConnection

CONNECT_SECONDS = 5
"""How long opening a connection may take before the commit fails as unavailable."""


class AsyncWriter:
    """:meth:`Store.append_many` for a PostgreSQL store, awaited on the event loop."""

    def __init__(self, store: Store) -> None:
        assert store.announces, "only a PostgreSQL store has an asyncio writer"
        self.store = store
        self._connect_args = connect_args(store.url)
        self._connect_args.setdefault("connect_timeout", CONNECT_SECONDS)
        self._idle: list[AsyncConnection[Any]] = []
        """Open connections no commit is using."""
        self._closed = False

    async def append_many(
        self,
        steps: Sequence[tuple[MatchHeader, Step]],
        renew: LeaseRenewal | None = None,
    ) -> frozenset[str]:
        """Store ``steps`` in one transaction and renew the leases of ``renew`` that its
        owner still holds; the rooms renewed (exactly :meth:`Store.append_many`)."""
        import psycopg  # PostgreSQL's driver: only a server on PostgreSQL has it

        assert all(step.finished is None and step.kind != DEAL for _, step in steps)
        values = append_many_values(steps, utcnow(), renew, self.store.origin)
        connection = await self._take()
        try:
            cursor = await connection.execute(APPEND_MANY_POSTGRES, values, prepare=True)
            answer = await cursor.fetchall()
        except psycopg.IntegrityError as error:
            self._give_back(connection)  # autocommit: the statement alone was rolled back
            raise StoreConflict("a step of the batch is stored already") from error
        except (psycopg.Error, OSError) as error:
            await _close_quietly(connection)  # whatever state it is in, it is not used again
            raise self._unavailable(error) from error
        except BaseException:  # cancelled mid-statement: its state is unknown
            await _close_quietly(connection)
            raise
        self._give_back(connection)
        renewed: list[str] = answer[0][1] or []
        return frozenset(renewed)

    async def _take(self) -> AsyncConnection[Any]:
        """An idle open connection, or a new one."""
        import psycopg

        while self._idle:
            connection = self._idle.pop()
            if not connection.closed:
                return connection
        try:
            return await psycopg.AsyncConnection.connect(**self._connect_args, autocommit=True)
        except (psycopg.Error, OSError) as error:
            raise self._unavailable(error) from error

    def _give_back(self, connection: AsyncConnection[Any]) -> None:
        if self._closed or connection.closed:
            asyncio.get_running_loop().create_task(_close_quietly(connection))
        else:
            self._idle.append(connection)

    def _unavailable(self, error: BaseException) -> StoreUnavailable:
        reason = str(error).split("\n", 1)[0] or type(error).__name__
        return StoreUnavailable(f"the database {self.store.location} failed: {reason}")

    @property
    def connections(self) -> int:
        """Open connections kept for the next commits."""
        return len(self._idle)

    async def close(self) -> None:
        """Close every kept connection; a commit still running closes its own at the end."""
        self._closed = True
        idle, self._idle = self._idle, []
        for connection in idle:
            await _close_quietly(connection)


async def _close_quietly(connection: AsyncConnection[Any]) -> None:
    with contextlib.suppress(Exception):  # a broken connection: nothing more to do with it
        await connection.close()
