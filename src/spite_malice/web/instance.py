"""Which instance answered: every HTTP answer carries ``X-Spite-Malice-Instance``, this
server's name in computer-turn leases (the one ``/api/health`` reports), so that whoever
runs several instances behind a balancer can see where a request went (docs/deploying.md)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from .headers import adding_headers

HEADER = b"x-spite-malice-instance"


class InstanceHeader:
    """ASGI middleware adding :data:`HEADER` to every HTTP answer once the server runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lobby = getattr(scope["app"].state, "lobby", None) if "app" in scope else None
        if lobby is None:
            await self.app(scope, receive, send)
            return
        name = str(lobby.instance).encode("latin-1", "replace")
        await self.app(scope, receive, adding_headers(send, ((HEADER, name),)))
