"""The browser's protections on every answer: what the page may load and run (a Content
Security Policy: only this server's own scripts, styles, images, sounds and sockets, no
inline script), that no other site may show it in a frame (a hidden frame could trick a
click on "give up" or "resign"), that the browser never guesses a file's type, and that
leaving the page never tells another site its address (an invitation's ``/join/CODE``)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "media-src 'self'",
        "connect-src 'self'",  # the game's WebSocket is this same address
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
"""Added to every HTTP answer that does not set the header itself."""


class SecurityHeaders:
    """ASGI middleware adding :data:`HEADERS` to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        await self.app(scope, receive, adding_headers(send, HEADERS))


def adding_headers(send: Send, headers: tuple[tuple[bytes, bytes], ...]) -> Send:
    """``send`` with ``headers`` added to the answer's start, each unless the answer sets
    that header itself (the one place a middleware of ours adds response headers)."""

    async def added(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", ())}
            extra = [(name, value) for name, value in headers if name not in present]
            message = {**message, "headers": [*message.get("headers", ()), *extra]}
        await send(message)

    return added


__all__ = ["CONTENT_SECURITY_POLICY", "HEADERS", "SecurityHeaders", "adding_headers"]
