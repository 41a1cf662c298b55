"""A room's computer-turn lease is kept between turns (issue 13): a room played on one
instance asks the database for it once per lease, not at every turn, and gives it back when
the instance forgets the room or stops. On SQLite, which uses the same leases."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from spite_malice.store import Store
from spite_malice.web import computer_player as rooms_module
from spite_malice.web.lobby import Lobby

from .lobbies import Listener, computer_room, person_discards, until


async def test_the_lease_is_kept_between_turns_and_given_back_when_forgotten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rooms_module, "LEASE_SECONDS", 600.0)
    store = Store.open(str(tmp_path / "lease.db"))
    asked: list[str] = []
    take = store.take_lease

    def counted(room: str, owner: str, seconds: float, match_id: str) -> object:
        asked.append(room)
        return take(room, owner, seconds, match_id)

    monkeypatch.setattr(store, "take_lease", counted)
    lobby = Lobby(store)
    try:
        # 20 pay-off cards: with 5 the computer sometimes won before the person's second
        # turn, and fewer than two turns were played
        room = await computer_room(lobby, payoff_size=20)
        listener = Listener()
        await room.connect(listener, 0)
        turns = 0
        while turns < 4 and not room.game.is_over:
            await person_discards(room, listener)
            await until(lambda: not room.table.computer_to_move)
            turns += 1
        assert turns >= 2
        # every computer turn was played, and the lease was asked for once
        assert len(asked) == 1, asked
        assert store.lease_owner(room.code) == lobby.instance
        # forgotten, the room gives its lease back
        await until(lambda: room.computer_task is None or room.computer_task.done())
        await room.disconnect(listener, 0)
        assert await lobby.sweep(0.0) == 1
        await until(lambda: store.lease_owner(room.code) is None)
    finally:
        await lobby.close()
        store.close()


class Clock:
    """The rooms' monotonic clock, moved on by hand (the database's clock is the real one,
    and the leases long enough in it that they never run out in the test)."""

    def __init__(self) -> None:
        self.now = time.monotonic()

    def monotonic(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)  # the rest of the time module, as it is


async def test_a_room_in_play_renews_its_lease_in_its_own_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Played on past the point where its first lease would need taking again, the room
    asks for its lease once: a write made with less than LEASE_RENEW_IN_WRITES_SECONDS left
    renews it in the same commit (without that, the discard with less than the margin left
    takes it again in a call of its own)."""
    monkeypatch.setattr(rooms_module, "LEASE_SECONDS", 600.0)
    monkeypatch.setattr(rooms_module, "LEASE_MARGIN_SECONDS", 300.0)
    monkeypatch.setattr(rooms_module, "LEASE_RENEW_IN_WRITES_SECONDS", 500.0)
    clock = Clock()
    monkeypatch.setattr(rooms_module, "time", clock)
    store = Store.open(str(tmp_path / "renew.db"))
    asked: list[float] = []
    take = store.take_lease

    def counted(room: str, owner: str, seconds: float, match_id: str) -> object:
        asked.append(clock.now)
        return take(room, owner, seconds, match_id)

    monkeypatch.setattr(store, "take_lease", counted)
    lobby = Lobby(store)
    try:
        # a deal whose first three turns of the person's discards end no game
        room = await computer_room(lobby, seed=1, payoff_size=10)
        listener = Listener()
        await room.connect(listener, 0)
        started = clock.now
        for turn in range(3):  # at 0 s, 200 s and 400 s on the rooms' clock
            clock.now = started + 200.0 * turn
            assert not room.game.is_over
            await person_discards(room, listener)
            await until(lambda: not room.table.computer_to_move)
        # taken at the first turn; at 200 s (400 s left) the turn's write renewed it to
        # 800 s, so at 400 s it had 400 s left, more than the margin: not taken again
        assert asked == [started]
        assert room.lease_until == started + 400.0 + 600.0
        assert store.lease_owner(room.code) == lobby.instance
    finally:
        await lobby.close()
        store.close()
