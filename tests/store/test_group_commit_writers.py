"""The group commit's writers (web-protocol 5): one writer while few moves wait, so that the
moves of many rooms that came during a commit share the next transaction; more writers, up
to ``FLUSHERS``, once ``SPREAD_AT`` wait, so that a slow commit holds up only its own."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from spite_malice.store.group_commit import FLUSHERS, SPREAD_AT, GroupCommit
from waiting import until


class Commits:
    """A store whose commits wait until let go: each ``append_many`` call is one
    transaction, recorded with the rooms it held and how many were in flight with it."""

    def __init__(self) -> None:
        self.engine = SimpleNamespace(dialect=SimpleNamespace(name="postgresql"))
        self.announces = False
        self.gate = asyncio.Event()
        self.in_flight = 0
        self.most_at_once = 0
        self.transactions: list[list[str]] = []

    def append_many(self, steps: list[tuple[Any, Any]], renew: object) -> frozenset[str]:
        self.transactions.append([header.room for header, _ in steps])
        return frozenset()

    async def run(self, call: Callable[..., Any], *args: Any) -> Any:
        self.in_flight += 1
        self.most_at_once = max(self.most_at_once, self.in_flight)
        try:
            await self.gate.wait()
            return call(*args)
        finally:
            self.in_flight -= 1


def _move(room: str) -> tuple[Any, tuple[Any, ...]]:
    return SimpleNamespace(room=room), (SimpleNamespace(finished=None, kind="move"),)


async def test_moves_that_came_during_a_commit_share_the_next_one() -> None:
    store = Commits()
    commits = GroupCommit(store, store.run, "here")  # type: ignore[arg-type]
    first = asyncio.create_task(commits.append_steps(*_move("A")))
    await until(lambda: store.in_flight == 1)
    waiting = [
        asyncio.create_task(commits.append_steps(*_move(room)))
        for room in "BCDEFGH"[: SPREAD_AT - 1]
    ]
    await asyncio.sleep(0)
    assert store.in_flight == 1  # fewer than SPREAD_AT wait: no second writer
    store.gate.set()
    await asyncio.gather(first, *waiting)
    assert store.transactions == [["A"], list("BCDEFGH"[: SPREAD_AT - 1])]
    assert store.most_at_once == 1


async def test_more_writers_start_once_enough_moves_wait() -> None:
    store = Commits()
    commits = GroupCommit(store, store.run, "here")  # type: ignore[arg-type]
    first = asyncio.create_task(commits.append_steps(*_move("A")))
    await until(lambda: store.in_flight == 1)
    waiting = [
        asyncio.create_task(commits.append_steps(*_move(f"R{number}")))
        for number in range(SPREAD_AT * FLUSHERS)
    ]
    await until(lambda: store.in_flight > 1)
    store.gate.set()
    await asyncio.gather(first, *waiting)
    assert 1 < store.most_at_once <= FLUSHERS
    stored = sorted(room for transaction in store.transactions for room in transaction)
    assert stored == sorted(["A", *(f"R{number}" for number in range(SPREAD_AT * FLUSHERS))])


class Gate:
    """The wait of an idle writer on a busy server, held until let go (no clock)."""

    def __init__(self) -> None:
        self.waiting = 0
        self.opened = asyncio.Event()

    async def __call__(self) -> None:
        self.waiting += 1
        await self.opened.wait()


async def test_a_busy_servers_idle_writer_gathers_the_next_moves_first() -> None:
    store = Commits()
    store.gate.set()
    gate = Gate()
    # every entry counts as close to the one before (no clock in the test)
    commits = GroupCommit(store, store.run, "here", gather=gate, busy_seconds=3600)  # type: ignore[arg-type]
    await commits.append_steps(*_move("A"))  # the first entry: nothing to gather for
    assert gate.waiting == 0
    second = asyncio.create_task(commits.append_steps(*_move("B")))
    await until(lambda: gate.waiting == 1)  # entries close together: the writer waits
    third = asyncio.create_task(commits.append_steps(*_move("C")))
    await asyncio.sleep(0)
    assert store.transactions == [["A"]]  # nothing written while it gathers
    gate.opened.set()
    await asyncio.gather(second, third)
    assert store.transactions == [["A"], ["B", "C"]]


async def test_enough_waiting_moves_are_written_without_gathering() -> None:
    store = Commits()
    store.gate.set()
    gate = Gate()
    commits = GroupCommit(store, store.run, "here", gather=gate, busy_seconds=3600)  # type: ignore[arg-type]
    await commits.append_steps(*_move("A"))
    first = asyncio.create_task(commits.append_steps(*_move("B")))
    await until(lambda: gate.waiting == 1)
    more = [asyncio.create_task(commits.append_steps(*_move(f"R{n}"))) for n in range(SPREAD_AT)]
    await asyncio.gather(*more)  # a second writer took them at once; the gate is still shut
    assert gate.waiting == 1
    gate.opened.set()
    await first
    stored = sorted(room for transaction in store.transactions for room in transaction)
    assert stored == sorted(["A", "B", *(f"R{n}" for n in range(SPREAD_AT))])


async def test_a_quiet_servers_moves_are_written_at_once() -> None:
    store = Commits()
    store.gate.set()
    gate = Gate()
    # no entry ever counts as close to the one before
    commits = GroupCommit(store, store.run, "here", gather=gate, busy_seconds=0)  # type: ignore[arg-type]
    for room in "ABC":
        await commits.append_steps(*_move(room))
    assert gate.waiting == 0
    assert store.transactions == [["A"], ["B"], ["C"]]
