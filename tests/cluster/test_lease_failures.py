"""A computer turn whose lease cannot be taken because the database failed is retried, and
the failure is logged (issue 13, item 2): a database that keeps failing is seen in the log
instead of leaving a room silently waiting."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from spite_malice.store import Store, StoreUnavailable
from spite_malice.web.protocol import MoveMessage

from .lobbies import Listener, computer_room, discard, started_lobbies, until

pytestmark = pytest.mark.postgres


async def test_a_lease_the_database_refuses_is_logged_and_taken_on_the_next_try(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    original = Store.take_lease
    failures = [0]

    def failing_once(self: Store, *args: Any) -> tuple[bool, tuple[int, int]]:
        if failures[0] == 0:
            failures[0] += 1
            raise StoreUnavailable("the database is restarting")
        return original(self, *args)

    monkeypatch.setattr(Store, "take_lease", failing_once)
    async with started_lobbies(postgres_schema_url, 1) as (lobby,):
        room = await computer_room(lobby)
        listener = Listener()
        with caplog.at_level(logging.WARNING, logger="spite_malice.web.rooms"):
            await room.connect(listener, 0)
            # the computer may open the game; otherwise the person's discard hands it the turn
            await until(lambda: not room.table.computer_to_move)
            for _ in range(20):
                if room.game.to_move != 0 or room.game.is_over or failures[0]:
                    break
                await room.handle(listener, 0, MoveMessage(type="move", move=discard(room)))
            await until(lambda: failures[0] == 1 and not room.table.computer_to_move)
        assert room.game.to_move == 0 or room.game.is_over  # the computer's turn was played
        assert any(
            "could not take the computer's lease" in record.getMessage()
            and "restarting" in record.getMessage()
            for record in caplog.records
        ), [record.getMessage() for record in caplog.records]
