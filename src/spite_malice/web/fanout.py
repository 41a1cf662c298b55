"""Passing stored steps between server instances: PostgreSQL's LISTEN/NOTIFY.

Every step a server stores for a web room is announced by the store in the same transaction
(``store.NOTIFY_CHANNEL``, sent by PostgreSQL only when it commits; one announcement a
transaction, naming the storing instance and every room it stored steps of). Each instance
listens on one connection of its own and tells its lobby which rooms changed; the lobby
brings such a room's table up to date from the move log and sends the new steps to its
connections, and passes over a room it does not hold. So two seats of one room may be
connected to different instances. With SQLite (one process, the embedded
default) there is nobody to tell and :class:`LocalFanout` does nothing.

Why LISTEN/NOTIFY and not a separate broker: every instance already needs the database, the
announcement commits or rolls back with the step itself, and there is no other service to run,
secure and watch (docs/deploying.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..store import Store
from ..store.access import NOTIFY_CHANNEL, read_announcement
from ..store.location import connect_args

if TYPE_CHECKING:
    from psycopg.pq.abc import PGconn

log = logging.getLogger(__name__)

RECONNECT_SECONDS = 1.0
"""Wait before listening again after the listening connection was lost."""


class Fanout:
    """What the lobby needs of a fan-out: start listening, stop, and say whether it works."""

    engine = "none"
    """The name /api/health reports."""

    async def start(self, changed: Callable[[str], None], resync: Callable[[], None]) -> None:
        """Call ``changed(room)`` for every step another instance stores, and ``resync()``
        after a gap in listening (announcements may have been missed)."""

    async def close(self) -> None:
        """Stop listening."""

    @property
    def is_healthy(self) -> bool:
        return True


class LocalFanout(Fanout):
    """One process alone on its database (SQLite): nothing to pass on."""


class PostgresFanout(Fanout):
    """LISTEN on the store's channel over one connection of its own, reconnecting when lost."""

    engine = "postgresql"

    def __init__(self, store: Store) -> None:
        self.store = store
        self.origin = store.origin
        self.connect_args = connect_args(store.url)
        self._task: asyncio.Task[None] | None = None
        self._listening = False
        self._changed: Callable[[str], None] = lambda room: None
        """The lobby's ``changed`` (given to :meth:`start`)."""
        self.backend: int | None = None
        """The PostgreSQL process of the listening connection (to find it in
        ``pg_stat_activity``)."""

    @property
    def is_healthy(self) -> bool:
        return self._listening and self._task is not None and not self._task.done()

    async def start(self, changed: Callable[[str], None], resync: Callable[[], None]) -> None:
        ready = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._listen(changed, resync, ready))
        # The first connection is made before serving, so that no step is missed at the start
        # (a failure here is not fatal: the health check reports it and listening is retried).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ready.wait(), 10)

    async def _listen(
        self, changed: Callable[[str], None], resync: Callable[[], None], ready: asyncio.Event
    ) -> None:
        import psycopg

        first = True
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(
                    **self.connect_args, autocommit=True
                )
                async with connection:
                    # what the driver itself reads meanwhile (around the LISTEN) comes here
                    connection.add_notify_handler(lambda notice: self._heard(notice.payload))
                    self._changed = changed
                    self.backend = connection.info.backend_pid
                    await connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self._listening = True
                    ready.set()
                    if not first:
                        resync()  # steps stored while nobody listened
                    first = False
                    await self._read(connection.pgconn)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # any failure of the connection: listen again
                if self._listening or first:
                    log.warning("listening for other instances' moves failed: %s", error)
            self._listening = False
            ready.set()
            await asyncio.sleep(RECONNECT_SECONDS)

    async def _read(self, pgconn: PGconn) -> None:
        """Hear announcements on the listening connection until it fails (raising why): one
        reader callback on its socket for as long as it lives, taking in what arrived at each
        wake-up. (psycopg's ``notifies()`` set up and took down a reader, a future and a
        timer at every wake-up: most of the fan-out's CPU, and every instance wakes at
        every commit of every instance.)"""
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            try:
                pgconn.consume_input()  # raises once the connection is closed or broken
                while (notice := pgconn.notifies()) is not None:
                    self._heard(notice.extra.decode())
            except Exception as error:
                if not lost.done():
                    lost.set_exception(error)

        socket = pgconn.socket
        loop.add_reader(socket, readable)
        try:
            await lost
        finally:
            loop.remove_reader(socket)

    def _heard(self, payload: str) -> None:
        """One announcement: the rooms another instance stored steps of."""
        origin, rooms = read_announcement(payload)
        if origin != self.origin:  # not this instance's own steps
            for room in rooms:
                self._changed(room)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._listening = False


def fanout_for(store: Store) -> Fanout:
    """LISTEN/NOTIFY on PostgreSQL; nothing on SQLite."""
    return PostgresFanout(store) if store.announces else LocalFanout()
