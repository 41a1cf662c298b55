"""An instance forgets a room that another instance moves on while nobody uses it here
(issue 13): the instance that made a room is often not the one its seats connect to, and
following every step of such rooms would cost it two queries a step and a race for every
computer turn. Two lobbies, as two instances would have, on one PostgreSQL database."""

from __future__ import annotations

import asyncio
import time

import pytest

from spite_malice.web import lobby as lobby_module
from spite_malice.web.protocol import NewGameMessage, NewMatchMessage
from spite_malice.web.rooms import Room

from .lobbies import Listener, computer_room, person_discards, started_lobbies, until

pytestmark = pytest.mark.postgres

SEVERAL_TURNS = 1
"""The seed of a deal in which the person has at least three turns (discarding only)."""


def _still(room: Room) -> bool:
    """The person is to move (or the game is over), and no computer turn is running."""
    task = room.computer_task
    return not room.table.computer_to_move and (task is None or task.done())


async def test_a_room_moved_on_elsewhere_and_unused_here_is_forgotten_then_loaded_again(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_module, "FOLLOW_IDLE_SECONDS", 0.0)
    async with started_lobbies(postgres_schema_url, 2) as (maker, server):
        # a deal that goes on for several turns (with some deals the computer wins before
        # the person's second turn, and there would be nothing to follow)
        made = await computer_room(maker, seed=SEVERAL_TURNS)
        code = made.code
        room = await server.get(code)
        assert room is not None
        listener = Listener()
        await room.connect(listener, 0)
        await person_discards(room, listener)
        # the maker hears of the step, has nobody connected, and forgets the room
        await until(lambda: code not in maker.rooms)
        assert made.closed
        # the next use there (once the computer's reply is stored) loads it again, at the
        # step the other instance stored
        await until(lambda: _still(room))
        again = await maker.get(code)
        assert again is not None and again is not made
        assert again.game.to_position() == room.game.to_position()
        # a room somebody uses here is followed, not forgotten
        await again.connect(Listener(), 0)
        assert not room.game.is_over
        await person_discards(room, listener)
        await until(
            lambda: (
                again.game.to_position() == room.game.to_position()
                and not room.table.computer_to_move
            )
        )
        assert maker.rooms[code] is again and not again.closed


async def test_the_instance_that_made_a_room_leaves_its_computer_turns_to_the_seats_one(
    postgres_schema_url: str,
) -> None:
    async with started_lobbies(postgres_schema_url, 2) as (maker, server):
        for seed in range(100):  # a deal the computer opens
            made = await computer_room(maker, seed=seed)
            if made.table.computer_to_move:
                break
        assert made.table.computer_to_move
        made.start_computer()  # as the endpoint that made it asks: nobody is connected here
        assert made.computer_task is None
        room = await server.get(made.code)
        assert room is not None
        listener = Listener()
        await room.connect(listener, 0)  # the seat's instance plays the opening turn
        await until(lambda: not room.table.computer_to_move)
        assert made.computer_task is None


async def test_following_a_room_is_no_use_of_it_so_it_still_goes_idle_and_is_forgotten(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The instance that made a room follows its first steps (a caller may still hold it),
    but following is not a use: once the room has been unused there for the idle time, the
    next step forgets it, however fast the steps come (before, every follow counted as a use,
    so a room played without pauses was followed, two queries a step, for ever). The idle
    time is set by the test, not waited for: a slow machine neither forgets the room before
    its first follow nor keeps it."""
    monkeypatch.setattr(lobby_module, "FOLLOW_IDLE_SECONDS", 3600.0)
    async with started_lobbies(postgres_schema_url, 2) as (maker, server):
        made = await computer_room(maker, seed=SEVERAL_TURNS)
        code = made.code
        used = made.last_active
        room = await server.get(code)
        assert room is not None
        listener = Listener()
        await room.connect(listener, 0)

        async def one_turn() -> None:
            await until(lambda: _still(room))
            if room.game.is_over:
                over = room.table.match.is_over
                message = NewMatchMessage if over else NewGameMessage
                kind = "new_match" if over else "new_game"
                await room.handle(listener, 0, message(type=kind))  # type: ignore[arg-type]
                return
            await person_discards(room, listener)

        # turns played without a pause: the maker follows each step
        followed: list[asyncio.Task[None]] = []  # the maker's follow tasks, one a step
        deadline = time.monotonic() + 30.0
        while len(followed) < 2 and time.monotonic() < deadline:
            await one_turn()
            await until(lambda: made.follow_task is not None and made.follow_task.done())
            task = made.follow_task
            assert task is not None
            if task not in followed:
                followed.append(task)
        assert len(followed) == 2  # the maker did follow the room's first steps
        assert code in maker.rooms and not made.closed
        assert made.last_active == used  # ... and following did not count as a use
        # the idle time has now passed since the last use (following did not renew it):
        # the next step forgets the room
        monkeypatch.setattr(lobby_module, "FOLLOW_IDLE_SECONDS", time.monotonic() - used)
        while code in maker.rooms and time.monotonic() < deadline:
            await one_turn()
        assert code not in maker.rooms and made.closed
