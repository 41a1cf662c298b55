"""The HTTP endpoints under ``/api`` (``web-protocol.md`` sections 2 and 3)."""

from __future__ import annotations

from dataclasses import fields
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from ..engine.rules import FIRST_PLAYER_RULES, PRESETS, Rules
from ..store import Store
from ..table import default_level, level_label, levels
from .lobby import Lobby
from .rooms import COMPUTER_MODE, Room, RoomClosed, RoomError, make_rules
from .rules_page import rules_page
from .settings import ANIMATION_SPEEDS, PlayerId, SettingsUpdate, effective, updated

router = APIRouter(prefix="/api")

GUEST = "guest"
"""The player id of a friend who joins without one."""

_OPTIONS: dict[str, dict[str, Any]] = {
    "payoff_size": {"label": "Pay-off pile size", "rule": "R1.2", "min": 5, "max": 30},
    "decks": {"label": "Decks", "rule": "R0.2", "min": 2, "max": 3},
    "center_stacks": {"label": "Center stacks", "rule": "R1.3", "min": 3, "max": 4},
    "king_can_start_stack": {"label": "A King may start a center stack", "rule": "R3.2"},
    "first_player": {
        "label": "Who starts a game",
        "rule": "R1.4",
        "choices": list(FIRST_PLAYER_RULES),
    },
    "match_target": {"label": "Points to win a match", "rule": "R5.1", "min": 1, "max": 500},
}


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mode: Literal["computer", "friend"]
    player: PlayerId | None = None
    level: Annotated[StrictStr, Field(max_length=64)] | None = None
    rules: dict[str, Any] | None = None
    preset: Annotated[StrictStr, Field(max_length=64)] | None = None
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = None


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: PlayerId | None = None


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


_STATUS = {
    "invalid": 422,
    "unknown_room": 404,
    "bad_token": 403,
    "room_full": 409,
    "not_a_friend_room": 409,
    "store_unavailable": 503,
}


def room_error_response(error: RoomError) -> JSONResponse:
    return error_response(_STATUS.get(error.code, 400), error.code, error.message)


def _lobby(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def _store(request: Request) -> Store:
    return _lobby(request).store


def _player(request: Request, player: str | None) -> str:
    default: str = request.app.state.default_player
    return player or default


@router.get("/health")
async def health(request: Request) -> JSONResponse:
    """Whether this instance can serve: its database answers and it hears other instances'
    moves (``web-protocol.md`` 1); 503 when not, so that a load balancer takes it out."""
    report = await _lobby(request).health()
    return JSONResponse(report, status_code=200 if report["ok"] else 503)


@router.get("/config")
async def config(request: Request) -> dict[str, Any]:
    defaults = Rules.STANDARD.as_dict()
    options = []
    for field in fields(Rules):
        kind = {bool: "bool", int: "int"}.get(type(defaults[field.name]), "choice")
        options.append(
            {"name": field.name, "type": kind, "default": defaults[field.name]}
            | _OPTIONS.get(field.name, {"label": field.name, "rule": ""})
        )
    return {
        "player": _player(request, None),
        "levels": [{"id": level, "name": level_label(level)} for level in levels()],
        "default_level": default_level(),
        "presets": {name: rules.to_json() for name, rules in PRESETS.items()},
        "rules_defaults": defaults,
        "rules_options": options,
        "animation_speeds": list(ANIMATION_SPEEDS),
        "features": {"hint": True, "undo": True},
    }


@router.get("/rules")
async def rules() -> dict[str, Any]:
    return rules_page()


@router.get("/settings")
async def get_settings(request: Request, player: str | None = None) -> dict[str, Any]:
    name = _player(request, player)
    stored = await _lobby(request).run(_store(request).settings, name)
    return effective(name, stored)


@router.put("/settings", response_model=None)
async def put_settings(request: Request, body: SettingsUpdate) -> dict[str, Any] | JSONResponse:
    name = _player(request, body.player)
    lobby = _lobby(request)
    current = effective(name, await lobby.run(lobby.store.settings, name))
    try:
        new = updated(current, body)
    except RoomError as error:
        return room_error_response(error)
    await lobby.run(
        lobby.store.save_settings, name, {k: v for k, v in new.items() if k != "player"}
    )
    return new


@router.get("/stats")
async def stats(request: Request, player: str | None = None) -> dict[str, Any]:
    name = _player(request, player)
    result = await _lobby(request).run(_store(request).stats, name)
    return result.to_json()


def _seat_answer(room: Room, seat: int, token: str) -> dict[str, Any]:
    return {
        "room": room.code,
        "seat": seat,
        "token": token,
        "mode": room.mode,
        "ws_url": f"/ws/{room.code}?token={token}",
        "invite_url": None if room.mode == COMPUTER_MODE else f"/#/join/{room.code}",
    }


@router.post("/rooms", status_code=201, response_model=None)
async def create_room(request: Request, body: CreateRoom) -> dict[str, Any] | JSONResponse:
    player = _player(request, body.player)
    lobby = _lobby(request)
    try:
        if body.rules is None and body.preset is None:
            # nothing asked: the player's saved settings (2.3) choose the rules and level
            saved = effective(player, await lobby.run(lobby.store.settings, player))
            rules = make_rules(saved["rules"], None)
            level = body.level or saved["level"]
        else:
            rules = make_rules(body.rules, body.preset)
            level = body.level
        room, token = await lobby.create(
            mode=body.mode, player=player, name=player, level=level, rules=rules, seed=body.seed
        )
    except RoomError as error:
        return room_error_response(error)
    room.start_computer()
    return _seat_answer(room, 0, token)


@router.post("/rooms/{code}/join", response_model=None)
async def join_room(
    request: Request, code: str, body: JoinRoom | None = None
) -> dict[str, Any] | JSONResponse:
    # the friend is usually on another machine: not the server's own default player
    player = (body.player if body else None) or GUEST
    while True:
        room = await _lobby(request).get(code)
        if room is None:
            return error_response(404, "unknown_room", f"there is no room {code!r}")
        try:
            token = await room.join(player, player)
        except RoomClosed:
            continue  # forgotten while idle: load it again
        except RoomError as error:
            return room_error_response(error)
        return _seat_answer(room, 1, token)


@router.get("/rooms/{code}", response_model=None)
async def room_info(request: Request, code: str, token: str = "") -> dict[str, Any] | JSONResponse:
    while True:
        room = await _lobby(request).get(code)
        if room is None:
            return error_response(404, "unknown_room", f"there is no room {code!r}")
        seat = room.seat_for(token)
        if seat is None:
            return error_response(403, "bad_token", "this token is not a seat of this room")
        try:
            return await room.info(seat)
        except RoomClosed:
            continue  # forgotten while idle: load it again


@router.get("/rooms")
async def rooms(request: Request, player: str | None = None) -> dict[str, Any]:
    name = _player(request, player)
    store = _store(request)
    found = await _lobby(request).run(lambda: store.matches(source="web", player=name))
    listed = []
    for summary in found:
        names = list(summary.names)
        if summary.room is None:
            continue
        if summary.kind == "friend" and names[1] is None:
            continue  # its code is still an open invitation: anyone holding it takes seat 1
        seat = 0 if summary.players[0] == name else 1
        listed.append(
            {
                "room": summary.room,
                "seat": seat,
                "mode": summary.kind,
                "level": summary.level,
                "players": names,
                "score": list(summary.score),
                "game_number": summary.game_number,
                "updated": summary.updated_at.isoformat().replace("+00:00", "Z"),
            }
        )
    return {"rooms": listed}


__all__ = ["GUEST", "error_response", "router"]
