"""What a route reads from its request, shared by every route module: the lobby and the
store the app serves, the player whose secret the request carries, a seat of a room by its
token, a display name, a client's charge against a creation limit, and the answers that
rooms' errors and seats get (``web-protocol.md`` sections 2, 3 and 7).

The route modules (``api``, ``accounts``, ``daily``, ``replays`` ...) import these public
names; none reads ``request.app.state`` or the player's header itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from ..i18n import N_, _
from ..names import clean_name
from ..store import Player, Store
from . import limits
from .errors import error_response
from .lobby import Lobby
from .rooms import COMPUTER_MODE, Room, RoomClosed, RoomError

PLAYER_HEADER = "X-Player-Secret"
"""The request header that carries the player's secret (never a URL: it would be logged)."""
SEAT_TOKEN_HEADER = "X-Seat-Token"
"""The header that carries a seat's token to ``GET /api/rooms/<room>``."""
NAME_LIMIT = 40

UNKNOWN_ROOM = N_("There is no room with this code and token.")
NO_PLAYER = N_("This needs your player: reload the page, which makes one for this browser.")


class PlayerRequired(Exception):
    """A request that needs a player's secret came without a known one (answered 401)."""


ROOM_ERROR_STATUS = {
    "invalid": 422,
    "unknown_room": 404,
    "bad_token": 404,
    "room_full": 409,
    "not_a_friend_room": 409,
    "match_over": 409,
    "store_unavailable": 503,
}
"""The HTTP status of each :class:`RoomError` code (400 for the others)."""


def room_error_response(error: RoomError) -> JSONResponse:
    return error_response(ROOM_ERROR_STATUS.get(error.code, 400), error.code, error.message)


def lobby_of(request: Request) -> Lobby:
    """The lobby of the app serving ``request``."""
    lobby: Lobby = request.app.state.lobby
    return lobby


def store_of(request: Request) -> Store:
    """The store of the app serving ``request``."""
    return lobby_of(request).store


async def current_player(request: Request) -> Player:
    """The player whose secret the request carries; PlayerRequired when none is known."""
    secret = request.headers.get(PLAYER_HEADER, "")
    if not secret or len(secret) > 128:
        raise PlayerRequired
    player = await lobby_of(request).run(store_of(request).player_for, secret)
    if player is None:
        raise PlayerRequired
    return player


def display_name(text: str | None, fallback: str) -> str:
    """A display name from ``text`` (checked by ``PlayerId``), or ``fallback`` without one."""
    cleaned = clean_name(text or "")[:NAME_LIMIT]
    return cleaned or fallback


def made_too_often(request: Request, kind: str, message: str) -> JSONResponse | None:
    """Charge the client's address one creation of ``kind`` (``players`` or ``rooms``,
    each with its own :func:`limits.make_limit`); a 429 saying ``message`` when it has none
    left (``web-protocol.md`` 7)."""
    state = request.app.state
    attribute = f"made_{kind}"
    if not hasattr(state, attribute):  # made on first use, from the environment
        setattr(state, attribute, limits.make_limit())
    limit: limits.RateLimit | None = getattr(state, attribute)
    if limit is None:
        return None
    client = limits.client_address(request.scope)
    if limit.is_blocked(client):
        retry = str(limit.retry_after(client))
        return error_response(429, "too_many_requests", _(message), {"Retry-After": retry})
    limit.charge(client)
    return None


def too_many_lookups(lookups: limits.RateLimit, client: str) -> JSONResponse:
    """The 429 of a client out of guesses (of seat tokens or invitation codes)."""
    return error_response(
        429,
        "too_many_requests",
        _(limits.TOO_MANY),
        {"Retry-After": str(lookups.retry_after(client))},
    )


def seat_answer(room: Room, seat: int, token: str) -> dict[str, Any]:
    """What a seat taken in a room is answered: the room, the seat, its token and URLs."""
    return {
        "room": room.code,
        "seat": seat,
        "token": token,
        "mode": room.mode,
        "ws_url": f"/ws/{room.code}",
        "invite_url": None if room.mode == COMPUTER_MODE else f"/#/join/{room.code}",
    }


async def as_seat(
    request: Request, code: str, act: Callable[[Room, int], Awaitable[dict[str, Any]]]
) -> dict[str, Any] | JSONResponse:
    """Run ``act`` for the seat whose token is in the :data:`SEAT_TOKEN_HEADER` header, on
    room ``code``. The token travels in a header, never in the URL (which access logs keep);
    an unknown room and a wrong token answer the same 404 (no oracle), and count towards the
    client's lookup limit."""
    token = request.headers.get(SEAT_TOKEN_HEADER, "")
    lookups: limits.RateLimit = request.app.state.lookups
    client = limits.client_address(request.scope)
    while True:
        room = await lobby_of(request).get(code)
        seat = None if room is None else room.seat_for(token)
        if room is None or seat is None:
            # only wrong guesses count: a right token is served whatever else the address
            # tried (a seat's token cannot be guessed; the room's code alone opens nothing)
            if lookups.is_blocked(client):
                return too_many_lookups(lookups, client)
            lookups.charge(client)
            return error_response(404, "unknown_room", _(UNKNOWN_ROOM))
        try:
            return await act(room, seat)
        except RoomClosed:
            continue  # forgotten while idle: load it again
