"""The lobby: every room of the server, made, joined, and loaded from the store on first use.

Store calls run on a pool of worker threads, each on a pooled connection of its own, so a
slow or locked write holds up only the room waiting for it: settings, statistics and other
rooms go on (there is no single database thread). The one exception is the group commit of
the rooms' moves on PostgreSQL, the hottest call, which runs on the event loop over
connections of its own (:class:`~spite_malice.store.AsyncWriter`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..engine.rules import Rules
from ..store import (
    MatchHeader,
    Store,
    StoredMatch,
    StoreError,
    StoreUnavailable,
)
from ..store.group_commit import GroupCommit
from ..store.pairing import POOL_SIGNAL
from ..table import Seat, Step, Table, default_level, is_level, level_label
from .daily_summary import DailySummary
from .fair_play import FairPlay
from .fanout import Fanout, fanout_for
from .match_log import MatchLog
from .notifications import Notifier
from .quick_match import QuickMatch
from .room_common import CODE_ALPHABET, CODE_LENGTH
from .rooms import (
    COMPUTER_MODE,
    FRIEND_MODE,
    Room,
    RoomError,
    hash_token,
    new_match_id,
    new_token,
    store_unavailable,
    unknown_level,
)
from .turn_based import TurnClock

IDLE_SECONDS = 600.0
"""A room nobody has used for this long is forgotten (kept in the store only)."""
SWEEP_SECONDS = 60.0
FOLLOW_IDLE_SECONDS = 2.0
"""A room that another instance moves on, with nobody here for this long, is forgotten here
rather than followed (a caller that just got it from the lobby keeps a working object)."""
STORE_THREADS = 32
"""Worker threads for store calls: one slow call takes one of them, not the server."""
PRESENCE_SECONDS = 30.0
"""How often this instance renews its word that it holds connections of friend rooms' seats,
and reads the other instances' (so a friend connected elsewhere shows as online, and a claim
counts the time since the friend was last connected anywhere)."""
HEALTH_SECONDS = 3.0
"""How long the health check waits for the database before calling it down."""

T = TypeVar("T")
log = logging.getLogger(__name__)


class Lobby:
    """Every room of the server: made, joined, and loaded from the store on first use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        self._loads: dict[str, asyncio.Future[Room | None]] = {}
        """Rooms being loaded from the store: a second caller of the same code waits for
        the first's load (one Room object a code); other codes load meanwhile."""
        self._reserved: set[str] = set()
        """Codes of rooms being made here (chosen, not yet stored)."""
        self._threads = ThreadPoolExecutor(
            max_workers=STORE_THREADS, thread_name_prefix="spite-malice-store"
        )
        self._sweeper: asyncio.Task[None] | None = None
        self._presence: asyncio.Task[None] | None = None
        self._releasing: set[asyncio.Task[None]] = set()
        """Leases of forgotten rooms being given back."""
        self.fanout: Fanout = fanout_for(store)
        """How steps stored by other instances on this database reach this one."""
        self.instance = store.origin
        """This server instance's name in computer-turn leases."""
        self.commits = GroupCommit(store, self.run, self.instance)
        """The group commit of the rooms' steps (``store/group_commit.py``)."""
        self.log = MatchLog(store, self.run, self.commits)
        """What the rooms ask of the store: their one way to it (``web/match_log.py``)."""
        self.fair_play = FairPlay(self)
        """Bans from play between strangers (``web/fair_play.py``)."""
        self.quick = QuickMatch(self)
        """The quick-match pools and their waves (``web/quick_match.py``)."""
        self.notifier = Notifier(self)
        """Notifications of players away from their games (``web/notifications.py``)."""
        self.turns = TurnClock(self)
        """The clocks of turn-based games (``web/turn_based.py``)."""
        self.mail = DailySummary(self)
        """The daily e-mail, when an SMTP server is configured (``web/daily_mail.py``)."""

    async def listen(self) -> None:
        """Start passing on the steps other instances store (PostgreSQL's LISTEN/NOTIFY)."""
        await self.fanout.start(self.room_changed, self.resync)

    def room_changed(self, code: str) -> None:
        """Another instance stored a step of room ``code``: bring it up to date if loaded and
        in use here; forget it when nobody here uses it (the instance that made a room is
        often not the one its seats connect to): following it would cost two queries per
        step and a race for every computer turn, and the next use loads it again."""
        if code == POOL_SIGNAL:  # a wave's rooms are ready: tell the waiting players here
            self.quick.heard()
            return
        room = self.rooms.get(code)
        if room is None:
            return
        if self._unused(room, time.monotonic(), FOLLOW_IDLE_SECONDS):
            self._forget(code, room)
        else:
            room.follow()

    def resync(self) -> None:
        """Bring every loaded room up to date (after a gap in listening)."""
        for room in list(self.rooms.values()):
            room.follow()

    async def health(self) -> dict[str, bool | str]:
        """What ``/api/health`` reports: the database answers, the fan-out listens, and which
        instance answered (its name in computer-turn leases)."""
        try:
            await asyncio.wait_for(self.run(self.store.ping), HEALTH_SECONDS)
            database = True
        except (StoreUnavailable, TimeoutError):
            database = False
        fanout = self.fanout.is_healthy
        return {
            "ok": database and fanout,
            "database": database,
            "pubsub": fanout,
            "pubsub_engine": self.fanout.engine,
            "instance": self.instance,
        }

    def start(self) -> None:
        """Begin forgetting idle rooms in the background (call it on the running loop)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweeping())
        if self._presence is None:
            self._presence = asyncio.get_running_loop().create_task(self._renewing_presence())
        self.quick.start()
        self.notifier.start()
        self.turns.start()
        self.mail.start()

    async def _renewing_presence(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_SECONDS)
            try:
                await self.renew_presence()
            except StoreError as error:
                log.warning("the seats' presence could not be renewed: %s", error)

    async def renew_presence(self) -> None:
        """Renew this instance's presence rows of the friend rooms' connected seats, read
        every instance's rows of the loaded friend rooms, and tell the seats of a room whose
        presence changed (a friend connected to, or gone from, another instance)."""
        rooms = [room for room in self.rooms.values() if room.mode != COMPUTER_MODE]
        marks = [(room.code, seat, True) for room in rooms for seat in (0, 1) if room.peers[seat]]
        await self.run(self.store.mark_presence, marks)
        found = await self.run(self.store.presence, [room.code for room in rooms])
        for room in rooms:
            before = room.connected()
            room.learn_presence(found.get(room.code, []))
            if room.connected() != before:
                room.announce_presence()

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            await self.sweep()

    async def sweep(self, idle: float = IDLE_SECONDS) -> int:
        """Forget the rooms nobody used for ``idle`` seconds: no connection, no computer
        turn running. Everything of a room is in the store, so the next use loads it again.
        Returns how many were forgotten."""
        now = time.monotonic()
        forgotten = 0
        for code, room in list(self.rooms.items()):  # no await: nothing changes meanwhile
            if self._unused(room, now, idle):
                self._forget(code, room)
                forgotten += 1
        return forgotten

    @staticmethod
    def _unused(room: Room, now: float, idle: float) -> bool:
        """No connection here, no computer turn running, not busy, and unused for ``idle``
        seconds."""
        task = room.computer_task
        return not (
            room.peers[0]
            or room.peers[1]
            or now - room.last_active < idle
            or (task is not None and not task.done())
            or (room.follow_task is not None and not room.follow_task.done())
            or room.lock.locked()
        )

    def _forget(self, code: str, room: Room) -> None:
        """Drop an unused room (its lock is free: nothing awaits between the check and
        this); the object refuses work from now on, so a caller holding it goes back to
        the lobby, which loads the room again from the store."""
        room.closed = True
        del self.rooms[code]
        room.close()
        if room.lease_until > time.monotonic():
            task = asyncio.get_running_loop().create_task(room.release_lease())
            self._releasing.add(task)
            task.add_done_callback(self._releasing.discard)

    async def append(self, header: MatchHeader, step: Step, renew: float | None = None) -> bool:
        """Store one step of a room through the group commit (:meth:`GroupCommit.append`)."""
        return await self.commits.append(header, step, renew)

    async def append_steps(
        self, header: MatchHeader, steps: tuple[Step, ...], renew: float | None = None
    ) -> bool:
        """Store steps of one room as one entry (:meth:`GroupCommit.append_steps`)."""
        return await self.commits.append_steps(header, steps, renew)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Call the store on a worker thread of its own, off the event loop."""
        loop = asyncio.get_running_loop()
        # in a copy of this task's context, so texts made there speak the caller's language
        context = contextvars.copy_context()
        return await loop.run_in_executor(self._threads, lambda: context.run(function, *args))

    async def get(self, code: str) -> Room | None:
        """The room with this code, loaded from the store if needed; None when unknown."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        while (loading := self._loads.get(code)) is not None:
            try:  # another caller is loading this room: share its load
                return await asyncio.shield(loading)
            except asyncio.CancelledError:
                if not loading.cancelled():
                    raise  # this caller was cancelled
                # the loading caller was cancelled: load it here
            room = self.rooms.get(code)
            if room is not None:
                return room
        loading = self._loads[code] = asyncio.get_running_loop().create_future()
        try:
            stored = await self.run(self.store.load_room, code)
            room = None if stored is None else Room(self, stored)
            if room is not None:
                if room.mode == FRIEND_MODE:
                    await self.turns.game(code)  # a game over days shows its clock (turn_game)
                self.rooms[code] = room
        except BaseException as error:
            if isinstance(error, Exception):
                loading.set_exception(error)
                loading.exception()  # retrieved: a load nobody else waited for is no warning
            else:
                loading.cancel()
            raise
        else:
            loading.set_result(room)
        finally:
            del self._loads[code]
        return room

    async def create(
        self,
        *,
        mode: str,
        player: str,
        name: str,
        level: str | None,
        rules: Rules,
        seed: int | None,
        daily: str | None = None,
    ) -> tuple[Room, str]:
        """A new room with the creator in seat 0; returns it and seat 0's token (``daily``:
        the day of the daily deal it plays, see ``spite_malice.daily``)."""
        seats: tuple[Seat, Seat]
        if mode == COMPUTER_MODE:
            level = level or default_level()
            if not is_level(level):
                raise RoomError("invalid", unknown_level(level))
            seats = (Seat("person", name, player), Seat("computer", level_label(level)))
        else:
            level = None
            seats = (Seat("person", name, player), Seat("friend"))
        token = new_token()
        table = Table.new(
            rules,
            seats,
            level=level,
            seed=seed,
            tokens=(hash_token(token), None),
            practice=seed is not None,  # the player chose the deal: not in the statistics
            daily=daily,
        )
        deal = table.check_deal()
        # no lobby-wide lock: many rooms are made at once, each waiting only for its own
        # database calls (its code is reserved meanwhile)
        code = await self._free_code()
        try:
            header = MatchHeader(
                id=new_match_id(), rules=rules, meta=table.meta, seed=seed, room=code
            )
            try:
                header = await self.run(self.store.create_match, header, deal)
            except StoreUnavailable:
                raise store_unavailable() from None
            finally:
                table.close()
            room = Room(self, StoredMatch(header, [deal]))
            self.rooms[code] = room
        finally:
            self._reserved.discard(code)
        return room, token

    async def _free_code(self) -> str:
        """A new room code, unused here and in the store, reserved in :attr:`_reserved` (the
        caller gives it back once the room is stored or not made)."""
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code in self.rooms or code in self._reserved or code in self._loads:
                continue
            self._reserved.add(code)  # no await since the check: no other caller has it
            try:
                taken = await self.run(self.store.has_room, code)
            except BaseException:
                self._reserved.discard(code)
                raise
            if not taken:
                return code
            self._reserved.discard(code)

    async def close(self) -> None:
        """Stop listening, the computer turns and the store's threads."""
        await self.fanout.close()
        await self.quick.close()
        for task in (self._sweeper, self._presence):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        # The computer's turns and the follows of the log (another instance's steps) stop
        # before the store's threads do: a follow left running would ask a closed pool.
        for room in self.rooms.values():
            for task in (room.computer_task, room.follow_task):
                if task is not None and not task.done():
                    task.cancel()
        for room in self.rooms.values():
            for task in (room.computer_task, room.follow_task):
                if task is not None:
                    try:
                        await task
                    except asyncio.CancelledError:
                        pass
                    except Exception:  # told, and the close goes on
                        log.exception("room %s: a task failed while the server stopped", room.code)
            await room.release_lease()  # another instance may take the room over at once
            if room.writes:  # presence being written
                await asyncio.gather(*room.writes, return_exceptions=True)
            room.close()
        if self._releasing:
            await asyncio.gather(*self._releasing, return_exceptions=True)
        await self.mail.close()
        await self.turns.close()
        await self.notifier.close()
        await self.commits.close()
        self._threads.shutdown(wait=True)
