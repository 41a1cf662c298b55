"""Replays in the page: a player's finished games, their records, and any record turned into
its frames (``docs/web-protocol.md`` 2.6).

- ``GET /api/games``: the player's finished games, the most recent first.
- ``GET /api/games/<id>/record``: a game's record (the JSON of ``notation.md``), to download;
  only for a player who sat in it.
- ``GET /api/games/<id>/replay``: that game's frames.
- ``POST /api/replays``: the frames of a record file the page sends (its bytes, as the
  body): checked, bounded (``limits.MAX_BODY``), refused with a plain sentence.
- ``POST /api/verify``: a finished game's record checked against its commitment
  (``docs/verifying.md``), in plain sentences.

The page holds no rules: the server replays the record and sends the whole table after each
move, every card face up (the game is over, or the file's seed tells every card anyway).
"""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..engine.record import GameRecord
from ..i18n import N_, _
from ..replay import MAX_RECORD_BYTES, ReplayError, read_record, replay_frames
from ..store.history import finished_games, game_record
from ..table.event_json import event_to_json
from ..verify import verify_record
from . import limits
from .errors import error_response
from .requests import current_player, lobby_of

router = APIRouter(prefix="/api")

UNKNOWN_GAME = N_("There is no finished game of yours with this number.")
"""Marked only: said with ``_(UNKNOWN_GAME)``."""


REPLAYS_AT_ONCE = 2
"""Replays made at the same time by one server; the others wait their turn. A long record
(thousands of moves) takes a fraction of a second of CPU and megabytes of JSON: without a
bound, a handful sent at once would hold the lobby's worker threads, which also write the
games' moves, and share the process with every game."""


def replay_answer(record: GameRecord, seat: int | None) -> dict[str, Any]:
    """A record's frames in the answer's JSON; a :class:`ReplayError` when it does not
    replay."""
    frames = replay_frames(record)
    return {
        "players": list(record.players),
        "first": record.first,
        "result": None if record.result is None else record.result.to_json(),
        "seat": seat,
        "frames": [
            frame.to_json() | {"events": [event_to_json(event) for event in frame.events]}
            for frame in frames
        ],
    }


GZIP_LEVEL = 6
"""How hard a replay is compressed: its frames repeat the whole table after every move, so
gzip makes them about 20 times smaller (a 10 KB record's 1.1 MB of frames)."""


def replay_body(record: GameRecord, seat: int | None, compress: bool = False) -> bytes:
    """:func:`replay_answer` as the JSON bytes FastAPI would send (gzipped with
    ``compress``), made where it is called (a worker thread): encoded on the event loop, a
    long replay's megabytes of frames held up every game of the server for seconds."""
    answer = replay_answer(record, seat)
    body = json.dumps(answer, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    encoded = body.encode()
    return gzip.compress(encoded, GZIP_LEVEL, mtime=0) if compress else encoded


def _accepts_gzip(request: Request) -> bool:
    accepted = request.headers.get("accept-encoding", "")
    return any(part.split(";")[0].strip().lower() == "gzip" for part in accepted.split(","))


async def _replay(request: Request, record: GameRecord, seat: int | None) -> Response:
    """The frames of ``record`` as an answer, made off the event loop, a few at a time,
    gzipped for a client that takes it (every browser)."""
    state = request.app.state
    if getattr(state, "replays", None) is None:
        state.replays = asyncio.Semaphore(REPLAYS_AT_ONCE)
    compress = _accepts_gzip(request)
    async with state.replays:
        body = await lobby_of(request).run(replay_body, record, seat, compress)
    headers = {"Vary": "Accept-Encoding"}
    if compress:
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


def _too_many_replays(request: Request, player: str) -> JSONResponse | None:
    """Charge ``player`` one replay; a 429 when it has none left (``limits``)."""
    limit = limits.per_player(
        request.app.state, "replays_made", limits.REPLAY_BURST, limits.REPLAY_PER_MINUTE
    )
    if limit.is_blocked(player):
        retry = {"Retry-After": str(limit.retry_after(player))}
        return error_response(429, "too_many_requests", _(limits.TOO_MANY_REPLAYS), retry)
    limit.charge(player)
    return None


@router.get("/games")
async def games(request: Request) -> dict[str, Any]:
    player = await current_player(request)
    lobby = lobby_of(request)
    found = await lobby.run(finished_games, lobby.store, player.id)
    return {"games": [entry.to_json() for entry in found]}


async def _own_record(request: Request, game_id: int) -> tuple[GameRecord, int] | None:
    player = await current_player(request)
    lobby = lobby_of(request)
    if not 0 < game_id < 2**31:
        return None
    return await lobby.run(game_record, lobby.store, player.id, game_id)


@router.get("/games/{game_id}/record", response_model=None)
async def record(request: Request, game_id: int) -> Response:
    found = await _own_record(request, game_id)
    if found is None:
        return error_response(404, "unknown_game", _(UNKNOWN_GAME))
    return JSONResponse(
        found[0].to_json(),
        headers={"Content-Disposition": f'attachment; filename="spite-malice-game-{game_id}.json"'},
    )


@router.get("/games/{game_id}/replay", response_model=None)
async def game_replay(request: Request, game_id: int) -> Response:
    found = await _own_record(request, game_id)
    if found is None:
        return error_response(404, "unknown_game", _(UNKNOWN_GAME))
    record_, seat = found
    refused = _too_many_replays(request, (await current_player(request)).id)
    if refused is not None:
        return refused
    try:
        return await _replay(request, record_, seat)
    except ReplayError as error:  # a stored record that no longer replays: say so
        return error_response(422, "bad_record", str(error))


@router.post("/replays", response_model=None)
async def replay_file(request: Request) -> Response:
    player = await current_player(request)
    refused = _too_many_replays(request, player.id)
    if refused is not None:
        return refused
    body = await request.body()
    try:
        parsed = read_record(body)
        return await _replay(request, parsed, None)
    except ReplayError as error:
        return error_response(422, "bad_record", str(error))


@router.post("/verify", response_model=None)
async def verify_deal(request: Request, seen: str | None = None) -> Response:
    """Verify a finished game's deal (web-protocol 2.8): the body is its record (its seed
    may be decimal text, as the page keeps it), ``seen`` the commitment the player saw at
    the deal; the answer says, check by check, what matched."""
    player = await current_player(request)
    refused = _too_many_replays(request, player.id)
    if refused is not None:
        return refused
    body = await request.body()
    try:
        data = json.loads(body) if len(body) <= MAX_RECORD_BYTES else None
    except (ValueError, UnicodeDecodeError):
        data = None
    if isinstance(data, dict):
        seed = data.get("seed")
        if isinstance(seed, str) and seed.isascii() and seed.isdigit() and len(seed) <= 19:
            data["seed"] = int(seed)
    try:
        parsed = read_record(json.dumps(data)) if data is not None else read_record(body)
    except ReplayError as error:
        return error_response(422, "bad_record", str(error))
    checked = seen if isinstance(seen, str) and len(seen) <= 64 else None
    verification = await asyncio.to_thread(verify_record, parsed, checked)
    return JSONResponse(verification.to_json())


__all__ = ["REPLAYS_AT_ONCE", "UNKNOWN_GAME", "replay_answer", "replay_body", "router"]
