"""``spite-malice serve`` as a real process: it prints its address and database, serves the
game, and a server killed (SIGKILL) in the middle of a game resumes it when started again."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from waiting import wait_for_health

from .conftest import greedy

STARTUP_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def server(
    db: Path, port: int, env: dict[str, str] | None = None, options: tuple[str, ...] = ()
) -> Iterator[tuple[subprocess.Popen[str], list[str]]]:
    """Run ``spite-malice serve``; yield it and the lines it printed, once it answers."""
    command = [sys.executable, "-m", "spite_malice", "serve", "--port", str(port), *options]
    if env is None:
        command += ["--db", str(db)]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline().strip(), process.stdout.readline().strip()]
        wait_for_health(
            f"http://127.0.0.1:{port}", process, STARTUP_SECONDS, f"the server ({lines})"
        )
        yield process, lines
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        if process.stdout is not None:
            process.stdout.close()


def receive_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if "state" in message:
            return message


@dataclass(frozen=True)
class Serving:
    port: int
    db: Path
    lines: list[str]
    """What it printed at start."""


@pytest.fixture(scope="module")
def default_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serving]:
    """One ``spite-malice serve`` with the default options on a new SQLite file, for the
    tests that need nothing else of it (each start costs a CPU-second)."""
    port = free_port()
    db = tmp_path_factory.mktemp("serve") / "games.db"
    with server(db, port) as (_, lines):
        yield Serving(port, db, lines)


def test_serve_prints_address_and_database(default_server: Serving) -> None:
    port, db, lines = default_server.port, default_server.db, default_server.lines
    assert lines[0] == f"Spite & Malice: http://127.0.0.1:{port}"
    assert lines[1] == f"database: {db}"
    assert "Spite" in httpx.get(f"http://127.0.0.1:{port}/").text
    assert db.is_file()


@pytest.mark.parametrize("variable", ["SPITE_MALICE_DB", "DATABASE_URL"])
def test_serve_takes_the_database_from_the_environment(tmp_path: Path, variable: str) -> None:
    port = free_port()
    db = tmp_path / "from-env.db"
    value = str(db) if variable == "SPITE_MALICE_DB" else f"sqlite:///{db}"
    env = {"SPITE_MALICE_DB": "", "DATABASE_URL": "", variable: value}
    with server(db, port, env=env) as (_, lines):
        assert lines[1] == f"database: {db}"


def test_a_killed_server_resumes_the_game(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "games.db"
    base = f"http://127.0.0.1:{port}"
    with server(db, port) as (process, _):
        secret = httpx.post(f"{base}/api/players", json={"name": "Ann"}).json()["secret"]
        answer = httpx.post(
            f"{base}/api/rooms",
            json={"mode": "computer", "level": "easy", "rules": {"payoff_size": 5}, "seed": 3},
            headers={"X-Player-Secret": secret},
        ).json()
        url = f"ws://127.0.0.1:{port}{answer['ws_url']}"
        with connect(url) as ws:
            ws.send(json.dumps({"type": "hello", "token": answer["token"]}))
            state = receive_state(ws)["state"]
            for number in range(1, 9):
                while state["observation"]["to_move"] != 0 or state["thinking"]:
                    state = receive_state(ws)["state"]
                if state["observation"]["outcome"] is not None:
                    break
                ws.send(
                    json.dumps({"type": "move", "move": greedy(state["observation"]), "id": number})
                )
                while True:
                    message = receive_state(ws)
                    state = message["state"]
                    if message.get("reply_to") == number:
                        break
            acknowledged = state["observation"]["history"]
            # the process dies at once: no shutdown, no last write
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
    with server(db, port), connect(f"ws://127.0.0.1:{port}{answer['ws_url']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": answer["token"]}))
        resumed = receive_state(ws)
        history = resumed["state"]["observation"]["history"]
        assert history[: len(acknowledged)] == acknowledged
        assert resumed["cause"] == "connect"


def test_serve_bounds_websocket_frames(default_server: Serving) -> None:
    """Under ``spite-malice serve`` a frame over 64 KB closes the connection (uvicorn's
    ``ws_max_size``, 1009 "message too big") before the application reads it."""
    port = default_server.port
    base = f"http://127.0.0.1:{port}"
    secret = httpx.post(f"{base}/api/players", json={"name": "Ann"}).json()["secret"]
    answer = httpx.post(
        f"{base}/api/rooms",
        json={"mode": "computer", "level": "easy"},
        headers={"X-Player-Secret": secret},
    ).json()
    with connect(f"ws://127.0.0.1:{port}{answer['ws_url']}", max_size=None) as ws:
        ws.send(json.dumps({"type": "hello", "token": answer["token"]}))
        assert json.loads(ws.recv(timeout=30))["type"] == "welcome"
        ws.send(json.dumps({"type": "ping", "pad": "x" * (64 * 1024)}))
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(100):
                ws.recv(timeout=30)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_serve_answers_an_overlong_websocket_handshake_at_once(default_server: Serving) -> None:
    """A WebSocket handshake whose request line is over 8 KB gets 414 (URI too long) at
    once, rather than being held open unanswered (it was, with uvicorn's sans-I/O WebSocket
    code used as it is; web/transport.py sends its refusal)."""
    port = default_server.port
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        request = (
            f"GET /ws/ABCDEF?{'x' * 9000} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        raw.sendall(request.encode())
        answer = raw.recv(200)  # a TimeoutError here is the bug: no answer at all
    assert answer.startswith(b"HTTP/1.1 414"), answer


def test_the_serving_process_tunes_its_collector() -> None:
    """``serve`` freezes what exists at start-up out of later collections and collects
    after 10,000 new objects, not 700 (a measured gain: the collector's share of an
    instance's CPU under load, 5 to 8% before, about 2% after)."""
    import gc

    from spite_malice.cli.web_commands import GC_THRESHOLDS, tune_collector

    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


@pytest.mark.parametrize(
    ("options", "blocked"),
    [((), True), (("--trusted-proxies", "127.0.0.1"), False)],
    ids=["nothing-trusted-by-default", "local-balancer-trusted"],
)
def test_serve_counts_guesses_by_the_address_a_trusted_balancer_forwards(
    request: pytest.FixtureRequest, tmp_path: Path, options: tuple[str, ...], blocked: bool
) -> None:
    """Behind a balancer every request comes from the balancer's address: ``serve`` takes
    the player's own from the X-Forwarded-For of a balancer it is told to trust, so that one
    player's wrong room codes do not lock out everyone. By default no balancer is trusted:
    the header is ignored (any local program could write one) and the guesses of one
    address are limited whatever it claims to be (the module's default server: no other
    test of it guesses a room)."""
    from spite_malice.web.limits import LOOKUP_BURST

    with ExitStack() as started:
        if options:
            port = free_port()
            started.enter_context(server(tmp_path / "games.db", port, options=options))
        else:
            port = request.getfixturevalue("default_server").port
        statuses = [
            httpx.get(
                f"http://127.0.0.1:{port}/api/rooms/NOPE{n}",
                headers={"X-Forwarded-For": f"10.9.0.{n + 1}"},
            ).status_code
            for n in range(LOOKUP_BURST + 5)
        ]
    assert set(statuses) == ({404, 429} if blocked else {404}), statuses
