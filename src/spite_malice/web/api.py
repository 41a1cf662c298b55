"""The HTTP endpoints under ``/api`` (``web-protocol.md`` sections 2 and 3)."""

from __future__ import annotations

from dataclasses import fields
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from ..engine.rules import FIRST_PLAYER_RULES, PRESETS, Rules
from ..i18n import N_, NP_, _, pgettext
from ..table import default_level, level_name, levels
from . import limits
from .errors import error_response
from .lobby import Lobby
from .requests import (
    NAME_LIMIT,
    PLAYER_HEADER,
    PlayerRequired,
    as_seat,
    current_player,
    display_name,
    lobby_of,
    made_too_often,
    room_error_response,
    seat_answer,
    store_of,
    too_many_lookups,
)
from .rooms import FRIEND_MODE, Room, RoomClosed, RoomError, make_rules
from .rules_page import rules_page
from .settings import ANIMATION_SPEEDS, PlayerId, SettingsUpdate, effective, updated

router = APIRouter(prefix="/api")

_OPTIONS: dict[str, dict[str, Any]] = {
    "payoff_size": {"label": NP_("rules option", "Pay-off pile size"), "rule": "R1.2"},
    "decks": {"label": NP_("rules option", "Decks"), "rule": "R0.2"},
    "center_stacks": {"label": NP_("rules option", "Center stacks"), "rule": "R1.3"},
    "king_can_start_stack": {
        "label": NP_("rules option", "A King may start a center stack"),
        "rule": "R3.2",
    },
    "first_player": {
        "label": NP_("rules option", "Who starts a game"),
        "rule": "R1.4",
        "choices": list(FIRST_PLAYER_RULES),
    },
    "match_target": {"label": NP_("rules option", "Points to win a match"), "rule": "R5.1"},
}
"""The rules options as ``/api/config`` describes them; labels marked, translated per request."""
for _option, (_low, _high) in limits.RULE_LIMITS.items():
    _OPTIONS[_option] |= {"min": _low, "max": _high}  # the bounds make_rules enforces

SEED_REFUSED = N_(
    "A game between people is dealt by the server alone: leave out the seed. "
    "A seed may be given only in a game against the computer (a practice game)."
)
NO_INVITATION = N_("There is no open invitation with this code.")


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mode: Literal["computer", "friend"]
    player: PlayerId | None = None
    level: Annotated[StrictStr, Field(max_length=64)] | None = None
    rules: dict[str, Any] | None = None
    preset: Annotated[StrictStr, Field(max_length=64)] | None = None
    seed: Annotated[StrictInt, Field(ge=0, le=2**63 - 1)] | None = None


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: PlayerId | None = None
    """A display name for this seat (the player's own name when left out)."""


class NewPlayer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[PlayerId, Field(max_length=NAME_LIMIT)]


@router.post("/players", status_code=201, response_model=None)
async def create_player(request: Request, body: NewPlayer) -> dict[str, str] | JSONResponse:
    """A new player (the page's first visit): its id, name and secret, given only here."""
    refused = made_too_often(request, "players", limits.TOO_MANY_PLAYERS)
    if refused is not None:
        return refused
    name = display_name(body.name, "Player")
    player, secret = await lobby_of(request).run(store_of(request).create_player, name)
    return {"id": player.id, "name": player.name, "secret": secret}


@router.get("/players/me")
async def me(request: Request) -> dict[str, str]:
    player = await current_player(request)
    return {"id": player.id, "name": player.name}


@router.get("/health")
async def health(request: Request) -> JSONResponse:
    """Whether this instance can serve: its database answers and it hears other instances'
    moves (``web-protocol.md`` 1); 503 when not, so that a load balancer takes it out."""
    report = await lobby_of(request).health()
    return JSONResponse(report, status_code=200 if report["ok"] else 503)


