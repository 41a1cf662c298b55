"""The lobby: every room of the server, made, joined, and loaded from the store on first use,
and the store's worker thread, which writes the rooms' saves in group commits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..engine.match import Match
from ..engine.rules import Rules
from ..store import SavedMatch, Store
from . import computer
from .rooms import (
    COMPUTER_MODE,
    Room,
    RoomError,
    hash_token,
    new_match_id,
    new_token,
    unknown_level,
)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes: no 0/O, 1/I/L to misread."""
CODE_LENGTH = 6

IDLE_SECONDS = 600.0
"""A room nobody has used for this long is forgotten (kept in the store only)."""
SWEEP_SECONDS = 60.0

T = TypeVar("T")
log = logging.getLogger(__name__)


class Lobby:
    """Every room of the server: made, joined, and loaded from the store on first use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="spite-malice-store")
        self._pending: dict[str, tuple[SavedMatch, list[asyncio.Future[None]]]] = {}
        self._flusher: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Begin forgetting idle rooms in the background (call it on the running loop)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweeping())

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:
                log.exception("forgetting idle rooms failed")

    async def sweep(self, idle: float = IDLE_SECONDS) -> int:
        """Forget the rooms nobody used for ``idle`` seconds: no connection, no computer
        turn running. Everything of a room is in the store, so the next use loads it again.
        Returns how many were forgotten."""
        now = time.monotonic()
        forgotten = 0
        async with self._loading:
            for code, room in list(self.rooms.items()):
                task = room.computer_task
                if (
                    room.peers[0]
                    or room.peers[1]
                    or now - room.last_active < idle
                    or (task is not None and not task.done())
                    or room.lock.locked()
                    or room.unsaved
                ):
                    continue
                async with room.lock:  # free: taken at once
                    room.closed = True
                    del self.rooms[code]
                if room.bot is not None:
                    room.bot.close()
                forgotten += 1
        return forgotten

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Call the store on its own thread (one at a time, in order), off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, lambda: function(*args))

    async def save(self, saved: SavedMatch) -> None:
        """Store the match; return once it is committed.

        Saves asked for while the store's thread is busy are written together in one
        transaction (a group commit), so a busy server commits once for many moves. The
        room awaiting its save holds its lock, so its match does not change meanwhile.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        entry = self._pending.get(saved.id)
        if entry is None:
            self._pending[saved.id] = (saved, [future])
        else:
            entry[1].append(future)
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        await future

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            saved = [entry[0] for entry in batch.values()]
            try:
                await self.run(self.store.save_matches, saved)
                errors: list[BaseException | None] = [None] * len(saved)
            except Exception:
                # one bad match must not fail the others: save them one by one
                errors = []
                for one in saved:
                    try:
                        await self.run(self.store.save_match, one)
                        errors.append(None)
                    except Exception as error:
                        errors.append(error)
            for (_, futures), failure in zip(batch.values(), errors, strict=True):
                for future in futures:
                    if future.done():
                        continue
                    if failure is None:
                        future.set_result(None)
                    else:
                        future.set_exception(failure)

    async def get(self, code: str) -> Room | None:
        """The room with this code, loaded from the store if needed; None when unknown."""
        code = code.strip().upper()
        room = self.rooms.get(code)
        if room is not None:
            return room
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        async with self._loading:
            room = self.rooms.get(code)
            if room is None:
                saved = await self.run(self.store.load_room, code)
                if saved is None:
                    return None
                room = Room(self, saved)
                self.rooms[code] = room
        return room

    async def create(
        self,
        *,
        mode: str,
        player: str,
        level: str | None,
        rules: Rules,
        seed: int | None,
    ) -> tuple[Room, str]:
        """A new room with the creator in seat 0; returns it and seat 0's token."""
        if mode == COMPUTER_MODE:
            level = level or computer.default_level()
            if not computer.is_level(level):
                raise RoomError("invalid", unknown_level(level))
            names: list[str | None] = [player, computer.level_name(level)]
        else:
            level = None
            names = [player, None]
        token = new_token()
        async with self._loading:
            code = await self._free_code()
            match = Match(rules, seed, (player, names[1] or "Player 2"))
            match.next_game()
            saved = SavedMatch(
                id=new_match_id(),
                match=match,
                kind=mode,
                level=level,
                players=(player, None),
                source="web",
                meta={"names": names, "tokens": [hash_token(token), None], "assisted_games": []},
                room=code,
            )
            await self.save(saved)
            room = Room(self, saved)
            self.rooms[code] = room
        return room, token

    async def _free_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and not await self.run(self.store.has_room, code):
                return code

    async def close(self) -> None:
        """Stop the computer turns, finish the pending saves, stop the store's thread."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for room in self.rooms.values():
            task = room.computer_task
            if task is not None and not task.done():
                task.cancel()
        for room in self.rooms.values():
            task = room.computer_task
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            if room.bot is not None:
                room.bot.close()
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await self._flusher
        self._db.shutdown(wait=True)
