"""The real server as a subprocess, for the end-to-end tests: started, killed and started
again on the same database, as a player's machine would run it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

from spite_malice.cluster.processes import listens
from waiting import wait_for

START_TIMEOUT_S = 30.0


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """``python -m spite_malice serve --port PORT --db DB`` in a child process."""

    def __init__(self, db: Path, log: Path, port: int | None = None) -> None:
        self.db = db
        self.log = log
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start the server and wait until it answers ``/api/health``."""
        assert self.process is None, "the server is already running"
        self._log_file = self.log.open("ab")
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("DATABASE_URL", None)
        env.pop("SPITE_MALICE_DB", None)
        command = [sys.executable, "-m", "spite_malice", "serve"]
        command += ["--port", str(self.port), "--db", str(self.db)]
        self.process = subprocess.Popen(
            command, stdout=self._log_file, stderr=subprocess.STDOUT, env=env
        )
        try:
            wait_for(self._answers, START_TIMEOUT_S, every=0.1, what="the server")
            return
        except AssertionError:
            self.stop()
        raise RuntimeError(
            f"the server did not answer within {START_TIMEOUT_S} s:\n{self.output()}"
        )

    def _answers(self) -> bool:
        """Whether the server answers its health check (an error if it has exited)."""
        assert self.process is not None
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited at start; see {self.log}:\n{self.output()}")
        if listens(self.process.pid, self.port) is False:
            return False  # not yet, or another server took the port: the health is not ours
        try:
            with urllib.request.urlopen(self.url + "/api/health", timeout=1) as answer:
                return bool(answer.status == 200)
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    def kill(self) -> None:
        """Kill the server at once (SIGKILL), the way a crash or a power cut would."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        self._close()

    def stop(self) -> None:
        """Stop the server politely (SIGTERM), then for good."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        self._close()

    def _close(self) -> None:
        self.process = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def output(self) -> str:
        """What the server printed so far (for failure messages)."""
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""
