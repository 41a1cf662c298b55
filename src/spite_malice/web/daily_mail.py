"""The daily e-mail's requests (web-protocol 2.13): the player's address, given (a link to
confirm it is sent to it), confirmed by that link, and removed; the sending is
``web/daily_summary.py``."""

from __future__ import annotations

import logging
from email.utils import parseaddr
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ..i18n import LANGUAGES, N_, _, current_language
from ..notify import mail
from . import limits
from .daily_summary import DailySummary
from .errors import error_response
from .requests import current_player, lobby_of

log = logging.getLogger(__name__)
router = APIRouter(prefix="/api/email")

MAIL_OFF = N_("E-mail is not set up on this server.")
BAD_ADDRESS = N_("This is not an e-mail address: it should look like name@example.org.")
NO_ADDRESS = N_("You have not given an e-mail address.")
UNKNOWN_LINK = N_("This confirmation link is not known. Ask for a new one in Settings.")


class Address(BaseModel):
    model_config = ConfigDict(extra="forbid")
    address: Annotated[StrictStr, Field(min_length=3, max_length=254)]


def _summary(request: Request) -> DailySummary:
    daily: DailySummary = lobby_of(request).mail
    return daily


def _confirmations(request: Request) -> limits.ConfirmationLimits:
    """This instance's limits on confirmation e-mails, made on first use."""
    state = request.app.state
    if not hasattr(state, "confirmation_limits"):
        state.confirmation_limits = limits.ConfirmationLimits()
    confirmations: limits.ConfirmationLimits = state.confirmation_limits
    return confirmations


def address_problem(address: str) -> str | None:
    name, parsed = parseaddr(address)
    local, at, domain = parsed.partition("@")
    if parsed != address.strip() or name or not at or not local or "." not in domain:
        return _(BAD_ADDRESS)
    return None


@router.get("")
async def mine(request: Request) -> dict[str, Any]:
    player = await current_player(request)
    daily = _summary(request)
    box = await lobby_of(request).run(lobby_of(request).store.email_addresses.of, player.id)
    return {
        "enabled": daily.enabled,
        "address": None if box is None else box.address,
        "confirmed": bool(box and box.confirmed),
    }


@router.post("", status_code=202, response_model=None)
async def give(request: Request, body: Address) -> dict[str, Any] | JSONResponse:
    """Keep the address (unconfirmed) and send it the confirmation link."""
    player = await current_player(request)
    daily = _summary(request)
    if not daily.enabled:
        return error_response(409, "email_off", _(MAIL_OFF))
    address = body.address.strip()
    problem = address_problem(address)
    if problem is not None:
        return error_response(422, "invalid", problem)
    wait = _confirmations(request).refused(player.id, address)
    if wait is not None:
        return error_response(
            429,
            "too_many_requests",
            _(limits.TOO_MANY_CONFIRMATIONS),
            {"Retry-After": str(wait)},
        )
    language = current_language()
    try:
        await daily.ask_confirmation(
            player.id, address, language if language in LANGUAGES else "en"
        )
    except mail.MailFailed as error:
        log.warning("a confirmation e-mail was not sent: %s", error)
        return error_response(
            503, "email_failed", _("The e-mail could not be sent. Try again later.")
        )
    return {"address": address, "confirmed": False}


@router.get("/confirm/{token}", include_in_schema=False)
async def confirm(request: Request, token: str) -> HTMLResponse:
    box = None
    if 0 < len(token) <= 64:
        box = await lobby_of(request).run(lobby_of(request).store.email_addresses.confirm, token)
    if box is None:
        text, status = _(UNKNOWN_LINK), 404
    else:
        text, status = (
            _(
                "Your address is confirmed: you will get a daily e-mail of the games where "
                "it is your turn."
            ),
            200,
        )
    page = (
        f'<!doctype html><html lang="{current_language()}"><head><meta charset="utf-8">'
        f"<title>Spite &amp; Malice</title></head><body><p>{text}</p>"
        '<p><a href="/#/settings">Spite &amp; Malice</a></p></body></html>'
    )
    return HTMLResponse(page, status_code=status)


@router.post("/remove", response_model=None)
async def remove(request: Request) -> Response | JSONResponse:
    player = await current_player(request)
    removed = await lobby_of(request).run(lobby_of(request).store.email_addresses.remove, player.id)
    if not removed:
        return error_response(404, "not_found", _(NO_ADDRESS))
    return Response(status_code=204)
