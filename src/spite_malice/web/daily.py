"""The daily deal in the page (``docs/web-protocol.md`` 2.7): today's deal against a chosen
level, one daily match a day for each player, and the daily statistics.

- ``GET /api/daily``: today's date, the seconds to the next deal, the player's daily match
  of today (if any, with whether the player has moved in it: the first move spends the
  day's try, opening it does not) and daily statistics.
- ``POST /api/daily`` ``{"level": "hard"}``: a room playing today's deal (the same seat
  answer as ``POST /api/rooms``); ``409`` when today's was already started or played.

These endpoints never send the seed; the deal is the same for everyone because it derives
from the date (``spite_malice.daily``, public code: the deal is no secret, which is why its
results count apart, as each player's own; web-protocol 2.7).
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..daily import DAILY_RULES, daily_seed, seconds_to_next, today
from ..engine.events import CardBuilt, CardDiscarded
from ..i18n import N_, _
from ..store import ABANDONED, FINISHED, DailyTaken
from ..store.daily import DailyMatch, daily_match, player_daily_stats
from ..table import default_level, level_name, levels
from .errors import error_response
from .requests import current_player, display_name, lobby_of, room_error_response, seat_answer
from .rooms import COMPUTER_MODE, Room, RoomError

router = APIRouter(prefix="/api")

STARTED = N_(
    "You have started today's deal: go on with it from your unfinished games in the lobby."
)
STARTED_IN_TERMINAL = N_(
    "You have started today's deal in the terminal: go on with it there (spite-malice play)."
)
PLAYED = N_("You have played today's deal. The next one is dealt at midnight UTC.")
"""The refusals of a second daily deal; marked only, said with ``_(PLAYED)`` and so on."""


def now() -> datetime:
    """The clock the daily deal reads (tests set another)."""
    return datetime.now(UTC)


class NewDaily(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: Annotated[StrictStr, Field(max_length=64)] | None = None


def _lock(request: Request) -> asyncio.Lock:
    """One daily room at a time per server, so that two clicks make one room (across
    servers on one database, the store's ``daily_plays`` keeps it to one)."""
    lock: asyncio.Lock | None = getattr(request.app.state, "daily_lock", None)
    if lock is None:
        lock = asyncio.Lock()
        request.app.state.daily_lock = lock
    return lock


@router.get("/daily")
async def daily(request: Request) -> dict[str, Any]:
    player = await current_player(request)
    lobby = lobby_of(request)
    moment = now()
    day = today(moment)
    match = await lobby.run(daily_match, lobby.store, player.id, day)
    stats = await lobby.run(player_daily_stats, lobby.store, player.id, day)
    moved = True
    if match is not None and match.status == "playing" and match.room is not None:
        room = await lobby.get(match.room)
        moved = room is None or has_moved(room, player.id)
    return {
        "date": day.isoformat(),
        "next_in": seconds_to_next(moment),
        "levels": [{"id": level, "name": level_name(level)} for level in levels()],
        "default_level": default_level(),
        "match": None
        if match is None
        else {
            "room": match.room,
            "status": match.status,
            "source": match.source,
            "level": match.level,
            "moved": moved,
        },
        "stats": stats.to_json(),
    }


@router.post("/daily", status_code=201, response_model=None)
async def new_daily(
    request: Request, body: NewDaily | None = None
) -> dict[str, Any] | JSONResponse:
    player = await current_player(request)
    lobby = lobby_of(request)
    day = today(now())
    async with _lock(request):
        found = await lobby.run(daily_match, lobby.store, player.id, day)
        if found is not None:
            return _refusal(found)
        try:
            room, token = await lobby.create(
                mode=COMPUTER_MODE,
                player=player.id,
                name=display_name(None, player.name),
                level=(body.level if body else None) or default_level(),
                rules=DAILY_RULES,
                seed=daily_seed(day),
                daily=day.isoformat(),
            )
        except RoomError as error:
            return room_error_response(error)
        except DailyTaken:  # another process (or the terminal) made it since we looked
            found = await lobby.run(daily_match, lobby.store, player.id, day)
            return _refusal(found)
    room.start_computer()
    return seat_answer(room, 0, token)


def has_moved(room: Room, player: str) -> bool:
    """Whether ``player`` has made a move in the room's daily game: the first move spends
    the day's try (opening the deal, or leaving it before moving, does not)."""
    table = room.table
    if not table.is_dealt or table.match.game_number > 1 or table.is_game_over:
        return table.is_dealt
    seats = [i for i, seat in enumerate(table.meta.seats) if seat.player == player]
    return any(
        isinstance(event, CardBuilt | CardDiscarded) and event.player in seats
        for event in table.game.events
    )


def _refusal(found: DailyMatch | None) -> JSONResponse:
    """The answer to a second daily deal of the day: played already, or started (here or
    in the terminal)."""
    if found is not None and found.status in (FINISHED, ABANDONED):
        return error_response(409, "daily_played", _(PLAYED))
    started = STARTED if found is None or found.source == "web" else STARTED_IN_TERMINAL
    return error_response(409, "daily_started", _(started))


__all__ = ["PLAYED", "STARTED", "has_moved", "now", "router"]
