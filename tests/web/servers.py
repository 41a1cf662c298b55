"""A ``spite-malice serve`` process for the tests that attack it over real sockets, and raw
connections from another loopback address (127.0.0.0/8 is all this machine): a flood from
127.0.0.2 is one stranger, the honest client on 127.0.0.1 another."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from waiting import wait_for_health

STARTUP_SECONDS = 60.0
STRANGER = "127.0.0.2"
"""The address floods come from."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def raise_file_limit(wanted: int = 4096) -> None:
    """Let this test process hold ``wanted`` sockets (within the hard limit)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


@contextmanager
def serving(
    db: Path, options: tuple[str, ...] = (), env: dict[str, str] | None = None
) -> Iterator[str]:
    """Run ``spite-malice serve`` on a free port; yield its base URL once it answers."""
    port = free_port()
    command = [sys.executable, "-m", "spite_malice", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--db", str(db), *options],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_health(base, process, STARTUP_SECONDS)
        yield base
    finally:
        process.kill()
        process.wait(timeout=30)


def connect_from(host: str, port: int, timeout: float = 30.0) -> socket.socket:
    """A TCP connection to ``127.0.0.1:port`` from the loopback address ``host``."""
    connection = socket.socket()
    connection.settimeout(timeout)
    connection.bind((host, 0))
    connection.connect(("127.0.0.1", port))
    return connection


def answer(connection: socket.socket) -> bytes:
    """Everything the server sends on ``connection`` until it closes it (or the timeout)."""
    received = b""
    with suppress(TimeoutError, ConnectionError):
        while chunk := connection.recv(65536):
            received += chunk
    return received
