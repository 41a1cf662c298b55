"""Rooms are made and loaded without a lobby-wide lock (issue 13): many rooms made at once
each wait only for their own database calls (600 load clients' creations had queued behind
one another for over 30 s), and callers loading the same room at once share one load and
get one room object."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from spite_malice.engine.rules import Rules
from spite_malice.store import Store
from spite_malice.web.lobby import Lobby

QUICK = Rules.from_json({"payoff_size": 5})


async def _make(lobby: Lobby, name: str) -> str:
    room, _ = await lobby.create(
        mode="computer", player=name, name=name, level="easy", rules=QUICK, seed=None
    )
    return room.code


async def test_two_rooms_are_made_at_once(tmp_path: Path) -> None:
    store = Store.open(str(tmp_path / "made.db"))
    lobby = Lobby(store)
    started = threading.Event()
    calls: list[bool] = []
    original = store.create_match

    def create_match(*args: Any) -> Any:
        if not calls:
            calls.append(True)
            # the first creation waits (on its store thread) until the second one has begun
            calls.append(started.wait(20))
        else:
            started.set()
        return original(*args)

    store.create_match = create_match  # type: ignore[method-assign]
    try:
        codes = await asyncio.gather(_make(lobby, "ann"), _make(lobby, "bob"))
        assert calls == [True, True]  # the second began while the first was not stored yet
        assert len(set(codes)) == 2 and all(code in lobby.rooms for code in codes)
    finally:
        await lobby.close()
        store.close()


async def test_callers_loading_one_room_at_once_share_one_load(tmp_path: Path) -> None:
    path = str(tmp_path / "loads.db")
    maker_store, store = Store.open(path), Store.open(path)
    maker, lobby = Lobby(maker_store), Lobby(store)
    loads: list[str] = []
    original = store.load_room

    def load_room(code: str) -> Any:
        loads.append(code)
        return original(code)

    store.load_room = load_room  # type: ignore[method-assign]
    try:
        code = await _make(maker, "ann")
        other = await _make(maker, "bob")
        rooms = await asyncio.gather(*(lobby.get(code) for _ in range(8)), lobby.get(other))
        assert all(room is rooms[0] for room in rooms[:8]) and rooms[0] is not None
        assert rooms[8] is not None and rooms[8].code == other
        assert sorted(loads) == sorted([code, other])  # one load a room
        assert await lobby.get("ZZZZZZ") is None  # an unknown room is still unknown
        assert lobby.rooms[code] is rooms[0]
    finally:
        for each in (maker, lobby):
            await each.close()
        for each_store in (maker_store, store):
            each_store.close()
