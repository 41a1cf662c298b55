"""Small helpers for the cluster's child processes: free ports, waiting, stopping."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def listens(pid: int, port: int) -> bool | None:
    """Whether process ``pid`` itself listens on TCP ``port`` (Linux's /proc tells; None where
    it cannot). A health check alone cannot tell: the port, free when it was chosen, may have
    been taken by another server since, which then answers in its place."""
    try:
        descriptors = os.listdir(f"/proc/{pid}/fd")
    except FileNotFoundError:
        return False if os.path.isdir("/proc/self/fd") else None  # it has ended
    except OSError:
        return None
    sockets = set()
    for fd in descriptors:
        with contextlib.suppress(OSError):  # closed meanwhile
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                sockets.add(target[len("socket:[") : -1])
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                local, state, inode = fields[1], fields[3], fields[9]
                if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port and inode in sockets:
                    return True  # 0A: LISTEN
    return False


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``check`` until it is true; raise TimeoutError naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not start within {timeout:.0f} s")
        time.sleep(0.1)


def answers(url: str, timeout: float = 1.0) -> bool:
    """Whether ``url`` answers 200 to a GET."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as reply:
            return bool(reply.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def stop(process: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    """End ``process`` and its process group: SIGTERM, then SIGKILL after ``grace`` seconds."""
    if process.poll() is not None:
        return
    _signal_group(process, signal.SIGTERM)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        _signal_group(process, signal.SIGKILL)
        process.wait(grace)


def kill(process: subprocess.Popen[bytes]) -> None:
    """End ``process`` at once, as a crash would (SIGKILL, no clean-up)."""
    if process.poll() is None:
        _signal_group(process, signal.SIGKILL)
        process.wait(5)


def _signal_group(process: subprocess.Popen[bytes], number: int) -> None:
    try:
        os.killpg(process.pid, number)
    except (ProcessLookupError, PermissionError):
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(number)
