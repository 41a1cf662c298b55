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
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from ..store import Store, StoreUnavailable
from . import api, sockets
from .lobby import Lobby

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


def create_app(
    db: str | None = None, *, store: Store | None = None, player: str | None = None
) -> FastAPI:
    """The application on the database ``db`` (or on an open ``store``, left open at the end).

    ``player`` is the default player id (``player`` when None).
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
            if store is None:
                opened.close()

    app = FastAPI(title="Spite & Malice", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.default_player = player or "player"
    app.include_router(api.router)
    app.include_router(sockets.router)
    STATIC.mkdir(parents=True, exist_ok=True)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        parts = []
        for item in error.errors()[:3]:
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            parts.append(f"{where or 'body'}: {item.get('msg', 'invalid')}")
        return api.error_response(422, "invalid", "invalid request: " + "; ".join(parts))

    @app.exception_handler(StoreUnavailable)
    async def store_unavailable(request: Request, error: StoreUnavailable) -> JSONResponse:
        return api.error_response(
            503, "store_unavailable", "The game's database cannot be used now; try again soon."
        )

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
