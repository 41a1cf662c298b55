"""Notifications over HTTP (``web-protocol.md`` 2.11): the server's Web Push key, and the
subscription of a browser whose player turned notifications on in Settings (and off)."""

from __future__ import annotations

import asyncio
import base64
import binascii
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..i18n import LANGUAGES, N_, _, current_language
from ..notify import endpoints
from ..notify.endpoints import INSECURE_ENV as INSECURE_ENV  # the name the tests set
from ..store import StoreUnavailable
from ..store.notifications import PushSubscription
from .errors import error_response
from .requests import current_player, lobby_of, store_of
from .room_common import store_unavailable

router = APIRouter(prefix="/api/push")

BAD_ENDPOINT = N_("The push subscription's endpoint must be an https address.")
INTERNAL_ENDPOINT = N_(
    "The push subscription's endpoint must be a push service on the internet, not an address "
    "of this server's own network."
)
BAD_KEYS = N_("The push subscription's keys are not the ones a browser gives.")
NOTHING_TO_FORGET = N_("This browser has no notifications turned on.")


class Keys(BaseModel):
    model_config = ConfigDict(extra="ignore")
    p256dh: Annotated[StrictStr, Field(min_length=1, max_length=256)]
    auth: Annotated[StrictStr, Field(min_length=1, max_length=64)]


class Subscription(BaseModel):
    """A browser's ``PushSubscription.toJSON()`` (``expirationTime`` is not kept)."""

    model_config = ConfigDict(extra="ignore")
    endpoint: Annotated[StrictStr, Field(min_length=1, max_length=1024)]
    keys: Keys


class Forget(BaseModel):
    model_config = ConfigDict(extra="ignore")
    endpoint: Annotated[StrictStr, Field(min_length=1, max_length=1024)] | None = None


def _decoded(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def endpoint_problem(endpoint: str) -> str | None:
    """Why a page's push endpoint is not taken (None when it is)."""
    parts = urlsplit(endpoint)
    plain = endpoints.insecure() and parts.scheme == "http"
    if (parts.scheme != "https" and not plain) or not parts.hostname:
        return _(BAD_ENDPOINT)
    return None


async def internal_problem(endpoint: str) -> str | None:
    """Why an endpoint on this server's own network is not taken (None when it is not one,
    or the test flag is set): the server would post to it (``notify/endpoints.py``)."""
    if await asyncio.to_thread(endpoints.internal_endpoint, endpoint):
        return _(INTERNAL_ENDPOINT)
    return None


def keys_problem(keys: Keys) -> str | None:
    """Why a subscription's keys are not taken: a P-256 point (65 bytes, uncompressed) and
    a 16-byte secret (RFC 8291)."""
    point, secret = _decoded(keys.p256dh), _decoded(keys.auth)
    if point is None or len(point) != 65 or point[0] != 4 or secret is None or len(secret) != 16:
        return _(BAD_KEYS)
    return None


@router.get("/key")
async def server_key(request: Request) -> dict[str, Any]:
    """The server's VAPID public key: the page's ``applicationServerKey``."""
    try:
        key = await lobby_of(request).notifier.public_key()
    except StoreUnavailable:
        raise store_unavailable() from None
    return {"public_key": key}


@router.post("/subscriptions", status_code=201, response_model=None)
async def subscribe(request: Request, body: Subscription) -> dict[str, Any] | JSONResponse:
    """Keep this browser's subscription for its player, in the language it reads now."""
    player = await current_player(request)
    problem = (
        endpoint_problem(body.endpoint)
        or keys_problem(body.keys)
        or await internal_problem(body.endpoint)
    )
    if problem is not None:
        return error_response(422, "invalid", problem)
    language = current_language()
    subscription = PushSubscription(
        player.id,
        body.endpoint,
        body.keys.p256dh,
        body.keys.auth,
        language if language in LANGUAGES else "en",
    )
    try:
        await lobby_of(request).run(store_of(request).notifications.subscribe, subscription)
    except StoreUnavailable:
        raise store_unavailable() from None
    return {"subscribed": True, "language": subscription.language}


@router.post("/unsubscribe", response_model=None)
async def unsubscribe(request: Request, body: Forget) -> Response | JSONResponse:
    """Forget this browser's subscription (every one of the player's without an endpoint)."""
    player = await current_player(request)
    try:
        forgotten = await lobby_of(request).run(
            store_of(request).notifications.unsubscribe, player.id, body.endpoint
        )
    except StoreUnavailable:
        raise store_unavailable() from None
    if not forgotten:
        return error_response(404, "not_found", _(NOTHING_TO_FORGET))
    return Response(status_code=204)
