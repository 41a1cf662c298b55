"""Ratings over HTTP (``web-protocol.md`` 9.3): the player's own ratings with their history
(the statistics page's chart), and each pool's leaderboard."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..i18n import N_, _
from ..ratings.policy import (
    LEADERBOARD_DAYS,
    LEVEL_RATINGS,
    POOLS,
    PROVISIONAL_DEVIATION,
    Rating,
)
from .errors import error_response
from .requests import current_player, lobby_of, store_of

router = APIRouter(prefix="/api")
UNKNOWN_POOL = N_(
    "There is no such rating. The ratings are standard, quick, turn-based and computer."
)


def rating_json(rating: Rating) -> dict[str, Any]:
    return {
        "rating": round(rating.rating, 1),
        "deviation": round(rating.deviation, 1),
        "volatility": round(rating.volatility, 6),
        "games": rating.games,
        "provisional": rating.provisional,
        "shown": rating.shown,
    }


def _mine(store: Any, player: str) -> list[dict[str, Any]]:
    ratings = store.ratings.ratings_of(player)
    pools = []
    for pool in POOLS:
        if pool not in ratings:
            continue
        history = store.ratings.history(player, pool)
        pools.append(
            {"pool": pool}
            | rating_json(ratings[pool])
            | {
                "history": [
                    {
                        "at": point.rated_at.isoformat(),
                        "rating": round(point.rating, 1),
                        "deviation": round(point.deviation, 1),
                    }
                    for point in history
                ]
            }
        )
    return pools


@router.get("/ratings")
async def my_ratings(request: Request) -> dict[str, Any]:
    """The ratings of this browser's player, each with its history, oldest first (the
    pools it never played are left out), and the computer levels' fixed ratings."""
    player = await current_player(request)
    store = store_of(request)
    pools = await lobby_of(request).run(_mine, store, player.id)
    return {
        "pools": pools,
        "provisional_deviation": PROVISIONAL_DEVIATION,
        "levels": {level: value.rating for level, value in LEVEL_RATINGS.items()},
    }


@router.get("/leaderboard/{pool}", response_model=None)
async def leaderboard(request: Request, pool: str) -> dict[str, Any] | JSONResponse:
    """The pool's best established players who played it lately, best first."""
    if pool not in POOLS:
        return error_response(404, "not_found", _(UNKNOWN_POOL))
    store = store_of(request)
    rows = await lobby_of(request).run(store.ratings.leaderboard, pool)
    return {
        "pool": pool,
        "days": LEADERBOARD_DAYS,
        "provisional_deviation": PROVISIONAL_DEVIATION,
        "players": [
            {"rank": rank, "name": row.name, "rating": round(row.rating), "games": row.games}
            for rank, row in enumerate(rows, start=1)
        ],
    }
