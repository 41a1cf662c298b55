"""The web application: the page, the ``/api`` endpoints and the game WebSocket.

``create_app(db)`` builds it on a store (an SQLite path or a database URL; None for the
default place, see :func:`spite_malice.store.resolve_url`). ``spite-malice serve`` runs it.
"""

from __future__ import annotations

import mimetypes
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from ..i18n import _
from ..store import Store
from . import (
    accounts,
    analyses,
    api,
    daily,
    daily_mail,
    errors,
    language,
    limits,
    passkeys,
    push_api,
    ratings_api,
    replays,
    requests,
    sockets,
    stranger_api,
    turn_api,
    tutorial,
)
from .headers import SecurityHeaders
from .instance import InstanceHeader
from .lobby import Lobby
from .pwa import router as pwa_router
from .static_files import PrecompressedFiles

STATIC = Path(__file__).parent / "static"

# ES modules and the page's assets, whatever the system's MIME table says
for _type, _suffix in (
    ("text/javascript", ".js"),
    ("text/javascript", ".mjs"),
    ("text/css", ".css"),
    ("image/svg+xml", ".svg"),
):
    mimetypes.add_type(_type, _suffix)

_PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Spite &amp; Malice</title></head>
<body><h1>Spite &amp; Malice</h1><p>The page is not built yet; the server is running.</p>
</body></html>
"""


def create_app(db: str | None = None, *, store: Store | None = None) -> FastAPI:
    """The application on the database ``db`` (or on an open ``store``, left open at the end).

    Players are made by the page (``POST /api/players``); there is no default player.
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        opened = store if store is not None else Store.open(db)
        app.state.store = opened
        app.state.lobby = Lobby(opened)
        app.state.lobby.start()
        await app.state.lobby.listen()
        try:
            yield
        finally:
            await app.state.lobby.close()
            if getattr(app.state, "analyses", None) is not None:
                app.state.analyses.close()  # the analysis running in the background stops
            if store is None:
                opened.close()

    # no API description at /openapi.json either: the protocol is docs/web-protocol.md
    app = FastAPI(
        title="Spite & Malice",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.include_router(api.router)
    app.include_router(stranger_api.router)
    app.include_router(language.router)
    app.include_router(tutorial.router)
    app.include_router(replays.router)
    app.include_router(daily.router)
    app.include_router(analyses.router)
    app.include_router(sockets.router)
    app.include_router(pwa_router)
    for router in (accounts.router, passkeys.router, ratings_api.router):  # players that last
        app.include_router(router)
    app.include_router(push_api.router)  # notifications (web/notifications.py)
    app.include_router(turn_api.router)  # games over days (web/turn_based.py)
    app.include_router(daily_mail.router)  # the daily e-mail (web/daily_mail.py)
    STATIC.mkdir(parents=True, exist_ok=True)
    engine = STATIC / "offline" / "build"  # sent gzipped to who takes it (static_files.py)
    app.mount("/static", PrecompressedFiles(directory=STATIC, compressed=engine), name="static")

    errors.install(app, _page)
    app.add_middleware(limits.BodyLimit)
    app.add_middleware(InstanceHeader)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(language.LanguageMiddleware)
    app.state.lookups = limits.RateLimit()

    @app.exception_handler(requests.PlayerRequired)
    async def player_required(request: Request, error: requests.PlayerRequired) -> JSONResponse:
        return errors.error_response(401, "no_player", _(requests.NO_PLAYER))

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return _page()

    @app.get("/join/{code}", include_in_schema=False)
    async def join_page(code: str) -> Response:
        return _page()

    return app


def _page() -> Response:
    index = STATIC / "index.html"
    if index.is_file():
        return FileResponse(index, media_type="text/html")
    return HTMLResponse(_PLACEHOLDER)
