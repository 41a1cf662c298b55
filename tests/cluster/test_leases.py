"""Exactly one instance plays a room's computer turn (issue 13, item 2): two lobbies, as two
server instances would have, on one PostgreSQL database, both holding the same room."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from spite_malice.engine.rules import Rules
from spite_malice.store import Store
from spite_malice.web.lobby import Lobby
from spite_malice.web.messages import ServerMessage
from spite_malice.web.protocol import MoveMessage
from spite_malice.web.rooms import Room

pytestmark = pytest.mark.postgres


class Listener:
    """A connection that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[ServerMessage] = []

    def push(self, message: ServerMessage) -> None:
        self.messages.append(message)


def _discard(room: Room) -> str:
    legal = [str(move) for move in room.game.legal_moves()]
    return next(move for move in legal if "-S" in move and move.startswith("H"))


async def _until(check: Any, seconds: float = 60.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def test_only_one_instance_plays_the_computer_turn(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    players: list[str] = []
    original = Room._computer_moves

    async def counted(self: Room) -> None:
        if self.table.computer_to_move:
            players.append(self.lobby.instance)
        await original(self)

    monkeypatch.setattr(Room, "_computer_moves", counted)
    stores = [Store.open(postgres_schema_url), Store.open(postgres_schema_url)]
    lobbies = [Lobby(store) for store in stores]
    try:
        for lobby in lobbies:
            lobby.start()
            await lobby.listen()
        room_a, _ = await lobbies[0].create(
            mode="computer",
            player="p",
            name="Ann",
            level="hard",
            rules=Rules.from_json({"payoff_size": 5}),
            seed=None,
        )
        room_b = await lobbies[1].get(room_a.code)
        assert room_b is not None
        listener = Listener()
        await room_b.connect(listener, 0)
        # a seat connected to each instance, so that both keep following the room
        await room_a.connect(Listener(), 0)
        # the computer may open the game: count only the turns that follow the person's
        await _until(lambda: not room_a.table.computer_to_move)
        players.clear()
        turns = 0
        for _ in range(200):
            if turns >= 3 or room_a.game.is_over:
                break
            await _until(lambda: not room_a.table.computer_to_move)
            if room_a.game.to_move != 0:
                continue
            # the person discards through instance A; both instances hold the room and both
            # are told the computer is to move (A by its own step, B through the fan-out)
            for _ in range(3):
                await room_a.handle(listener, 0, MoveMessage(type="move", move=_discard(room_a)))
                if room_a.game.to_move == 1 or room_a.game.is_over:
                    break
            if room_a.game.is_over:
                break
            turns += 1
            room_b.start_computer()
            await _until(
                lambda: (
                    (room_a.game.to_move == 0 and room_b.game.to_move == 0) or room_a.game.is_over
                )
            )
        assert turns >= 2
        # each computer turn was played by one instance: one entry per turn, no second one
        assert len(players) == turns, players
        assert room_a.game.to_position() == room_b.game.to_position()
    finally:
        for lobby in lobbies:
            await lobby.close()
        for store in stores:
            store.close()
