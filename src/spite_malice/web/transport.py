"""The HTTP and WebSocket code ``spite-malice serve`` runs under uvicorn, with the limits a
stranger meets before the application sees a byte (``web-protocol.md`` 7.1).

**HTTP** is parsed by ``httptools`` (installed with ``uvicorn[standard]``, uvicorn's own
choice when present). uvicorn bounds neither how long a request's headers may take nor, with
this parser, how large they may be (its ``h11_max_incomplete_event_size`` applies to ``h11``
only): a connection that sends nothing, or half a header and a byte now and then, is held
for ever, and a header of any size is buffered. :class:`GuardedHttpProtocol` adds both:

- a request's line and headers must arrive within :data:`HEADER_SECONDS` of the connection
  opening, or of the request's first byte on a kept-alive one: else the connection is closed
  (with 408 when part of a request came);
- they may have :data:`MAX_HEADER_BYTES` bytes and :data:`MAX_HEADERS` headers: more is
  answered 431 and the connection closed, as soon as the bytes pass the limit (nothing more
  is buffered);
- one address may hold :data:`MAX_CONNECTIONS_PER_ADDRESS` connections at once (an IPv6
  address counts by its /64, :func:`limits.address_key`); the next one is answered 429 and
  closed at once. A trusted balancer's connections (``--trusted-proxies``) are not counted
  by address: they carry everyone's, and the balancer limits each source itself
  (deploy/haproxy.cfg);
- past :data:`MAX_CONNECTIONS` connections in all, requests other than ``/api/health`` are
  answered 503, so that the health check always has :data:`HEALTH_ROOM` connections to
  itself; past both, a new connection is answered 503 and closed.

**WebSockets** use uvicorn's sans-I/O ``websockets`` protocol. Measured with a trivial echo
on this stack (``python benchmarks/ws_floor.py``, docs/deploying.md "Current figures";
every variant in docs/measurements/2026-12-04-server-load-rounds.md), it costs a server
about a third less CPU a message than the legacy ``websockets`` one, and less than
``wsproto``. Used as it is, it holds a handshake open unanswered when the request cannot
be parsed (a request line over 8 KB, too many or too long headers): the ``websockets``
library writes its refusal (414, 431) into the connection's output, but uvicorn only sends
that output once it sees a request or a parse error of a frame. :class:`GameSocketProtocol`
sends it and closes the connection, as the legacy protocol did (with 400 for everything).
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from collections.abc import Iterable
from typing import Any, ClassVar

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .limits import MAX_FRAME, address_key

HEADER_SECONDS = 10.0
"""Seconds a request's line and headers may take to arrive."""
MAX_HEADER_BYTES = 16 * 1024
"""Bytes of a request's line and headers (a browser's are under 2 KB here: no cookies)."""
MAX_HEADERS = 100
"""Headers one request may have."""
MAX_CONNECTIONS_PER_ADDRESS = 256
"""Connections one client address may hold at once: 30 players behind one address (a class)
with a game socket and up to 6 kept-alive HTTP connections each stay well within it."""
MAX_CONNECTIONS = 4000
"""Connections in all past which requests other than ``/api/health`` are answered 503."""
HEALTH_ROOM = 100
"""Connections beyond :data:`MAX_CONNECTIONS` kept for the health check (uvicorn's own
``limit_concurrency`` is the sum)."""
HEALTH_PATH = "/api/health"
RETRY_SECONDS = 10
"""What ``Retry-After`` says when a connection is refused."""


