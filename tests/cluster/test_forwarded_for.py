"""The balancer tells the instances each player's own address, and never what a client
wrote itself: the instances' limits (room-code guesses) count by that address, so one
player's guesses never lock out the others, and nobody can pose as many addresses by
sending X-Forwarded-For (deploy/haproxy.cfg's ``option forwardfor`` after deleting the
client's header).

The instance here is a stand-in that answers every request with the X-Forwarded-For it
received; skipped where HAProxy is missing (.ci/run installs it)."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from spite_malice.cluster.balancer import Balancer
from waiting import wait_for

from .helpers import HAPROXY_CONFIG

pytestmark = pytest.mark.skipif(
    shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists(),
    reason="needs HAProxy",
)

DEADLINE_SECONDS = 30.0


class Echo(BaseHTTPRequestHandler):
    """Answers 200 with the request's X-Forwarded-For (the health check is a 200 too)."""

    def do_GET(self) -> None:
        body = json.dumps({"forwarded": self.headers.get_all("X-Forwarded-For") or []})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture(scope="module")
def balancer() -> Iterator[Balancer]:
    instance = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=instance.serve_forever, daemon=True).start()
    running = Balancer(HAPROXY_CONFIG, [f"127.0.0.1:{instance.server_address[1]}"])
    running.start()
    try:
        wait_for(  # its checks pass
            lambda: httpx.get(f"{running.address}/api/config").status_code == 200,
            DEADLINE_SECONDS,
            0.2,
            "the balancer to find the instance up",
        )
        yield running
    finally:
        running.stop()
        instance.shutdown()


def forwarded(balancer: Balancer, source: str = "127.0.0.1", **headers: str) -> list[str]:
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport) as client:
        answer = client.get(f"{balancer.address}/api/config", headers=headers)
    assert answer.status_code == 200
    seen: list[str] = answer.json()["forwarded"]
    return seen


def test_the_instance_hears_each_players_own_address(balancer: Balancer) -> None:
    assert forwarded(balancer) == ["127.0.0.1"]
    assert forwarded(balancer, source="127.0.0.2") == ["127.0.0.2"]


def test_a_clients_own_forwarded_for_never_reaches_the_instance(balancer: Balancer) -> None:
    posing = forwarded(balancer, source="127.0.0.3", **{"X-Forwarded-For": "10.9.1.2"})
    assert posing == ["127.0.0.3"]


def test_the_balancer_starts_once_the_unused_slots_are_marked_down(balancer: Balancer) -> None:
    """Until HAProxy's checks mark a slot with no instance down, it counts as up and a request
    sent there fails (a 502 about one run in three, before ``Balancer.start`` waited)."""
    states = balancer.server_states()
    assert states["instance1"].startswith("UP")
    assert states["instance2"].startswith("DOWN") and states["instance3"].startswith("DOWN")
