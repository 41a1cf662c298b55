"""A room's computer-turn lease is kept between turns (issue 13): a room played on one
instance asks the database for it once per lease, not at every turn, and gives it back when
the instance forgets the room or stops. On SQLite, which uses the same leases."""

from __future__ import annotations

from pathlib import Path

import pytest

from spite_malice.store import Store
from spite_malice.web import rooms as rooms_module
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
