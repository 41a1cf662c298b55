"""Waiting in async tests for something another task or process does: one loop for all."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def until(check: Callable[[], object], seconds: float = 60.0, every: float = 0.02) -> None:
    """Wait until ``check()`` is true, looking every ``every`` seconds; fail after ``seconds``."""
    for _ in range(int(seconds / every)):
        if check():
            return
        await asyncio.sleep(every)
    raise AssertionError(f"timed out after {seconds} s")
