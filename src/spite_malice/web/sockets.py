"""The game WebSocket, ``/ws/<room>?token=<token>`` (``web-protocol.md`` section 4).

Each connection sends from its own bounded queue, drained by its own task: a room only
queues messages, never waits on a socket. A connection whose queue is full (its reader does
not keep up) is closed with :data:`CLOSE_TOO_SLOW`; the page reconnects and gets the state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from . import messages
from .lobby import Lobby
from .protocol import ProtocolError, parse_client_message
from .rooms import Room, RoomClosed, RoomError

log = logging.getLogger(__name__)
router = APIRouter()

CLOSE_BAD_TOKEN = 4403
CLOSE_UNKNOWN_ROOM = 4404
CLOSE_TOO_SLOW = 4408
"""Close code for a connection that did not read its messages fast enough."""
QUEUE_LIMIT = 256
"""Messages a connection may have waiting to be sent before it is closed as too slow."""
CLOSE_WAIT = 5.0
"""Seconds given to the closing handshake of a connection closed as too slow."""


class SocketPeer:
    """A seat's connection: one WebSocket, its outgoing queue and the task sending it."""

    def __init__(
        self,
        websocket: WebSocket,
        on_overflow: Callable[[SocketPeer], None] | None = None,
        limit: int = QUEUE_LIMIT,
    ) -> None:
        self.websocket = websocket
        self.queue: asyncio.Queue[messages.ServerMessage] = asyncio.Queue(maxsize=limit)
        self.closed = False
        self.on_overflow = on_overflow
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self._closer: asyncio.Task[None] | None = None

    def push(self, message: messages.ServerMessage) -> None:
        """Queue a message; close the connection when its queue is full. Never waits."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.info("closing a connection that does not read its messages")
            self.closed = True
            if self.on_overflow is not None:
                self.on_overflow(self)
            self._writer.cancel()
            self._closer = asyncio.get_running_loop().create_task(self._close(CLOSE_TOO_SLOW))

    async def _write(self) -> None:
        while True:
            message = await self.queue.get()
            try:
                await self.websocket.send_text(messages.to_text(message))
            except (WebSocketDisconnect, RuntimeError, OSError):  # closed meanwhile
                self.closed = True
                return

    async def _close(self, code: int) -> None:
        with contextlib.suppress(TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
            await asyncio.wait_for(self.websocket.close(code), CLOSE_WAIT)

    async def finish(self) -> None:
        """Send what is queued (briefly), then stop the sending task."""
        if not self.closed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._drain(), CLOSE_WAIT)
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer

    async def _drain(self) -> None:
        while not self.queue.empty() and not self.closed and not self._writer.done():
            await asyncio.sleep(0.01)


@router.websocket("/ws/{code}")
async def game_socket(websocket: WebSocket, code: str, token: str = "") -> None:
    await websocket.accept()
    lobby: Lobby = websocket.app.state.lobby
    room: Room | None = None
    peer = SocketPeer(websocket, lambda dropped: room.drop(dropped) if room else None)
    try:
        while True:
            room = await lobby.get(code)
            if room is None:
                peer.push(messages.error("unknown_room", f"There is no room {code!r}."))
                await peer.finish()
                await websocket.close(CLOSE_UNKNOWN_ROOM)
                return
            seat = room.seat_for(token)
            if seat is None and not room.is_full():
                await room.refresh_seats()  # a friend who joined through another process
                seat = room.seat_for(token)
            if seat is None:
                peer.push(messages.error("bad_token", "This token is not a seat of this room."))
                await peer.finish()
                await websocket.close(CLOSE_BAD_TOKEN)
                return
            try:
                await room.connect(peer, seat)
                break
            except RoomClosed:
                continue  # forgotten while idle: load it again
        try:
            await _serve(websocket, peer, room, seat)
        finally:
            await room.disconnect(peer, seat)
    finally:
        await peer.finish()


async def _serve(websocket: WebSocket, peer: SocketPeer, room: Room, seat: int) -> None:
    while not peer.closed:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        text = frame.get("text")
        if text is None:
            text = (frame.get("bytes") or b"").decode("utf-8", errors="replace")
        try:
            message = parse_client_message(text)
        except ProtocolError as error:
            peer.push(messages.error(error.code, error.message, error.reply_to))
            continue
        try:
            await room.handle(peer, seat, message)
        except RoomError as error:
            peer.push(messages.error(error.code, error.message, message.id))
        except RoomClosed:
            peer.push(messages.error("room_closed", "The room was closed; connect again."))
            return
