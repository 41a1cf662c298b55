"""What the tests of several lobbies on one database share (issue 13): lobbies started as
server instances start them, a room against the computer, a connection that keeps what it is
sent, and the person's side of a turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from spite_malice.engine.rules import Rules
from spite_malice.store import Store
from spite_malice.web.lobby import Lobby
from spite_malice.web.messages import ServerMessage
from spite_malice.web.protocol import MoveMessage
from spite_malice.web.rooms import Room
from waiting import until


class Listener:
    """A connection that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[ServerMessage] = []

    def push(self, message: ServerMessage) -> None:
        self.messages.append(message)


@asynccontextmanager
async def started_lobbies(url: str, count: int) -> AsyncIterator[list[Lobby]]:
    """``count`` lobbies, each on a store of its own on ``url`` (as that many instances),
    started and listening; closed, with their stores, at the end."""
    stores = [Store.open(url) for _ in range(count)]
    lobbies = [Lobby(store) for store in stores]
    try:
        for lobby in lobbies:
            lobby.start()
            await lobby.listen()
        yield lobbies
    finally:
        for lobby in lobbies:
            await lobby.close()
        for store in stores:
            store.close()


async def computer_room(
    lobby: Lobby, level: str = "easy", seed: int | None = None, payoff_size: int = 5
) -> Room:
    """A new room of ``lobby`` where Ann plays the computer at ``level``, in quick games (a
    pay-off pile of ``payoff_size`` cards: with 5, on some deals the computer wins within its
    first turns, so a test that needs several turns of a secret deal asks for 20)."""
    room, _ = await lobby.create(
        mode="computer",
        player="p",
        name="Ann",
        level=level,
        rules=Rules.from_json({"payoff_size": payoff_size}),
        seed=seed,
    )
    return room


def discard(room: Room) -> str:
    """A discard from the hand that is legal now."""
    legal = [str(move) for move in room.game.legal_moves()]
    return next(move for move in legal if "-S" in move and move.startswith("H"))


async def person_discards(room: Room, listener: Listener) -> None:
    """Wait for the person's turn (the computer may be playing), then play until a discard
    ends it; nothing if the game is over (the computer may win before the person's turn)."""
    await until(
        lambda: room.game.is_over or (room.game.to_move == 0 and not room.table.computer_to_move)
    )
    if room.game.is_over:
        return
    for _ in range(20):
        await room.handle(listener, 0, MoveMessage(type="move", move=discard(room)))
        if room.game.to_move != 0 or room.game.is_over:
            return
