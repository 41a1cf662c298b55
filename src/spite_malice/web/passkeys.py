"""Passkeys (WebAuthn, through the ``webauthn`` package): a player adds one to protect
itself, and signs in with it on another browser (``web-protocol.md`` 9.2). Each ceremony is
two requests: options (a challenge, kept in the database so that the second request may
reach another server instance) and the browser's answer, checked against them.

The relying party (``SPITE_MALICE_WEBAUTHN_RP_ID``, the site's host name) and the origins
the browser may answer from (``SPITE_MALICE_WEBAUTHN_ORIGINS``, comma separated) come from
the environment (``docs/deploying.md``); without them the relying party is ``localhost``
and any ``http://localhost`` port is accepted, which is what a player running the server on
its own computer needs.

The ``webauthn`` package is imported by the ceremonies themselves: a server's start does not
need it (nearly a twentieth of a CPU-second)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..i18n import N_, _
from .accounts import account_json, charge_address, signed_in
from .errors import error_response
from .requests import current_player, lobby_of, store_of

router = APIRouter(prefix="/api/account/passkey")

RP_ID_ENV = "SPITE_MALICE_WEBAUTHN_RP_ID"
ORIGINS_ENV = "SPITE_MALICE_WEBAUTHN_ORIGINS"
RP_NAME = "Spite & Malice"
REGISTER, SIGN_IN = "register", "sign_in"

PASSKEY_FAILED = N_("This passkey could not be checked. Try again, or use another passkey.")
PASSKEY_UNKNOWN = N_(
    "This passkey does not belong to any player here. Sign in with your password, or "
    "protect your player with this passkey first."
)
CEREMONY_GONE = N_("The passkey request took too long or was already used. Try again.")
PASSKEY_KEPT = N_("This passkey protects your player already.")


class Answer(BaseModel):
    """The browser's answer to a ceremony's options: the ceremony's id and the credential
    (``PublicKeyCredential.toJSON()``'s shape)."""

    model_config = ConfigDict(extra="forbid")

    ceremony: Annotated[StrictStr, Field(max_length=64)]
    credential: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RelyingParty:
    rp_id: str
    origins: tuple[str, ...]
    """The accepted origins; empty: any ``http(s)://localhost:port``."""

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> RelyingParty:
        env = os.environ if environ is None else environ
        rp_id = env.get(RP_ID_ENV, "").strip() or "localhost"
        listed = tuple(o.strip().rstrip("/") for o in env.get(ORIGINS_ENV, "").split(","))
        origins = tuple(o for o in listed if o)
        if not origins and rp_id != "localhost":
            origins = (f"https://{rp_id}",)
        return cls(rp_id, origins)

    def expected_origin(self, request: Request) -> list[str]:
        """The origins a credential may come from, for this request."""
        if self.origins:
            return list(self.origins)
        origin = request.headers.get("origin", "")
        parts = urlsplit(origin)
        if parts.scheme in ("http", "https") and parts.hostname == "localhost":
            return [origin]
        return [f"http://{self.rp_id}"]


def relying_party(request: Request) -> RelyingParty:
    state = request.app.state
    if not hasattr(state, "relying_party"):
        state.relying_party = RelyingParty.from_environment()
    party: RelyingParty = state.relying_party
    return party


def _options(options: Any) -> dict[str, Any]:
    from webauthn import options_to_json

    data: dict[str, Any] = json.loads(options_to_json(options))
    return data


@router.post("/options", response_model=None)
async def register_options(request: Request) -> dict[str, Any] | JSONResponse:
    """Options for ``navigator.credentials.create``: a passkey for this browser's player."""
    from webauthn import generate_registration_options
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    player = await current_player(request)
    refused = charge_address(request)
    if refused is not None:
        return refused
    lobby, credentials = lobby_of(request), store_of(request).credentials
    known = await lobby.run(credentials.passkey_ids, player.id)
    party = relying_party(request)
    options = generate_registration_options(
        rp_id=party.rp_id,
        rp_name=RP_NAME,
        user_name=player.name,
        user_id=player.id.encode(),
        user_display_name=player.name,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(i)) for i in known
        ],
    )
    challenge = bytes_to_base64url(options.challenge)
    ceremony = await lobby.run(credentials.open_ceremony, challenge, REGISTER, player.id)
    return {"ceremony": ceremony, "options": _options(options)}


