"""Players that last (``web-protocol.md`` 9.1): a player protects itself with a sign-in name
and a password, or a passkey (:mod:`.passkeys`), and signs in on another browser, which is
given a secret of its own for the page to keep as it keeps its first one.

Every request here is charged to the client's address (:data:`ACCOUNT_BURST`,
:data:`ACCOUNT_PER_MINUTE`), and a wrong password to its sign-in name too
(:data:`WRONG_BURST`, :data:`WRONG_PER_MINUTE`), so that guessing one player's password
from many addresses is as slow as from one. Passwords and secrets travel only in request
and answer bodies, never in a URL, and are never logged; a password is kept as its Argon2
hash."""

from __future__ import annotations

import re
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..i18n import N_, _
from ..store import Player
from ..store.credentials import Account, LoginTaken
from . import limits
from .errors import error_response
from .requests import current_player, lobby_of, store_of

router = APIRouter(prefix="/api/account")

HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
"""Argon2id with OWASP's first recommended parameters (19 MiB, 2 passes, 1 lane): about a
tenth of a second of one core a hash, so a server on two cores hashes for many players at
once; the rate limits below bound how many guesses that buys anyone."""
ACCOUNT_BURST = 20
ACCOUNT_PER_MINUTE = 10
"""Account requests one client address may make at once, then a minute."""
WRONG_BURST = 10
WRONG_PER_MINUTE = 3
"""Wrong passwords one sign-in name may be given at once, then a minute."""
LOGIN_PATTERN = re.compile(r"[^\W_][\w.\-]{2,39}", re.UNICODE)
"""A sign-in name: 3 to 40 letters, digits, dots, dashes or underscores, starting with a
letter or a digit."""
PASSWORD_MIN = 8
PASSWORD_MAX = 200

NO_PLAYER = N_("This needs your player: reload the page, which makes one for this browser.")
BAD_LOGIN = N_(
    "Choose a sign-in name of 3 to 40 letters, digits, dots, dashes or underscores, "
    "starting with a letter or a digit."
)
BAD_PASSWORD = N_("Choose a password of 8 to 200 characters.")
LOGIN_TAKEN = N_("This sign-in name is taken: choose another.")
WRONG_CURRENT = N_("Your current password is not right.")
WRONG_SIGN_IN = N_("The sign-in name or the password is not right.")
TOO_MANY_ATTEMPTS = N_("Too many sign-in attempts; wait a minute and try again.")


class ProtectWithPassword(BaseModel):
    """``POST /api/account/password``: the sign-in name and the new password; ``current``,
    the password now, when the player has one."""

    model_config = ConfigDict(extra="forbid")

    login: Annotated[StrictStr, Field(max_length=256)]
    password: Annotated[StrictStr, Field(max_length=1024)]
    current: Annotated[StrictStr, Field(max_length=1024)] | None = None


class SignIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    login: Annotated[StrictStr, Field(max_length=256)]
    password: Annotated[StrictStr, Field(max_length=1024)]


def _limit(request: Request, name: str, burst: int, per_minute: float) -> limits.RateLimit:
    state = request.app.state
    attribute = f"account_limit_{name}"
    if not hasattr(state, attribute):
        setattr(state, attribute, limits.RateLimit(burst, per_minute))
    limit: limits.RateLimit = getattr(state, attribute)
    return limit


def too_many(limit: limits.RateLimit, key: str) -> JSONResponse:
    retry = str(limit.retry_after(key))
    return error_response(429, "too_many_requests", _(TOO_MANY_ATTEMPTS), {"Retry-After": retry})


def charge_address(request: Request) -> JSONResponse | None:
    """Charge the client's address one account request; a 429 when it has none left."""
    limit = _limit(request, "address", ACCOUNT_BURST, ACCOUNT_PER_MINUTE)
    client = limits.client_address(request.scope)
    if limit.is_blocked(client):
        return too_many(limit, client)
    limit.charge(client)
    return None


def account_json(account: Account) -> dict[str, object]:
    return {
        "login": account.login,
        "password": account.password,
        "passkeys": account.passkeys,
        "protected": account.protected,
    }


def signed_in(player: Player, secret: str) -> dict[str, str]:
    """The answer of a sign-in: the player and the browser's new secret (given only here)."""
    return {"id": player.id, "name": player.name, "secret": secret}


@router.get("")
async def account(request: Request) -> dict[str, object]:
    """How this browser's player is protected."""
    player = await current_player(request)
    store = store_of(request)
    return account_json(await lobby_of(request).run(store.credentials.account, player.id))


def _check_password(password_hash: str | None, password: str) -> bool:
    if password_hash is None:
        return False
    try:
        return HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


@router.post("/password", response_model=None)
async def protect_with_password(
    request: Request, body: ProtectWithPassword
) -> dict[str, object] | JSONResponse:
    """Protect this browser's player with a sign-in name and a password (or change them)."""
    player = await current_player(request)
    refused = charge_address(request)
    if refused is not None:
        return refused
    login = body.login.strip()
    if not LOGIN_PATTERN.fullmatch(login):
        return error_response(422, "invalid", _(BAD_LOGIN))
    if not PASSWORD_MIN <= len(body.password) <= PASSWORD_MAX:
        return error_response(422, "invalid", _(BAD_PASSWORD))
    lobby, credentials = lobby_of(request), store_of(request).credentials
    old = await lobby.run(credentials.password_hash, player.id)
    if old is not None and not await lobby.run(_check_password, old, body.current or ""):
        return error_response(403, "wrong_password", _(WRONG_CURRENT))
    new_hash = await lobby.run(HASHER.hash, body.password)
    try:
        await lobby.run(credentials.set_password, player.id, login, new_hash)
    except LoginTaken:
        return error_response(409, "login_taken", _(LOGIN_TAKEN))
    return account_json(await lobby.run(credentials.account, player.id))


@router.post("/sign-in", response_model=None)
async def sign_in(request: Request, body: SignIn) -> dict[str, str] | JSONResponse:
    """Sign this browser in as the player protected by this name and password: the answer
    carries a new secret of the player's for this browser."""
    refused = charge_address(request)
    if refused is not None:
        return refused
    wrong = _limit(request, "login", WRONG_BURST, WRONG_PER_MINUTE)
    key = body.login.strip().casefold()[:64]
    if wrong.is_blocked(key):
        return too_many(wrong, key)
    lobby, credentials = lobby_of(request), store_of(request).credentials
    found = await lobby.run(credentials.login, body.login)
    if found is None or not await lobby.run(_check_password, found[1], body.password):
        wrong.charge(key)
        return error_response(401, "wrong_sign_in", _(WRONG_SIGN_IN))
    player_id, password_hash = found
    if HASHER.check_needs_rehash(password_hash):
        stronger = await lobby.run(HASHER.hash, body.password)
        await lobby.run(credentials.rehash, player_id, stronger)
    made = await lobby.run(credentials.sign_in, player_id)
    if made is None:
        return error_response(401, "wrong_sign_in", _(WRONG_SIGN_IN))
    return signed_in(*made)
