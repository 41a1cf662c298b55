"""The game WebSocket, ``/ws/<room>`` (``web-protocol.md`` section 4): its first message is
``hello`` with the seat's token, so the credential is never in a URL (nor in a log).

Each connection sends from its own bounded queue, drained by its own task: a room only
queues messages, never waits on a socket. A client whose ``hello`` said ``"batch": true``
gets the messages waiting together in one ``batch`` frame (fewer frames to send and read).
A connection whose queue is full (its reader does not keep up) is closed with
:data:`CLOSE_TOO_SLOW`; the page reconnects and gets the state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..engine.errors import quote
from ..i18n import N_, _, negotiate, normalise, use_language
from ..store import StoreError, StoreUnavailable
from . import limits, messages
from .errors import DAMAGED, UNAVAILABLE
from .lobby import Lobby
from .protocol import (
    HelloMessage,
    NewMatchMessage,
    ProtocolError,
    RematchMessage,
    parse_client_message,
    parse_hello,
)
from .rooms import Room, RoomClosed, RoomError

log = logging.getLogger(__name__)
router = APIRouter()

CLOSE_UNKNOWN_ROOM = 4404
"""Close code for an unknown room or a wrong token (the same: no oracle), or no ``hello``."""
CLOSE_TOO_MANY = 4429
"""Close code for a client that tried too many wrong codes or tokens, or that has too many
game sockets open (``limits``)."""
CLOSE_DAMAGED = 4500
"""Close code for a room whose saved game cannot be read (or a store that cannot be used)."""
UNKNOWN_ROOM = N_("There is no room with this code and token.")
FRAME_TOO_LARGE = N_("The message is over the limit of {size} KB.")
"""Said with ``size`` :data:`limits.MAX_FRAME` in KB (:func:`too_large`)."""
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
        language: str = "en",
    ) -> None:
        self.websocket = websocket
        self.language = language
        """The language of this connection's player texts (:func:`connection_language`):
        rooms make every message for it under ``use_language(peer.language)``."""
        self.queue: asyncio.Queue[messages.ServerMessage] = asyncio.Queue(maxsize=limit)
        self.batches = False
        """Whether the client reads ``batch`` frames (its ``hello`` said so): then every
        message waiting in the queue when the writer sends goes out in one frame."""
        self.deltas = False
        """Whether the client applies ``delta`` updates (its ``hello`` said so): then each
        ``update`` carries what changed, not the whole state (``web-protocol.md`` 4.3)."""
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
        queue = self.queue
        while True:
            waiting = [await queue.get()]
            if self.batches:
                # all that is queued now, in order, in one frame: a discard's update and the
                # computer's whole turn after it are pushed together (web-protocol.md 4.3)
                while not queue.empty():
                    waiting.append(queue.get_nowait())
            texts = []
            for message in waiting:
                try:
                    texts.append(messages.to_text(message))
                except ValueError:  # e.g. text that cannot be encoded
                    log.exception("a %s message could not be written", message.type)
            if not texts:
                continue
            try:
                await self.websocket.send_text(messages.batch_text(texts))
            except Exception:  # the socket closed meanwhile, whichever way it says so
                # uvicorn says so with an OSError, Starlette with a RuntimeError, a test
                # client with anyio's ClosedResourceError: any failed write ends the sending
                # here, so this task never ends with an exception nobody retrieves
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


def connection_language(websocket: WebSocket) -> str:
    """The language a connection asked for: ``?lang=`` (the page's choice), else the upgrade
    request's ``Accept-Language``, else English (docs/translating.md)."""
    asked = normalise(websocket.query_params.get("lang") or "")
    return asked or negotiate(websocket.headers.get("accept-language"))


def too_large() -> messages.Error:
    """The error for a frame over :data:`limits.MAX_FRAME`, in the current language."""
    return messages.error("too_large", _(FRAME_TOO_LARGE, size=limits.MAX_FRAME // 1024))


@router.websocket("/ws/{code}")
async def game_socket(websocket: WebSocket, code: str) -> None:
    await websocket.accept()
    language = connection_language(websocket)
    with use_language(language):  # this task's texts: each connection speaks its own
        await _connection(websocket, code, language)


def _socket_count(websocket: WebSocket) -> limits.SocketCount:
    state = websocket.app.state
    if not hasattr(state, "sockets"):
        state.sockets = limits.SocketCount()
    count: limits.SocketCount = state.sockets
    return count


async def _connection(websocket: WebSocket, code: str, language: str) -> None:
    lobby: Lobby = websocket.app.state.lobby
    room: Room | None = None
    peer = SocketPeer(
        websocket, lambda dropped: room.drop(dropped) if room else None, language=language
    )
    counted = _socket_count(websocket)
    held: list[str] = []  # the places this socket holds, given back when it closes
    address = "address:" + limits.client_address(websocket.scope)
    try:
        if not counted.take(address, limits.SOCKETS_PER_ADDRESS):
            error = messages.error("too_many_connections", _(limits.TOO_MANY_SOCKETS_ADDRESS))
            await _refuse(websocket, peer, error, CLOSE_TOO_MANY)
            return
        held.append(address)
        hello = await _hello(websocket, peer)
        if hello is None:
            await _refuse(websocket, peer, None, CLOSE_UNKNOWN_ROOM)
            return
        token, reply_to = hello.token, hello.id
        peer.batches, peer.deltas = hello.batch, hello.delta
        lookups: limits.RateLimit = websocket.app.state.lookups
        client = limits.client_address(websocket.scope)
        while True:
            try:
                room = await lobby.get(code)
            except StoreError as damage:  # StoreUnavailable too: this room only, not the server
                log.error("room %s cannot be loaded: %s", quote(code), damage)
                unavailable = isinstance(damage, StoreUnavailable)
                error = messages.error(
                    "store_unavailable" if unavailable else "damaged_room",
                    _(UNAVAILABLE) if unavailable else _(DAMAGED),
                    reply_to,
                )
                await _refuse(websocket, peer, error, CLOSE_DAMAGED)
                return
            seat = None if room is None else room.seat_for(token)
            if room is not None and seat is None and not room.is_full():
                await room.refresh_seats()  # a friend who joined through another process
                seat = room.seat_for(token)
            if room is None or seat is None:
                # only a wrong guess counts (a right token is served whatever the address's
                # others tried); the same answer for an unknown room and a wrong token
                if lookups.is_blocked(client):
                    error = messages.error("too_many_requests", _(limits.TOO_MANY), reply_to)
                    await _refuse(websocket, peer, error, CLOSE_TOO_MANY)
                    return
                lookups.charge(client)
                error = messages.error("unknown_room", _(UNKNOWN_ROOM), reply_to)
                await _refuse(websocket, peer, error, CLOSE_UNKNOWN_ROOM)
                return
            if not held[1:]:
                player = room.table.seats[seat].player or f"{room.code}/{seat}"
                if not counted.take("player:" + player, limits.SOCKETS_PER_PLAYER):
                    error = messages.error(
                        "too_many_connections", _(limits.TOO_MANY_SOCKETS_PLAYER), reply_to
                    )
                    await _refuse(websocket, peer, error, CLOSE_TOO_MANY)
                    return
                held.append("player:" + player)
            try:
                await room.connect(peer, seat)
                break
            except RoomClosed:
                continue  # forgotten while idle: load it again
        try:
            await _serve(websocket, peer, room, seat, held[-1])
        finally:
            await room.disconnect(peer, seat)
    finally:
        for key in held:
            counted.give_back(key)
        await peer.finish()


async def _hello(websocket: WebSocket, peer: SocketPeer) -> HelloMessage | None:
    """Wait for the connection's ``hello`` (its seat's token, whether it reads batches and
    deltas); None when the connection closed or said nothing in time. Other messages get an
    ``error``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limits.HELLO_SECONDS
    while True:
        try:
            frame = await asyncio.wait_for(websocket.receive(), deadline - loop.time())
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            return None
        if frame["type"] == "websocket.disconnect":
            return None
        text = _text(frame)
        if text is None:
            peer.push(too_large())
            continue
        try:
            message = parse_hello(text)
        except ProtocolError as error:
            peer.push(messages.error(error.code, error.message, error.reply_to))
            continue
        return message


async def _refuse(
    websocket: WebSocket, peer: SocketPeer, error: messages.Error | None, code: int
) -> None:
    """Send ``error`` (if any), then close the connection with ``code``."""
    if error is not None:
        peer.push(error)
    await peer.finish()
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.close(code)


def _text(frame: Mapping[str, Any]) -> str | None:
    """A frame's text, or None when it is over :data:`limits.MAX_FRAME`."""
    text = frame.get("text")
    if text is None:
        data = frame.get("bytes") or b""
        if len(data) > limits.MAX_FRAME:
            return None
        text = data.decode("utf-8", errors="replace")
    if len(text) > limits.MAX_FRAME:
        return None
    return str(text)


def _too_many_new_matches(websocket: WebSocket, player: str) -> bool:
    """Charge ``player`` one new match; True when it has none left (``limits``)."""
    limit = limits.per_player(
        websocket.app.state,
        "new_matches",
        limits.NEW_MATCH_BURST,
        limits.NEW_MATCH_PER_MINUTE,
    )
    if limit.is_blocked(player):
        return True
    limit.charge(player)
    return False


async def _serve(
    websocket: WebSocket, peer: SocketPeer, room: Room, seat: int, player: str
) -> None:
    while not peer.closed:
        try:
            frame = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if frame["type"] == "websocket.disconnect":
            return
        text = _text(frame)
        if text is None:
            peer.push(too_large())
            continue
        try:
            message = parse_client_message(text)
        except ProtocolError as error:
            peer.push(messages.error(error.code, error.message, error.reply_to))
            continue
        if isinstance(message, NewMatchMessage | RematchMessage) and _too_many_new_matches(
            websocket, player
        ):
            text = _(limits.TOO_MANY_NEW_MATCHES)
            peer.push(messages.error("too_many_requests", text, message.id))
            continue
        try:
            await room.handle(peer, seat, message)
        except RoomError as error:
            peer.push(messages.error(error.code, error.message, message.id))
        except RoomClosed:
            peer.push(messages.error("room_closed", _("The room was closed; connect again.")))
            return
