"""The game WebSocket, ``/ws/<room>?token=<token>`` (``web-protocol.md`` section 4)."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .lobby import Lobby
from .protocol import ProtocolError, error_message, parse_client_message
from .rooms import RoomClosed, RoomError

log = logging.getLogger(__name__)
router = APIRouter()

CLOSE_BAD_TOKEN = 4403
CLOSE_UNKNOWN_ROOM = 4404


class SocketPeer:
    """A seat's connection: one WebSocket."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket

    async def send(self, message: dict[str, Any]) -> None:
        await self.websocket.send_json(message)


@router.websocket("/ws/{code}")
async def game_socket(websocket: WebSocket, code: str, token: str = "") -> None:
    await websocket.accept()
    lobby: Lobby = websocket.app.state.lobby
    peer = SocketPeer(websocket)
    while True:
        room = await lobby.get(code)
        if room is None:
            await websocket.send_json(error_message("unknown_room", f"there is no room {code!r}"))
            await websocket.close(CLOSE_UNKNOWN_ROOM)
            return
        seat = room.seat_for(token)
        if seat is None:
            await websocket.send_json(
                error_message("bad_token", "this token is not a seat of this room")
            )
            await websocket.close(CLOSE_BAD_TOKEN)
            return
        try:
            await room.connect(peer, seat)
            break
        except RoomClosed:
            continue  # forgotten while idle: load it again
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = (frame.get("bytes") or b"").decode("utf-8", errors="replace")
            try:
                message = parse_client_message(text)
            except ProtocolError as error:
                await peer.send(error_message(error.code, error.message, error.reply_to))
                continue
            try:
                await room.handle(peer, seat, message)
            except RoomError as error:
                await peer.send(error_message(error.code, error.message, message.id))
            except WebSocketDisconnect:
                raise
            except Exception:  # a bug must not cost the player the connection
                log.exception("room %s: a %s message failed", room.code, message.type)
                await peer.send(
                    error_message("internal", "the server failed to do that", message.id)
                )
    except WebSocketDisconnect:
        pass
    finally:
        await room.disconnect(peer, seat)
