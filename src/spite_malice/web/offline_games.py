"""Matches played offline, sent back by the page (``docs/offline.md``, ``web-protocol.md``).

``POST /api/offline-games`` takes a match's record (:mod:`spite_malice.offline.record`),
replays it step by step from its seed and, when it replays, counts its finished games in the
player's offline statistics (``GET /api/offline-games/stats``), once: a match sent again
counts only what it adds, and a game counts by its content whatever its id (the same game
sent again under another id counts nothing more; another player's copy is refused). A long
match is sent in parts (``from``: the steps already sent), each under the request body
limit. A record that does not replay is refused with a reason the player can read.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..engine.errors import SpiteMaliceError
from ..engine.rules import Rules
from ..i18n import N_, _
from ..offline.record import UNREADABLE, RecordRefused, Replayed, replay_record
from ..store import offline_games as kept
from ..table import TableError
from . import limits
from .errors import error_response
from .requests import current_player, lobby_of, made_too_often, store_of

router = APIRouter(prefix="/api/offline-games")

DIFFERENT = N_("This offline game was sent before with other moves, so it is not counted again.")
"""Marked only: said with ``_(DIFFERENT)``."""
COUNTED_ELSEWHERE = N_(
    "This offline game was already counted for another player, so it is not counted for you."
)
"""Marked only: said with ``_(COUNTED_ELSEWHERE)``. A copy of another player's game is
refused (409 ``counted_elsewhere``), not taken silently: the page shows the reason and sends
it no more, where a quiet answer would leave the player looking for a game that never
appears in their statistics."""
TOO_MANY_SENT = N_(
    "Too many offline games sent from this address; they are sent again in a minute."
)
"""Each sending replays a match (the server's CPU): they are limited per client address as
new games are (``limits.make_limit``, counted apart)."""


def _as_kept(replayed: Replayed) -> kept.OfflineMatch:
    games = [
        kept.OfflineGame(
            game.number,
            game.outcome,
            game.points_for,
            game.points_against,
            game.assisted,
            game.record,
        )
        for game in replayed.games
    ]
    return kept.OfflineMatch(
        replayed.id, replayed.level, replayed.steps, games, replayed.match_over, replayed.match_won
    )


@router.post("", response_model=None)
async def send_offline_game(request: Request) -> dict[str, Any] | JSONResponse:
    player = await current_player(request)
    limited = made_too_often(request, "offline_games", TOO_MANY_SENT)
    if limited is not None:
        return limited
    try:
        body = await request.json()
    except ValueError:
        return error_response(422, "not_replayed", _(UNREADABLE))
    if not isinstance(body, dict) or not isinstance(body.get("steps"), list):
        return error_response(422, "not_replayed", _(UNREADABLE))
    start = body.get("from", 0)
    if type(start) is not int or start < 0:
        return error_response(422, "not_replayed", _(UNREADABLE))
    lobby, store = lobby_of(request), store_of(request)
    before: list[dict[str, Any]] = []
    if start:
        before = await lobby.run(kept.kept_steps, store, player.id, str(body.get("id")))
        if len(before) < start:
            return error_response(409, "steps_missing", _(UNREADABLE))
    record = {**body, "steps": before[:start] + body["steps"]}
    try:
        limits.check_rules(Rules.from_json(record.get("rules")))
    except TableError as error:
        return error_response(422, "not_replayed", error.message)
    except SpiteMaliceError:  # rules it cannot read: the replay says so
        pass
    try:
        replayed = await asyncio.to_thread(replay_record, record)
    except RecordRefused as refused:
        return error_response(422, "not_replayed", refused.reason)
    try:
        saved = await lobby.run(kept.save_offline_match, store, player.id, _as_kept(replayed))
    except kept.StepsDiffer:
        return error_response(409, "steps_differ", _(DIFFERENT))
    except kept.CountedElsewhere:
        return error_response(409, "counted_elsewhere", _(COUNTED_ELSEWHERE))
    return {
        "id": replayed.id,
        "steps": len(replayed.steps),
        "games": len(replayed.games),
        "counted_games": saved.new_games,
        "counted_match": saved.new_match,
        "already_counted": saved.already_counted,
        "known": saved.known,
        "over": replayed.match_over,
    }


@router.get("/stats")
async def offline_stats(request: Request) -> dict[str, Any]:
    player = await current_player(request)
    result = await lobby_of(request).run(kept.offline_stats, store_of(request), player.id)
    data = result.to_json()
    data["player"] = player.name
    return data
