"""Turn-based games over HTTP (``web-protocol.md`` 2.12): a friend game with a time per
move of 1, 3 or 7 days, and the list of the player's games, those where it is the player's
turn first, each with the time left in days and hours."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..names import clean_name
from .errors import table_error_response
from .requests import current_player, lobby_of
from .rooms import FRIEND_MODE, RoomError, make_rules
from .settings import effective

router = APIRouter(prefix="/api/turn-games")


class CreateTurnGame(BaseModel):
    """The body of ``POST /api/turn-games``."""

    model_config = ConfigDict(extra="forbid")
    days: Literal[1, 3, 7]
    player: Annotated[StrictStr, Field(max_length=128)] | None = None


@router.post("", status_code=201, response_model=None)
async def create(request: Request, body: CreateTurnGame) -> dict[str, Any] | JSONResponse:
    """A friend room whose game is played over days: the creator in seat 0, the invitation
    as for any friend game; one game (the match ends with it), with the creator's rules."""
    player = await current_player(request)
    lobby = lobby_of(request)
    saved = effective(player.name, await lobby.run(lobby.store.settings, player.id))
    rules = replace(make_rules(saved["rules"], None), match_target=1)
    name = clean_name(body.player or "")[:40] or player.name
    try:
        room, token = await lobby.create(
            mode=FRIEND_MODE, player=player.id, name=name, level=None, rules=rules, seed=None
        )
    except RoomError as error:
        return table_error_response(error)
    await lobby.run(lobby.turns.create, room.code, room.header.id, body.days)
    await lobby.turns.game(room.code)  # read once now: the first state shows the clock
    lobby.turns.observe(room)
    return {
        "room": room.code,
        "seat": 0,
        "token": token,
        "mode": room.mode,
        "days": body.days,
        "ws_url": f"/ws/{room.code}",
        "invite_url": f"/#/join/{room.code}",
    }


@router.get("")
async def mine(request: Request) -> dict[str, Any]:
    """The player's turn-based games: where it is the player's turn first (least time
    left first), then the others, then the finished ones."""
    player = await current_player(request)
    return {"games": await lobby_of(request).turns.games_of(player.id)}
