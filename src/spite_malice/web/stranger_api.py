"""The HTTP endpoints of play between strangers (``web-protocol.md`` 3.8, 3.8.1 and 3.9):
the quick-match pool, the turn-based pools, and blocking a player."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..i18n import _
from ..store import pairing as stored
from ..table import TableError
from .errors import error_response
from .quick_match import WAIT_SECONDS
from .requests import as_seat, current_player, display_name, lobby_of, room_error_response
from .rooms import Room, RoomError

router = APIRouter(prefix="/api")


class JoinPool(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pool: Annotated[StrictStr, Field(max_length=16)]


@router.post("/pool", response_model=None)
async def join_pool(request: Request, body: JoinPool) -> dict[str, Any] | JSONResponse:
    """Wait in a quick-match pool (3.8): the place in it, or the game when paired."""
    player = await current_player(request)
    lobby = lobby_of(request)
    try:
        await lobby.fair_play.check_not_banned(player.id)
        entry = await lobby.quick.join(player.id, body.pool, display_name(None, player.name))
    except RoomError as error:
        if error.code == "banned":
            return error_response(403, error.code, error.message)
        return room_error_response(error)
    if entry.ready:
        return await lobby.quick.wait(player.id, 0)
    return lobby.quick.waiting_answer(entry)


@router.get("/pool")
async def pool_news(
    request: Request, wait: Annotated[float, Query(ge=0, le=WAIT_SECONDS)] = 0
) -> dict[str, Any]:
    """The player's place in its pool, waiting up to ``wait`` seconds for its game (3.8)."""
    player = await current_player(request)
    return await lobby_of(request).quick.wait(player.id, wait)


@router.delete("/pool")
async def leave_pool(request: Request) -> dict[str, Any]:
    """Leave the pool; too late once a wave paired the player: then its game comes back."""
    player = await current_player(request)
    lobby = lobby_of(request)
    entry = await lobby.quick.leave(player.id)
    if entry is None:
        return {"status": "none"}
    return await lobby.quick.wait(player.id, WAIT_SECONDS if not entry.ready else 0)


@router.post("/turn-pool", response_model=None)
async def join_turn_pool(request: Request, body: JoinPool) -> dict[str, Any] | JSONResponse:
    """Wait in a turn-based pool (3.8.1) until paired or cancelled, no page open: the wait
    and the seats of the player's turn-based games between strangers."""
    player = await current_player(request)
    lobby = lobby_of(request)
    try:
        await lobby.fair_play.check_not_banned(player.id)
        return await lobby.quick.join_turn(player.id, body.pool, display_name(None, player.name))
    except RoomError as error:
        if error.code == "banned":
            return error_response(403, error.code, error.message)
        return room_error_response(error)


@router.get("/turn-pool")
async def turn_pool_news(request: Request) -> dict[str, Any]:
    """The player's turn-based wait, and the seats of its turn-based games (3.8.1)."""
    player = await current_player(request)
    return await lobby_of(request).quick.turn_news(player.id)


@router.delete("/turn-pool")
async def leave_turn_pool(request: Request) -> dict[str, Any]:
    """End the turn-based wait; a game a wave is making meanwhile comes anyway (3.8.1)."""
    player = await current_player(request)
    return await lobby_of(request).quick.leave_turn(player.id)


@router.post("/rooms/{code}/block", response_model=None)
async def block_opponent(request: Request, code: str) -> dict[str, Any] | JSONResponse:
    """Block the other seat's player (3.9): the seat's token in its header, as for 3.4."""
    player = await current_player(request)
    lobby = lobby_of(request)

    async def block(room: Room, seat: int) -> dict[str, Any]:
        other = room.table.seats[1 - seat]
        if other.player is None or other.player == player.id or room.mode != "friend":
            raise RoomError(
                "cannot_block", _("Only the other player of a game between people is blocked.")
            )
        await lobby.run(stored.block, lobby.store, player.id, other.player, other.name or "Player")
        return {"blocked": other.name}

    try:
        return await as_seat(request, code, block)
    except RoomError as error:
        return error_response(409, error.code, error.message)


@router.post("/rooms/{code}/abort", response_model=None)
async def abort_match(request: Request, code: str) -> dict[str, Any] | JSONResponse:
    """Abort a match between strangers before both players moved (3.9): no result."""

    async def abort(room: Room, seat: int) -> dict[str, Any]:
        return await room.strangers.abort(seat)

    try:
        return await as_seat(request, code, abort)
    except RoomError as error:
        return error_response(409, error.code, error.message)
    except TableError as error:
        return error_response(409, error.code, error.message)


@router.get("/blocks")
async def list_blocks(request: Request) -> dict[str, Any]:
    player = await current_player(request)
    lobby = lobby_of(request)
    found = await lobby.run(stored.blocks, lobby.store, player.id)
    return {
        "blocks": [
            {"player": blocked, "name": entry.name, "since": entry.created_at.isoformat()}
            for blocked, entry in found
        ]
    }


@router.delete("/blocks/{blocked}")
async def unblock(request: Request, blocked: str) -> dict[str, Any]:
    player = await current_player(request)
    lobby = lobby_of(request)
    removed = await lobby.run(stored.unblock, lobby.store, player.id, blocked[:128])
    return {"unblocked": removed}
