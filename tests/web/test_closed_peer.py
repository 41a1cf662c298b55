"""A frame written to a connection that has already closed ends the connection's sending
quietly: the sending task keeps no exception that nobody retrieves (asyncio's "Task
exception was never retrieved", seen at the end of a test run with Starlette's test client,
whose closed socket raises anyio's ClosedResourceError)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import anyio
import pytest

from spite_malice.web import messages
from spite_malice.web.sockets import SocketPeer


class ClosedSocket:
    """A WebSocket whose other end has gone: every send fails as the test client's does."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.tried = 0

    async def send_text(self, text: str) -> None:
        self.tried += 1
        raise self.error

    async def close(self, code: int = 1000) -> None:
        return None


CLOSED_ERRORS = [anyio.ClosedResourceError(), RuntimeError("closed"), OSError("reset")]


@pytest.mark.parametrize("error", CLOSED_ERRORS, ids=lambda error: type(error).__name__)
def test_a_write_to_a_closed_socket_closes_the_peer_and_finish_returns(error: Exception) -> None:
    async def scenario() -> tuple[ClosedSocket, bool]:
        socket = ClosedSocket(error)
        peer = SocketPeer(socket)  # type: ignore[arg-type]
        peer.push(messages.Pong(reply_to=1))
        for _ in range(100):  # until the sending task has tried the write
            if socket.tried:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0)
        peer.push(messages.Pong(reply_to=2))  # skipped: the peer is closed
        await peer.finish()  # no exception: the write's failure was the socket closing
        return socket, peer.closed

    socket, closed = asyncio.run(scenario())
    assert closed
    assert socket.tried == 1


def test_a_closed_peer_left_alone_leaves_no_unretrieved_task_exception() -> None:
    """The peer is dropped without ``finish()`` (as when the event loop ends first): when
    its task is collected, asyncio reports nothing."""
    reported: list[str] = []

    def record(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        reported.append(str(context.get("message")))

    async def scenario() -> None:
        asyncio.get_running_loop().set_exception_handler(record)
        socket = ClosedSocket(anyio.ClosedResourceError())
        peer = SocketPeer(socket)  # type: ignore[arg-type]
        peer.push(messages.Pong(reply_to=1))
        for _ in range(100):
            if socket.tried:
                break
            await asyncio.sleep(0.01)
        for _ in range(3):  # the task's last step runs
            await asyncio.sleep(0)
        assert peer._writer.done()
        del peer
        gc.collect()

    asyncio.run(scenario())
    gc.collect()
    assert not [text for text in reported if "never retrieved" in text], reported
