"""One shape for every API error: ``{"error": {"code": ..., "message": ...}}`` (web-protocol 4.5).

The framework's own answers (a body that is not JSON, an unknown ``/api`` path, a wrong
method, a failure inside a handler) are rewritten into that shape here; a browser asking for
a page the server does not have gets the game's own page, whose router shows its "not found".
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from ..engine.errors import quote
from ..i18n import N_, _, negotiate, use_language
from ..store import StoreError, StoreUnavailable
from ..table import TableError
from . import validation

log = logging.getLogger(__name__)

STATUS = {
    "invalid": 422,
    "unknown_room": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "too_large": 413,
    "too_many_requests": 429,
    "too_many_invitations": 409,
    "store_unavailable": 503,
    "damaged_room": 500,
    "internal": 500,
}
"""HTTP status of each error code an endpoint may answer."""

DAMAGED = N_(
    "This room's saved game cannot be read, so it cannot be played. Other rooms are not affected."
)
"""Marked only: say it with ``_(DAMAGED)``."""
INTERNAL = N_("Something went wrong on the server; the game was not changed.")
UNAVAILABLE = N_("The game's database cannot be used now; try again soon.")


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """An API error in the documented shape."""
    body = {"error": {"code": code, "message": message}}
    return JSONResponse(body, status_code=status, headers=headers)


def table_error_response(error: TableError) -> JSONResponse:
    """A refused request (a room's or the table's :class:`TableError`) as an API error."""
    return error_response(STATUS.get(error.code, 400), error.code, error.message)


def describe_validation(error: RequestValidationError) -> tuple[str, str]:
    """(code, message) for a request that fails validation: a plain sentence for each field
    that is wrong (:mod:`.validation`), quoting little of the input."""
    problems = error.errors()
    if any(item.get("type") == "json_invalid" for item in problems):
        return "invalid", _("The request body is not JSON.")
    sentences = validation.describe(
        problems, skip=1, whole=_("The request body must be a JSON object.")
    )
    # TRANSLATORS: {problems} is one or more sentences, each saying what is wrong with a field
    return "invalid", _("The request is not valid. {problems}", problems=" ".join(sentences))


def install(app: FastAPI, page: Callable[[], Response]) -> None:
    """Give ``app`` the handlers that answer every error in the documented shape; ``page``
    is the game's HTML page, answered for unknown non-API paths."""

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        code, message = describe_validation(error)
        return error_response(STATUS[code], code, message)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> Response:
        path = request.url.path
        if error.status_code == 404:
            if not _is_api(path) and request.method in ("GET", "HEAD"):
                return page()
            return error_response(404, "not_found", _("There is no {path} here.", path=quote(path)))
        if error.status_code == 405:
            return error_response(
                405,
                "method_not_allowed",
                # TRANSLATORS: {method} is an HTTP method (GET, POST ...), {path} a URL path
                _(
                    "{method} is not allowed on {path}.",
                    method=request.method,
                    path=quote(path),
                ),
                dict(error.headers or {}),
            )
        if error.status_code == 400:  # FastAPI's "There was an error parsing the body"
            return error_response(422, "invalid", _("The request body is not JSON."))
        message = quote(str(error.detail))[1:-1]
        return error_response(error.status_code, "invalid", message, dict(error.headers or {}))

    @app.exception_handler(TableError)
    async def refused(request: Request, error: TableError) -> JSONResponse:
        return table_error_response(error)

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, error: StoreUnavailable) -> JSONResponse:
        return error_response(503, "store_unavailable", _(UNAVAILABLE))

    @app.exception_handler(StoreError)
    async def damaged(request: Request, error: StoreError) -> JSONResponse:
        log.error("unreadable data behind %s: %s", request.url.path, error)
        return error_response(500, "damaged_room", _(DAMAGED))

    @app.exception_handler(Exception)
    async def internal(request: Request, error: Exception) -> JSONResponse:
        log.exception("internal error on %s", request.url.path)
        # this handler runs outside every middleware (Starlette's server-error layer), so it
        # reads the request's language itself
        with use_language(negotiate(request.headers.get("accept-language"))):
            return error_response(500, "internal", _(INTERNAL))


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith(("/api/", "/ws/", "/static/"))


__all__ = [
    "DAMAGED",
    "INTERNAL",
    "STATUS",
    "UNAVAILABLE",
    "error_response",
    "install",
    "table_error_response",
]