def _answer(status: bytes, text: str, retry: bool = False) -> bytes:
    body = text.encode()
    lines = [
        b"HTTP/1.1 " + status,
        b"content-type: text/plain; charset=utf-8",
        b"content-length: " + str(len(body)).encode(),
        b"connection: close",
    ]
    if retry:
        lines.append(b"retry-after: " + str(RETRY_SECONDS).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


TOO_MANY_CONNECTIONS = _answer(
    b"429 Too Many Requests", "Too many connections from this address at once.", retry=True
)
SERVER_FULL = _answer(b"503 Service Unavailable", "The server is full; try again.", retry=True)
HEADERS_TOO_LARGE = _answer(
    b"431 Request Header Fields Too Large",
    f"The request's headers are over the limit of {MAX_HEADER_BYTES // 1024} KB "
    f"or {MAX_HEADERS} headers.",
)
HEADERS_TOO_SLOW = _answer(
    b"408 Request Timeout", f"The request's headers did not come within {HEADER_SECONDS:g} s."
)


class ConnectionGuard:
    """The connections of one server, counted by client address (:func:`limits.address_key`)
    and in all; a trusted balancer's are counted in all only."""

    def __init__(
        self,
        trusted: Iterable[str] = (),
        per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
        total: int = MAX_CONNECTIONS + HEALTH_ROOM,
    ) -> None:
        self.trusted = [ipaddress.ip_network(entry, strict=False) for entry in trusted]
        self.per_address = per_address
        self.total = total
        self.by_address: Counter[str] = Counter()
        self._open: dict[asyncio.BaseTransport, str | None] = {}

    def _is_trusted(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.trusted)

    def admit(self, transport: asyncio.BaseTransport, host: str | None) -> bytes | None:
        """Count a new connection from ``host``; None when it may stay, else the answer to
        write before closing it (it is then not counted)."""
        if len(self._open) >= self.total:
            return SERVER_FULL
        key = None if host is None or self._is_trusted(host) else address_key(host)
        if key is not None:
            if self.by_address[key] >= self.per_address:
                return TOO_MANY_CONNECTIONS
            self.by_address[key] += 1
        self._open[transport] = key
        return None

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Forget a closed connection (again: nothing happens)."""
        if transport not in self._open:
            return
        key = self._open.pop(transport)
        if key is not None:
            self.by_address[key] -= 1
            if self.by_address[key] <= 0:
                del self.by_address[key]

    @property
    def connections(self) -> int:
        return len(self._open)


class _TooManyHeaders(Exception):
    """Raised from the parser's header callback past :data:`MAX_HEADERS`."""


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's ``httptools`` protocol with a header timeout, a header size limit and the
    connection counts of :class:`ConnectionGuard` (see the module's text)."""

    guard: ClassVar[ConnectionGuard] = ConnectionGuard()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._awaiting_headers = True
        self._header_bytes = 0
        self._header_count = 0
        self._tail = b""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        refusal = self.guard.admit(transport, self.client[0] if self.client else None)
        if refusal is not None:
            transport.write(refusal)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self.transport)
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(HEADER_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            if self._header_bytes:
                self.transport.write(HEADERS_TOO_SLOW)
            self.transport.close()

    def _refuse_headers(self) -> None:
        self._disarm()
        self._awaiting_headers = False
        self.transport.write(HEADERS_TOO_LARGE)
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self._awaiting_headers:
            self._arm()  # a kept-alive connection's next request (even blank lines) is timed
            window = self._tail + data
            end = window.find(b"\r\n\r\n")
            arrived = len(data) if end < 0 else end + 4 - len(self._tail)
            if self._header_bytes + arrived > MAX_HEADER_BYTES:
                self._refuse_headers()
                return
            self._header_bytes += len(data)
            self._tail = window[-3:]
        self._unset_keepalive_if_required()
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            if self._should_upgrade():
                self.handle_websocket_upgrade()
            else:
                self._unsupported_upgrade_warning()
        except httptools.HttpParserError:
            if self._header_count > MAX_HEADERS:
                self._refuse_headers()
                return
            message = "Invalid HTTP request received."
            self.logger.warning(message)
            self.send_400_response(message)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > MAX_HEADERS:
            raise _TooManyHeaders
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._disarm()
        self._awaiting_headers = False
        # requests other than the health check are answered 503 past MAX_CONNECTIONS
        path = httptools.parse_url(self.url).path if self.url else b""
        health = path == HEALTH_PATH.encode()
        self.limit_concurrency = MAX_CONNECTIONS + (HEALTH_ROOM if health else 0)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        # what comes next is the next request's line and headers
        self._awaiting_headers = True
        self._header_bytes = 0
        self._header_count = 0
        self._tail = b""


class GameSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol, answering a handshake it could not parse, and
    giving its connection back to the :class:`ConnectionGuard` when it closes."""

    guard: ClassVar[ConnectionGuard] = GuardedHttpProtocol.guard

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if (
            not self.handshake_initiated
            and self.conn.handshake_exc is not None
            and not self.transport.is_closing()
        ):
            # the refusal the websockets library wrote (or its end of stream): sent, closed
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self.transport)
        super().connection_lost(exc)


def guarded_protocols(
    trusted: Iterable[str],
) -> tuple[type[GuardedHttpProtocol], type[GameSocketProtocol]]:
    """The HTTP and WebSocket protocol classes of one server, sharing one guard that trusts
    the balancers ``trusted`` (not counted by address)."""
    guard = ConnectionGuard(trusted)
    http = type("ServerHttpProtocol", (GuardedHttpProtocol,), {"guard": guard})
    socket = type("ServerSocketProtocol", (GameSocketProtocol,), {"guard": guard})
    return http, socket


def uvicorn_limits(trusted_proxies: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run`` that bound what a client may send before the
    application sees it (``transport``: the header timeout and size, the connections of an
    address and in all), the WebSocket frame size and the keep-alive time; and whose
    ``X-Forwarded-For`` gives the player's address (``trusted_proxies``; none by default)."""
    http, socket = guarded_protocols(trusted_proxies)
    return {
        # httptools with our header timeout and limits; uvicorn's sans-I/O WebSocket
        # protocol (its cheapest), which refuses a request line over 8 KB at once (414)
        "http": http,
        "ws": socket,
        "ws_max_size": MAX_FRAME,
        "h11_max_incomplete_event_size": 8 * 1024,
        "limit_concurrency": MAX_CONNECTIONS + HEALTH_ROOM,
        "timeout_keep_alive": 5,
        "proxy_headers": bool(trusted_proxies),
        "forwarded_allow_ips": list(trusted_proxies),
    }


__all__ = [
    "HEADER_SECONDS",
    "HEALTH_ROOM",
    "MAX_CONNECTIONS",
    "MAX_CONNECTIONS_PER_ADDRESS",
    "MAX_HEADERS",
    "MAX_HEADER_BYTES",
    "ConnectionGuard",
    "GameSocketProtocol",
    "GuardedHttpProtocol",
    "guarded_protocols",
    "uvicorn_limits",
]