@router.post("", response_model=None)
async def register(request: Request, body: Answer) -> dict[str, object] | JSONResponse:
    """Keep the passkey the browser made from :func:`register_options`'s options."""
    from webauthn import verify_registration_response
    from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
    from webauthn.helpers.exceptions import WebAuthnException

    player = await current_player(request)
    refused = charge_address(request)
    if refused is not None:
        return refused
    lobby, credentials = lobby_of(request), store_of(request).credentials
    opened = await lobby.run(credentials.close_ceremony, body.ceremony, REGISTER)
    if opened is None or opened[1] != player.id:
        return error_response(410, "ceremony_gone", _(CEREMONY_GONE))
    party = relying_party(request)
    try:
        verified = verify_registration_response(
            credential=body.credential,
            expected_challenge=base64url_to_bytes(opened[0]),
            expected_rp_id=party.rp_id,
            expected_origin=party.expected_origin(request),
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        return error_response(400, "passkey_failed", _(PASSKEY_FAILED))
    kept = await lobby.run(
        credentials.add_passkey,
        player.id,
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
        _transports(body.credential),
    )
    if not kept:
        return error_response(409, "passkey_kept", _(PASSKEY_KEPT))
    return account_json(await lobby.run(credentials.account, player.id))


def _transports(credential: dict[str, Any]) -> list[str] | None:
    response = credential.get("response")
    found = response.get("transports") if isinstance(response, dict) else None
    if isinstance(found, list) and all(isinstance(t, str) for t in found):
        return [str(t)[:32] for t in found[:8]]
    return None


@router.post("/sign-in/options", response_model=None)
async def sign_in_options(request: Request) -> dict[str, Any] | JSONResponse:
    """Options for ``navigator.credentials.get``: any passkey of this site (a discoverable
    credential names its player itself)."""
    from webauthn import generate_authentication_options
    from webauthn.helpers import bytes_to_base64url
    from webauthn.helpers.structs import UserVerificationRequirement

    refused = charge_address(request)
    if refused is not None:
        return refused
    party = relying_party(request)
    options = generate_authentication_options(
        rp_id=party.rp_id, user_verification=UserVerificationRequirement.PREFERRED
    )
    challenge = bytes_to_base64url(options.challenge)
    credentials = store_of(request).credentials
    ceremony = await lobby_of(request).run(credentials.open_ceremony, challenge, SIGN_IN, None)
    return {"ceremony": ceremony, "options": _options(options)}


@router.post("/sign-in", response_model=None)
async def sign_in(request: Request, body: Answer) -> dict[str, str] | JSONResponse:
    """Sign this browser in as the player the passkey belongs to: the answer carries a new
    secret of the player's for this browser."""
    from webauthn import verify_authentication_response
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.exceptions import WebAuthnException

    refused = charge_address(request)
    if refused is not None:
        return refused
    lobby, credentials = lobby_of(request), store_of(request).credentials
    opened = await lobby.run(credentials.close_ceremony, body.ceremony, SIGN_IN)
    if opened is None:
        return error_response(410, "ceremony_gone", _(CEREMONY_GONE))
    credential_id = body.credential.get("id")
    if not isinstance(credential_id, str) or len(credential_id) > 1400:
        return error_response(400, "passkey_failed", _(PASSKEY_FAILED))
    passkey = await lobby.run(credentials.passkey, credential_id)
    if passkey is None:
        return error_response(401, "passkey_unknown", _(PASSKEY_UNKNOWN))
    party = relying_party(request)
    try:
        verified = verify_authentication_response(
            credential=body.credential,
            expected_challenge=base64url_to_bytes(opened[0]),
            expected_rp_id=party.rp_id,
            expected_origin=party.expected_origin(request),
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError):
        return error_response(401, "passkey_failed", _(PASSKEY_FAILED))
    await lobby.run(credentials.used_passkey, credential_id, verified.new_sign_count)
    made = await lobby.run(credentials.sign_in, passkey.player)
    if made is None:
        return error_response(401, "passkey_unknown", _(PASSKEY_UNKNOWN))
    return signed_in(*made)
