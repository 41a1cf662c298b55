"""The page's language: its catalog as JSON, and every HTTP request answered in its language.

``GET /api/language`` says which language the browser asked for (its ``Accept-Language``)
and lists the languages by their own names; ``GET /api/language/{lang}`` is that language's
catalog for the page (:func:`spite_malice.i18n.page_catalog`: the translations of the
page's scripts and the plural forms, see docs/translating.md), with every rank and card word
the page shows in that language (``cards``: :func:`spite_malice.i18n.cards.page_card_words`;
the page holds none of its own, English included). :class:`LanguageMiddleware`
runs each HTTP request under ``use_language(negotiate(Accept-Language))``, so any ``_()`` in
a handler speaks the requester's language (the page sends its language in that header on
every fetch). WebSockets choose theirs per connection (``?lang=``), in the socket's code.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..i18n import LANGUAGE_NAMES, LANGUAGES, _, negotiate, page_catalog, use_language
from ..i18n.cards import page_card_words
from .errors import error_response

router = APIRouter(prefix="/api")


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class LanguageMiddleware:
    """ASGI middleware: each HTTP request runs in the language of its ``Accept-Language``
    (English when it names none of ours), and its answer says so in ``Content-Language``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        language = negotiate(_header(scope, b"accept-language"))

        async def marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (key, value)
                    for key, value in message.get("headers", ())
                    if key.lower() != b"content-language"
                ]
                headers.append((b"content-language", language.encode("ascii")))
                message = {**message, "headers": headers}
            await send(message)

        with use_language(language):
            await self.app(scope, receive, marked)


@router.get("/language")
async def languages(request: Request) -> dict[str, Any]:
    """The language the browser asks for and every language offered, by its own name."""
    return {
        "language": negotiate(request.headers.get("accept-language")),
        "languages": [{"code": code, "name": LANGUAGE_NAMES[code]} for code in LANGUAGES],
    }


@router.get("/language/{lang}", response_model=None)
async def language_catalog(lang: str) -> dict[str, Any] | JSONResponse:
    """``lang``'s catalog for the page and its card words; 404 ``unknown_language`` for a
    code we do not speak."""
    if lang not in LANGUAGES:
        names = ", ".join(LANGUAGES)
        message = _("There is no such language. The languages are: {names}.", names=names)
        return error_response(404, "unknown_language", message)
    with use_language(lang):
        cards = page_card_words()
    return {**page_catalog(lang), "cards": cards}
