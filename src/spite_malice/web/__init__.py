"""The browser game: a FastAPI server holding every game, a WebSocket per seat, and the page
in ``static/``. See ``docs/web-protocol.md``."""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
