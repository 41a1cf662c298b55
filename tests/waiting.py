"""Waiting in tests for something another task, thread or process does: one loop for all
(:func:`until` in async tests, :func:`wait_for` elsewhere), so that no test sleeps for a
fixed time and hopes the thing has happened by then."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any, TypeVar

import httpx

from spite_malice.cluster.processes import listens

T = TypeVar("T")


async def until(check: Callable[[], object], seconds: float = 60.0, every: float = 0.02) -> None:
    """Wait until ``check()`` is true, looking every ``every`` seconds; fail after ``seconds``."""
    for _ in range(int(seconds / every)):
        if check():
            return
        await asyncio.sleep(every)
    raise AssertionError(f"timed out after {seconds} s")


def wait_for(
    check: Callable[[], T], seconds: float = 60.0, every: float = 0.05, what: str = "it"
) -> T:
    """``check()``'s first true answer, looking every ``every`` seconds; fail after
    ``seconds`` (a deadline for a slow machine, never a timing assertion), saying ``what``
    was awaited."""
    deadline = time.monotonic() + seconds
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(every)


def wait_for_health(
    base: str, process: subprocess.Popen[Any], seconds: float, what: str = "the server"
) -> None:
    """Wait until the server at ``base`` answers ``/api/health`` with 200; fail at once if its
    ``process`` stops, and after ``seconds`` if it never answers."""

    port = httpx.URL(base).port

    def up() -> bool:
        assert process.poll() is None, f"{what} stopped"
        if port is not None and listens(process.pid, port) is False:
            return False  # not yet, or another server took the port: the health is not ours
        with suppress(httpx.HTTPError):
            return httpx.get(f"{base}/api/health").status_code == 200
        return False

    wait_for(up, seconds, what=f"{what} to answer")
