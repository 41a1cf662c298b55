"""The balancer gives the protection the instances give (deploy/haproxy.cfg, docs/deploying.md
"Limits at the balancer"): one source holding a thousand idle connections gets 256 of them
(the rest refused at once), they are closed when no request comes within 10 s, and another
client's requests and the health check are answered meanwhile.

The instance is a stand-in answering 200 to everything (the health check too); skipped where
HAProxy is missing (.ci/run installs it)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import httpx
import pytest

from spite_malice.cluster.balancer import Balancer
from waiting import wait_for

from .helpers import HAPROXY_CONFIG
from .test_forwarded_for import pytestmark as needs_haproxy

pytestmark = needs_haproxy

FLOOD = 1000
PER_SOURCE = 256
"""deploy/haproxy.cfg's ``sc0_conn_cur`` limit."""
WAIT = 60.0


class Answer(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: object) -> None:
        return


class Quiet(ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        return  # the balancer's checks close their connections without reading the answer


@pytest.fixture(scope="module")
def balancer() -> Iterator[Balancer]:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 3 * FLOOD:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(3 * FLOOD, hard), hard))
    instance = Quiet(("127.0.0.1", 0), Answer)
    threading.Thread(target=instance.serve_forever, daemon=True).start()
    running = Balancer(HAPROXY_CONFIG, [f"127.0.0.1:{instance.server_address[1]}"])
    running.start()
    try:
        wait_for(
            lambda: httpx.get(f"{running.address}/api/health").status_code == 200,
            WAIT,
            0.2,
            "the balancer to find the instance up",
        )
        yield running
    finally:
        running.stop()
        instance.shutdown()


def _closed(connection: socket.socket, deadline: float) -> bool:
    """Whether the balancer closed ``connection`` (or refused it) by ``deadline`` (looked at
    once more, without waiting, when the deadline has passed)."""
    try:
        while True:
            connection.settimeout(max(deadline - time.monotonic(), 0.001))
            if not connection.recv(65536):
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def test_one_source_gets_256_connections_and_others_are_answered(balancer: Balancer) -> None:
    address = urlsplit(balancer.address)
    held: list[socket.socket] = []
    try:
        for _ in range(FLOOD):
            connection = socket.socket()
            connection.bind(("127.0.0.2", 0))
            connection.connect((address.hostname, address.port))
            held.append(connection)
        with httpx.Client(base_url=balancer.address, timeout=WAIT) as client:
            for path in ("/api/health", "/api/config"):
                started = time.monotonic()
                status = client.get(path).status_code
                took = 1000 * (time.monotonic() - started)
                print(f"during the flood {path}: {status} in {took:.0f} ms")
                assert status == 200
        # the ones past the limit were refused at once (the balancer accepts them in its
        # own order, not quite the order they were opened in); the others are closed
        # once they have sent no request for 10 s
        soon = time.monotonic() + 2.0
        kept = [connection for connection in held if not _closed(connection, soon)]
        assert len(kept) == PER_SOURCE
        later = time.monotonic() + WAIT
        assert all(_closed(connection, later) for connection in kept)
    finally:
        for connection in held:
            connection.close()
