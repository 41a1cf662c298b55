"""Whose server answers on a port (``cluster/processes.py`` ``listens``): a server waiting for
its own start must not take another server's answer, on a port that was free when chosen,
for its own (a cluster test once talked to another test's server that way)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from spite_malice.cluster.processes import listens

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc")


def test_a_process_listens_on_its_own_port_and_not_on_anothers() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        port = server.getsockname()[1]
        assert listens(os.getpid(), port) is False  # bound, not yet listening
        server.listen()
        assert listens(os.getpid(), port) is True
        other = subprocess.Popen(
            [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
        )
        try:
            assert listens(other.pid, port) is False  # the port is this process's, not its
        finally:
            other.communicate(b"")
        assert listens(other.pid, port) is False  # ended
    assert listens(os.getpid(), port) is False  # closed
