"""Quick match across instances on one PostgreSQL database (web/quick_match.py): players
waiting on different instances are paired exactly once, each told by its own instance;
exactly one instance runs the waves, and a wave cut short by its instance's death is
finished by the next one, no pair lost or made twice."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from spite_malice.store import pairing as stored
from spite_malice.store.pairing import Pairing
from spite_malice.web import quick_match
from spite_malice.web.lobby import Lobby

from .lobbies import started_lobbies

pytestmark = pytest.mark.postgres


async def player(lobby: Lobby, name: str) -> str:
    made, _secret = await lobby.run(lobby.store.create_player, name)
    return made.id


async def test_players_on_two_instances_are_paired_exactly_once(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quick_match, "WAVE_SECONDS", 3600.0)  # the test runs the waves
    async with started_lobbies(postgres_schema_url, 2) as (one, two):
        ann, bob = await player(one, "Ann"), await player(two, "Bob")
        await one.quick.join(ann, "standard", "Ann")
        await two.quick.join(bob, "standard", "Bob")
        waits = [
            asyncio.create_task(one.quick.wait(ann, 60)),
            asyncio.create_task(two.quick.wait(bob, 60)),
        ]
        made = await one.quick.wave()
        # the other instance does not hold the lease: its wave does nothing
        assert await two.quick.wave() == []
        assert len(made) == 1 and set(made[0].players) == {ann, bob}
        # each waiting call is answered by its own instance, woken by the announcement
        answers = await asyncio.gather(*waits)
        assert all(answer["status"] == "paired" for answer in answers), answers
        assert answers[0]["room"] == answers[1]["room"] == made[0].room
        assert {answers[0]["seat"], answers[1]["seat"]} == {0, 1}
        # asked again: the same game, on either instance
        assert await two.quick.wait(ann, 0) == answers[0]
        assert await one.quick.wait(bob, 0) == answers[1]
        assert await one.quick.wave() == []
        stored_match = await two.run(two.store.load_room, made[0].room)
        assert stored_match is not None and stored_match.header.meta.pool == "standard"
        assert one.quick.waves_run == 2 and two.quick.waves_run == 0


async def test_a_wave_cut_short_is_finished_by_the_next_instance(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quick_match, "WAVE_SECONDS", 3600.0)
    monkeypatch.setattr(quick_match, "LEASE_SECONDS", 0.5)
    async with started_lobbies(postgres_schema_url, 2) as (one, two):
        ann, bob = await player(one, "Ann"), await player(two, "Bob")
        await one.quick.join(ann, "quick", "Ann")
        await two.quick.join(bob, "quick", "Bob")
        waits = [
            asyncio.create_task(one.quick.wait(ann, 60)),
            asyncio.create_task(two.quick.wait(bob, 60)),
        ]

        async def dies(pool: str, pair: Pairing, names: tuple[str, str]) -> None:
            raise ConnectionError("the instance died")

        # instance one stores the wave's pairs, then dies before storing their match
        monkeypatch.setattr(one.quick, "store_match", dies)
        with pytest.raises(ConnectionError):
            await one.quick.wave()
        pending = await two.run(stored.unready, two.store)
        assert len(pending) == 1
        # nobody is told of a room that is not stored; the pair is not made again
        assert not any(wait.done() for wait in waits)
        found: list[Any] = []

        async def taken_over() -> bool:
            found.extend(await two.quick.wave())
            return bool(found)

        await until_async(taken_over)
        assert len(found) == 1 and set(found[0].players) == {ann, bob}
        answers = await asyncio.gather(*waits)
        assert [a["status"] for a in answers] == ["paired", "paired"], answers
        assert answers[0]["room"] == answers[1]["room"] == pending[0][0].room
        assert await two.quick.wave() == [] and await two.run(stored.unready, two.store) == []


async def test_a_wave_finished_by_two_instances_at_once_makes_one_match(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The waves' lease handed over while its holder was slow: the next instance finishes the
    holder's pairs, then the holder stores them too. One match stays, both players get it,
    and the slow instance's wave ends without an error (its waves go on)."""
    monkeypatch.setattr(quick_match, "WAVE_SECONDS", 3600.0)
    async with started_lobbies(postgres_schema_url, 2) as (one, two):
        ann, bob = await player(one, "Ann"), await player(two, "Bob")
        await one.quick.join(ann, "standard", "Ann")
        await two.quick.join(bob, "standard", "Bob")
        pairs = await one.quick.pair_pool("standard")  # the slow holder's first half
        assert len(pairs) == 1
        taken = await two.quick.finish_pending()  # the next holder finishes the wave
        assert [pair.room for pair in taken] == [pairs[0].room]
        assert await one.quick.store_matches("standard", pairs) == pairs
        answers = await asyncio.gather(one.quick.wait(ann, 5), two.quick.wait(bob, 5))
        assert [a["status"] for a in answers] == ["paired", "paired"], answers
        assert answers[0]["room"] == answers[1]["room"] == pairs[0].room
        room = await one.get(pairs[0].room)
        assert room is not None and room.header.id == pairs[0].match_id
        assert await two.run(stored.unready, two.store) == []


async def test_a_wave_that_fails_unexpectedly_is_not_the_last(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever a wave raises, the instance's waves go on (the next one finishes it)."""
    monkeypatch.setattr(quick_match, "WAVE_SECONDS", 0.01)
    async with started_lobbies(postgres_schema_url, 1) as (one,):
        calls: list[int] = []

        async def wave() -> list[Pairing]:
            calls.append(1)
            if len(calls) == 1:
                raise RuntimeError("a fault nobody foresaw")
            return []

        monkeypatch.setattr(one.quick, "wave", wave)

        async def went_on() -> bool:
            return len(calls) >= 3

        await until_async(went_on)


async def until_async(check: Any, seconds: float = 30.0) -> None:
    """``until`` for a check that is a coroutine (the lease runs out meanwhile)."""
    done: list[bool] = []

    async def once() -> None:
        done.append(await check())

    for _ in range(int(seconds / 0.1)):
        await once()
        if done[-1]:
            return
        await asyncio.sleep(0.1)
    raise AssertionError("timed out")
