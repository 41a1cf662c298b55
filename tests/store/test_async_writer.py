"""PostgreSQL's group commits on the event loop (issue 13): an ``AsyncWriter`` stores, renews,
announces and refuses exactly as ``Store.append_many`` does, keeps its connections for the next
commits, and a connection lost or a server not reachable fails that one commit as unavailable
and writes nothing."""

from __future__ import annotations

import asyncio

import psycopg
import pytest
from sqlalchemy.engine import make_url

from spite_malice.bots import reference_move
from spite_malice.store import (
    AsyncWriter,
    LeaseRenewal,
    MatchHeader,
    Store,
    StoreConflict,
    StoreUnavailable,
)
from spite_malice.table import Step

from .test_announcements import _heard, _listener
from .test_store import Kept, assert_committed, new_kept

pytestmark = pytest.mark.postgres


def _next_step(kept: Kept) -> tuple[MatchHeader, Step]:
    game = kept.table.game
    return kept.header, kept.table.check_move(game.to_move, reference_move(game))


def _admin(url: str) -> psycopg.Connection[tuple[object, ...]]:
    plain = make_url(url).set(drivername="postgresql", query={})
    return psycopg.connect(plain.render_as_string(hide_password=False), autocommit=True)


def _backends(url: str, application: str) -> list[int]:
    with _admin(url) as admin:
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s", [application]
        ).fetchall()
    return [int(row[0]) for row in rows]  # type: ignore[call-overload]


def _named(url: str, application: str) -> str:
    """``url`` with its connections named ``application`` (to find them on the server)."""
    return (
        make_url(url)
        .update_query_dict({"application_name": application})
        .render_as_string(hide_password=False)
    )


def test_an_async_group_commit_stores_renews_and_announces_as_the_store_does(
    postgres_schema_url: str,
) -> None:
    async def scenario(store: Store) -> None:
        writer = AsyncWriter(store)
        try:
            kept = [new_kept(store, f"w{n}", 60 + n, room=f"ROOMW{n}") for n in range(2)]
            assert store.acquire_lease("ROOMW0", store.origin, 30)
            assert store.acquire_lease("ROOMW1", "someone else", 30)
            before = [store.load_match(each.header.id) for each in kept]
            steps = [_next_step(each) for each in kept]
            listener = _listener(postgres_schema_url)
            try:
                rooms = frozenset({"ROOMW0", "ROOMW1"})
                renew = LeaseRenewal(store.origin, rooms, 30)
                assert await writer.append_many(steps, renew) == {"ROOMW0"}  # not another's
                heard = _heard(listener, store.origin, expected=True)
            finally:
                listener.close()
            assert len(heard) == 1 and set(heard[0].split()[1:]) == {"ROOMW0", "ROOMW1"}
            for each, (_, step) in zip(kept, steps, strict=True):
                each.table.apply(step)
            assert_committed(store, kept, steps, before)
            assert writer.connections == 1  # kept for the next commit
            assert await writer.append_many([_next_step(kept[0])]) == frozenset()
            assert writer.connections == 1  # the same one again
        finally:
            await writer.close()
        assert writer.connections == 0

    with Store.open(postgres_schema_url) as store:
        asyncio.run(scenario(store))


def test_an_async_group_commit_with_a_stored_step_stores_nothing_of_it(
    postgres_schema_url: str,
) -> None:
    async def scenario(store: Store) -> None:
        writer = AsyncWriter(store)
        try:
            kept = [new_kept(store, f"x{n}", 70 + n, room=f"ROOMX{n}") for n in range(2)]
            stored_already = _next_step(kept[0])
            store.append_many([stored_already])
            fresh = _next_step(kept[1])
            with pytest.raises(StoreConflict):
                await writer.append_many([fresh, stored_already])
            again = store.load_match(kept[1].header.id)
            assert again is not None and again.head == (1, 1)  # the fresh step is not stored
            assert writer.connections == 1  # a refusal leaves the connection usable
            assert await writer.append_many([fresh]) == frozenset()
            stored = store.load_match(kept[1].header.id)
            assert stored is not None and stored.steps[-1] == fresh[1]
        finally:
            await writer.close()

    with Store.open(postgres_schema_url) as store:
        asyncio.run(scenario(store))


def test_a_connection_lost_under_an_async_group_commit_fails_that_commit_only(
    postgres_schema_url: str,
) -> None:
    url = _named(postgres_schema_url, "spite-malice-writer-test")

    async def scenario(store: Store) -> None:
        writer = AsyncWriter(store)
        try:
            kept = new_kept(store, "lost", 80, room="ROOMLW")
            pool = set(_backends(url, "spite-malice-writer-test"))  # the store's own
            first = _next_step(kept)
            await writer.append_many([first])
            kept.table.apply(first[1])
            backends = set(_backends(url, "spite-malice-writer-test")) - pool
            assert len(backends) == 1, "the writer's one connection is not on the server"
            with _admin(url) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", [backends.pop()])
            step = _next_step(kept)
            with pytest.raises(StoreUnavailable, match="failed"):
                await writer.append_many([step])
            assert writer.connections == 0  # the broken connection is not kept
            stored = store.load_match(kept.header.id)
            assert stored is not None and stored.head == (1, first[1].ply + 1)  # nothing written
            await writer.append_many([step])  # a fresh connection serves the retry
            stored = store.load_match(kept.header.id)
            assert stored is not None and stored.steps[-1] == step[1]
        finally:
            await writer.close()

    with Store.open(url) as store:
        asyncio.run(scenario(store))


def test_an_async_group_commit_without_a_server_fails_as_unavailable(
    postgres_schema_url: str,
) -> None:
    async def scenario(store: Store) -> None:
        kept = new_kept(store, "gone", 90, room="ROOMGW")
        store.url = make_url(store.url).set(port=1).render_as_string(hide_password=False)
        writer = AsyncWriter(store)  # its own connections go to a port nothing listens on
        with pytest.raises(StoreUnavailable, match=r"the database .* failed"):
            await writer.append_many([_next_step(kept)])
        await writer.close()
        stored = store.load_match(kept.header.id)
        assert stored is not None and stored.head == (1, 1)

    with Store.open(postgres_schema_url) as store:
        asyncio.run(scenario(store))
