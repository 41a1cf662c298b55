"""Connections that never finish a request, and headers without end, under the real
``spite-malice serve`` (its HTTP parser, httptools, and its limits, ``web-protocol.md``
7.1): one stranger holding a thousand connections leaves another client and the health
check answered, a request whose headers never finish is closed, and oversized headers are
refused with 431 however they come."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import suppress
from urllib.parse import urlsplit

import httpx
import pytest

from spite_malice.web.transport import MAX_CONNECTIONS_PER_ADDRESS, MAX_HEADER_BYTES, MAX_HEADERS

from .servers import STRANGER, answer, connect_from, raise_file_limit, serving

FLOOD = 1000
"""Connections the stranger opens (uvicorn's old limit in all was 1,000)."""
CLOSE_WAIT = 60.0
"""Seconds a test waits for the server to close a connection (its limit is 10 s)."""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    raise_file_limit(FLOOD * 2 + 200)
    with serving(tmp_path_factory.mktemp("floods") / "games.db") as url:
        yield url


def _port(base: str) -> int:
    port = urlsplit(base).port
    assert port is not None
    return port


def _honest_requests(base: str) -> None:
    """Another client's requests and the health check, each answered (latency printed)."""
    with httpx.Client(base_url=base, timeout=30) as client:
        for path in ("/api/health", "/api/config", "/api/health"):
            started = time.monotonic()
            status = client.get(path).status_code
            print(
                f"during the flood {path}: {status} in {1000 * (time.monotonic() - started):.0f} ms"
            )
            assert status == 200, (path, status)
        made = client.post("/api/players", json={"name": "Honest"})
        assert made.status_code == 201, made.text


def _closed_by_server(connection: socket.socket, deadline: float | None = None) -> bytes | None:
    """What the server sent before closing ``connection``; None when it kept it open until
    ``deadline`` (monotonic; by default :data:`CLOSE_WAIT` from now; looked at once more,
    without waiting, when it has passed)."""
    deadline = deadline or time.monotonic() + CLOSE_WAIT
    received = b""
    try:
        while True:
            connection.settimeout(max(deadline - time.monotonic(), 0.001))
            chunk = connection.recv(65536)
            if not chunk:
                return received
            received += chunk
    except TimeoutError:
        return None
    except ConnectionError:
        return received  # closed with unread bytes: a reset


@pytest.mark.parametrize("half", [False, True], ids=["silent", "half-header"])
def test_a_thousand_idle_connections_leave_others_answered(base: str, half: bool) -> None:
    """1,000 connections from one address that send nothing (or half a request's header):
    another client's requests and /api/health are answered meanwhile (they were all 503),
    the ones past the address's limit are closed at once (429 to a silent one) and the rest
    when their headers have not come in time (408 to a half header)."""
    port = _port(base)
    held: list[socket.socket] = []
    try:
        for _ in range(FLOOD):
            connection = connect_from(STRANGER, port)
            held.append(connection)
            if half:
                with suppress(OSError):
                    connection.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        _honest_requests(base)
        deadline = time.monotonic() + CLOSE_WAIT  # one wait for them all
        replies = [_closed_by_server(connection, deadline) for connection in held]
    finally:
        for connection in held:
            connection.close()
    assert None not in replies, f"{replies.count(None)} connections were held open"
    if half:
        assert sum(reply.startswith(b"HTTP/1.1 408") for reply in replies if reply) >= 1
    else:
        refused = sum(reply.startswith(b"HTTP/1.1 429") for reply in replies if reply)
        assert refused == FLOOD - MAX_CONNECTIONS_PER_ADDRESS
    _honest_requests(base)


def test_a_byte_every_few_seconds_does_not_hold_a_connection(base: str) -> None:
    """Half a header and then a byte every 2 s: the connection is closed (408) once its
    headers have taken the limit's 10 s, however it trickles."""
    with connect_from(STRANGER, _port(base)) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        connection.settimeout(2.0)
        started = time.monotonic()
        received = b""
        while time.monotonic() - started < CLOSE_WAIT:
            try:
                connection.sendall(b"X")
                chunk = connection.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                break
            received += chunk
            if not chunk:
                break
        assert received.startswith(b"HTTP/1.1 408"), received[:80]


@pytest.mark.parametrize(
    "request_bytes",
    [
        pytest.param(
            b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000, id="100KB-unfinished"
        ),
        pytest.param(
            b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 2_000_000 + b"\r\n\r\n",
            id="2MB-finished",
        ),
        pytest.param(
            b"GET / HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-%d: 1\r\n" % n for n in range(20_000))
            + b"\r\n",
            id="20000-headers",
        ),
        pytest.param(
            b"GET / HTTP/1.1\r\nHost: x\r\n"
            + b"".join(b"X-%d: 1\r\n" % n for n in range(MAX_HEADERS + 1))
            + b"\r\n",
            id="one-header-too-many",
        ),
        pytest.param(
            b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: "
            + b"a" * (MAX_HEADER_BYTES + 1)
            + b"\r\n\r\n",
            id="just-over",
        ),
    ],
)
def test_oversized_headers_are_refused_with_431(base: str, request_bytes: bytes) -> None:
    with connect_from(STRANGER, _port(base)) as connection:
        with suppress(OSError):  # the server may close before all is sent
            connection.sendall(request_bytes)
        reply = _closed_by_server(connection)
    assert reply is not None, "the connection was held open"
    assert reply.startswith(b"HTTP/1.1 431"), reply[:120]


def test_headers_within_the_limits_are_answered(base: str) -> None:
    """An honest request just within the size and count limits is served."""
    headers = {f"X-{n}": "1" for n in range(MAX_HEADERS - 10)}
    headers["X-Pad"] = "a" * (MAX_HEADER_BYTES - 4096)
    response = httpx.get(f"{base}/api/health", headers=headers, timeout=30)
    assert response.status_code == 200


def test_a_streamed_header_is_cut_off_early(base: str) -> None:
    """A header streamed without end (150 MB were) is refused as soon as it passes the
    limit: the server has read at most a little more than the limit when it answers."""
    with connect_from(STRANGER, _port(base)) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        with suppress(OSError):
            while sent < 150_000_000:
                connection.sendall(b"a" * 65536)
                sent += 65536
        reply = answer(connection)
    assert sent < 20_000_000, f"{sent} bytes were taken before the refusal"
    assert reply.startswith(b"HTTP/1.1 431") or reply == b"", reply[:80]
