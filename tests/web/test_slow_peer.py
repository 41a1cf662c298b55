"""A connection that does not read is closed, never waited for (issue 11, item 5): its
bounded queue fills and the connection is closed with code 4408, while pushing stays
immediate for the room."""

from __future__ import annotations

import asyncio

from spite_malice.web import messages
from spite_malice.web.sockets import CLOSE_TOO_SLOW, SocketPeer


class StuckSocket:
    """A WebSocket whose reader never reads: every send waits forever."""

    def __init__(self) -> None:
        self.sent = 0
        self.closed_with: int | None = None
        self.forever = asyncio.Event()

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await self.forever.wait()

    async def close(self, code: int = 1000) -> None:
        self.closed_with = code


def test_a_full_queue_closes_the_connection_with_4408() -> None:
    async def scenario() -> tuple[StuckSocket, list[object], bool]:
        socket = StuckSocket()
        dropped: list[object] = []
        peer = SocketPeer(socket, dropped.append, limit=8)  # type: ignore[arg-type]
        for number in range(20):  # never waits, however many
            peer.push(messages.Pong(reply_to=number))
        await asyncio.sleep(0.05)  # let the close run
        closed = peer.closed
        await peer.finish()
        return socket, dropped, closed

    socket, dropped, closed = asyncio.run(scenario())
    assert closed and socket.closed_with == CLOSE_TOO_SLOW == 4408
    assert len(dropped) == 1  # the room was told to forget it
    assert socket.sent <= 1  # at most the first message was ever being written


def test_a_reading_connection_gets_every_message_in_order() -> None:
    class Reader:
        def __init__(self) -> None:
            self.texts: list[str] = []

        async def send_text(self, text: str) -> None:
            self.texts.append(text)

        async def close(self, code: int = 1000) -> None:
            raise AssertionError("a reading connection is not closed")

    async def scenario() -> list[str]:
        reader = Reader()
        peer = SocketPeer(reader, limit=8)  # type: ignore[arg-type]
        for number in range(100):
            peer.push(messages.Pong(reply_to=number))
            await asyncio.sleep(0)
        await peer.finish()
        return reader.texts

    texts = asyncio.run(scenario())
    assert texts == [messages.to_text(messages.Pong(reply_to=n)) for n in range(100)]