@router.get("/config")
async def config(request: Request) -> dict[str, Any]:
    defaults = Rules.STANDARD.as_dict()
    options = []
    for field in fields(Rules):
        kind = {bool: "bool", int: "int"}.get(type(defaults[field.name]), "choice")
        option = _OPTIONS.get(field.name, {"label": field.name, "rule": ""})
        if field.name in _OPTIONS:
            option = option | {"label": pgettext("rules option", option["label"])}
        options.append({"name": field.name, "type": kind, "default": defaults[field.name]} | option)
    return {
        "player": None,
        "levels": [{"id": level, "name": level_name(level)} for level in levels()],
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
async def get_settings(request: Request) -> dict[str, Any]:
    player = await current_player(request)
    stored = await lobby_of(request).run(store_of(request).settings, player.id)
    return effective(player.name, stored)


@router.put("/settings", response_model=None)
async def put_settings(request: Request, body: SettingsUpdate) -> dict[str, Any] | JSONResponse:
    player = await current_player(request)
    lobby = lobby_of(request)
    name = display_name(body.player, player.name)
    current = effective(name, await lobby.run(lobby.store.settings, player.id))
    try:
        new = updated(current, body)
    except RoomError as error:
        return room_error_response(error)
    if name != player.name:  # the name is the player's display name
        await lobby.run(lobby.store.rename_player, player.id, name)
    await lobby.run(
        lobby.store.save_settings, player.id, {k: v for k, v in new.items() if k != "player"}
    )
    return new


@router.get("/stats")
async def stats(request: Request) -> dict[str, Any]:
    player = await current_player(request)
    result = await lobby_of(request).run(store_of(request).stats, player.id)
    data = result.to_json()
    data["player"] = player.name
    return data


@router.post("/rooms", status_code=201, response_model=None)
async def create_room(request: Request, body: CreateRoom) -> dict[str, Any] | JSONResponse:
    player = await current_player(request)
    lobby = lobby_of(request)
    if body.mode == FRIEND_MODE and body.seed is not None:
        return error_response(422, "invalid", _(SEED_REFUSED))
    refused = made_too_often(request, "rooms", limits.TOO_MANY_ROOMS)
    if refused is None and body.mode == FRIEND_MODE:
        refused = await _too_many_invitations(lobby, player.id)
    if refused is not None:
        return refused
    try:
        if body.rules is None and body.preset is None:
            # nothing asked: the player's saved settings (2.3) choose the rules and level
            saved = effective(player.name, await lobby.run(lobby.store.settings, player.id))
            rules = make_rules(saved["rules"], None)
            level = body.level or saved["level"]
        else:
            rules = make_rules(body.rules, body.preset)
            level = body.level
        room, token = await lobby.create(
            mode=body.mode,
            player=player.id,
            name=display_name(body.player, player.name),
            level=level,
            rules=rules,
            seed=body.seed,
        )
    except RoomError as error:
        return room_error_response(error)
    room.start_computer()
    return seat_answer(room, 0, token)


async def _too_many_invitations(lobby: Lobby, player: str) -> JSONResponse | None:
    """A 409 when ``player`` already has :data:`limits.OPEN_INVITATIONS` friend rooms that
    nobody has joined (and that have not expired): the new one is refused, the old ones
    stay (``web-protocol.md`` 7)."""
    found = await lobby.run(lambda: lobby.store.matches(source="web", player=player))
    waiting = [
        summary
        for summary in found
        if summary.kind == FRIEND_MODE
        and summary.players[1] is None
        and not limits.is_expired(summary.updated_at)
    ]
    if len(waiting) < limits.OPEN_INVITATIONS:
        return None
    return error_response(409, "too_many_invitations", limits.too_many_invitations())


@router.post("/rooms/{code}/join", response_model=None)
async def join_room(
    request: Request, code: str, body: JoinRoom | None = None
) -> dict[str, Any] | JSONResponse:
    player = await current_player(request)
    name = display_name(body.player if body else None, player.name)
    # an invitation's code is its only secret, so a guesser out of tries is refused before
    # looking: counted by the player (the others behind the same address keep theirs),
    # and by the address with room for a whole class (web-protocol.md 7)
    guesses = _join_guesses(request)
    client = limits.client_address(request.scope)
    keys = (f"player:{player.id}", f"address:{client}")
    blocked = [
        (limit, key) for limit, key in zip(guesses, keys, strict=True) if limit.is_blocked(key)
    ]
    if blocked:
        return too_many_lookups(*blocked[0])

    def charge() -> None:
        for limit, key in zip(guesses, keys, strict=True):
            limit.charge(key)

    while True:
        room = await lobby_of(request).get(code)
        if room is None:
            charge()
            return error_response(404, "unknown_room", _(NO_INVITATION))
        try:
            token = await room.join(player.id, name)
        except RoomClosed:
            continue  # forgotten while idle: load it again
        except RoomError as error:
            if error.code in ("room_full", "not_a_friend_room", "expired"):
                # the same answer as an unknown code: no oracle of which codes exist
                charge()
                return error_response(404, "unknown_room", _(NO_INVITATION))
            return room_error_response(error)
        return seat_answer(room, 1, token)


def _join_guesses(request: Request) -> tuple[limits.RateLimit, limits.RateLimit]:
    """The limits on wrong invitation codes: one player's (``state.lookups``, as for
    tokens) and one address's (:data:`limits.JOIN_ADDRESS_BURST`)."""
    state = request.app.state
    if not hasattr(state, "join_addresses"):
        state.join_addresses = limits.RateLimit(
            burst=limits.JOIN_ADDRESS_BURST, per_minute=limits.JOIN_ADDRESS_PER_MINUTE
        )
    return state.lookups, state.join_addresses


@router.get("/rooms/{code}", response_model=None)
async def room_info(request: Request, code: str) -> dict[str, Any] | JSONResponse:
    return await as_seat(request, code, lambda room, seat: room.info(seat))


@router.post("/rooms/{code}/give-up", response_model=None)
async def give_up(request: Request, code: str) -> dict[str, Any] | JSONResponse:
    """Give up an unfinished match from the lobby (3.6): a loss, as resigning is."""

    async def give_up_seat(room: Room, seat: int) -> dict[str, Any]:
        try:
            return await room.give_up(seat)
        finally:
            room.start_computer()

    try:
        return await as_seat(request, code, give_up_seat)
    except RoomError as error:
        return room_error_response(error)


@router.get("/rooms")
async def rooms(request: Request) -> dict[str, Any]:
    player = await current_player(request)
    store = store_of(request)
    found = await lobby_of(request).run(lambda: store.matches(source="web", player=player.id))
    listed = []
    for summary in found:
        names = list(summary.names)
        if summary.room is None:
            continue
        if summary.kind == "friend" and names[1] is None:
            continue  # its code is still an open invitation: anyone holding it takes seat 1
        seat = 0 if summary.players[0] == player.id else 1
        listed.append(
            {
                "room": summary.room,
                "seat": seat,
                "mode": summary.kind,
                "pool": summary.pool,
                "level": summary.level,
                "players": names,
                "score": list(summary.score),
                "game_number": summary.game_number,
                "updated": summary.updated_at.isoformat().replace("+00:00", "Z"),
            }
        )
    return {"rooms": listed}


__all__ = ["PLAYER_HEADER", "PlayerRequired", "error_response", "router"]
