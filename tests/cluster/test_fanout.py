"""The fan-out's listener (issue 13): another instance's announcements reach the lobby, its
own do not, and listening goes on after its connection is lost (the rooms are read again)."""

from __future__ import annotations

import secrets

import psycopg
import pytest
from sqlalchemy.engine import make_url

from spite_malice.store import Store
from spite_malice.store.access import NOTIFY_CHANNEL, announcement
from spite_malice.web.fanout import PostgresFanout

from .lobbies import until

pytestmark = pytest.mark.postgres


def _admin(url: str) -> psycopg.Connection[tuple[object, ...]]:
    plain = make_url(url).set(drivername="postgresql", query={})
    return psycopg.connect(plain.render_as_string(hide_password=False), autocommit=True)


def _codes(count: int) -> list[str]:
    """Room codes no other test's instance holds (the channel is the whole server's)."""
    return [f"Z{secrets.token_hex(3).upper()}" for _ in range(count)]


async def test_announcements_reach_the_lobby_and_listening_outlives_its_connection(
    postgres_schema_url: str,
) -> None:
    ours, theirs, again = _codes(3)
    heard: list[str] = []
    resyncs: list[bool] = []
    with Store.open(postgres_schema_url) as store, _admin(postgres_schema_url) as admin:
        fanout = PostgresFanout(store)
        await fanout.start(heard.append, lambda: resyncs.append(True))
        try:
            assert fanout.is_healthy
            first = fanout.backend
            # another instance's announcement of two rooms, and one of this instance's own
            admin.execute(
                "SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, announcement("x1", [theirs, again])]
            )
            admin.execute(
                "SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, announcement(store.origin, [ours])]
            )
            await until(lambda: theirs in heard and again in heard, 20)
            assert ours not in heard  # sent first: it would have come before them
            # the listening connection is lost: the fan-out listens again and reads every
            # room again (announcements may have been missed meanwhile)
            admin.execute("SELECT pg_terminate_backend(%s)", [first])
            await until(lambda: bool(resyncs) and fanout.is_healthy and fanout.backend != first)
            later = _codes(1)[0]
            admin.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, announcement("x1", [later])])
            await until(lambda: later in heard, 20)
            assert ours not in heard
        finally:
            await fanout.close()
