"""Stored steps are announced on PostgreSQL's NOTIFY channel (issue 13): a group commit's
rooms each once, in one announcement, in the transaction that stores them (so nothing is
announced that was not stored), after the storing instance's name."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy.engine import make_url

from spite_malice.bots import reference_move
from spite_malice.store import Store, StoreConflict
from spite_malice.store.access import NOTIFY_CHANNEL, read_announcement

from .test_store import new_kept

pytestmark = pytest.mark.postgres


def _listener(url: str) -> psycopg.Connection[tuple[object, ...]]:
    plain = make_url(url).set(drivername="postgresql", query={})
    connection = psycopg.connect(plain.render_as_string(hide_password=False), autocommit=True)
    connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
    return connection


QUIET_S = 1.0
"""How long the channel is listened to for announcements that should not come."""
FIRST_S = 30.0
"""How long an announcement that should come is waited for: on a busy machine PostgreSQL may
take more than a second to pass it on."""


def _heard(
    connection: psycopg.Connection[tuple[object, ...]], origin: str, *, expected: bool = False
) -> list[str]:
    """What this store announced (other processes may share the server and its channel):
    when ``expected``, the first of it is waited for (up to FIRST_S), then anything more
    that comes within QUIET_S; else whatever comes within QUIET_S."""
    heard: list[str] = []
    if expected:
        for notice in connection.notifies(timeout=FIRST_S):
            if notice.payload.startswith(f"{origin} "):
                heard.append(notice.payload)
                break
    heard += [notice.payload for notice in connection.notifies(timeout=QUIET_S)]
    return [payload for payload in heard if payload.startswith(f"{origin} ")]


def test_a_group_commit_announces_its_rooms_once_in_one_announcement(
    postgres_schema_url: str,
) -> None:
    with Store.open(postgres_schema_url) as store:
        kept = [new_kept(store, f"a{n}", 20 + n, room=f"ROOM0{n}") for n in range(3)]
        listener = _listener(postgres_schema_url)
        try:
            steps = []
            for each in kept + kept[:1]:  # two steps of ROOM00's match: one announcement
                game = each.table.game
                step = each.table.check_move(game.to_move, reference_move(game))
                each.table.apply(step)
                steps.append((each.header, step))
            store.append_many(steps[:3])
            heard = _heard(listener, store.origin, expected=True)
            assert heard == [f"{store.origin} ROOM00 ROOM01 ROOM02"]
            assert read_announcement(heard[0]) == (store.origin, ["ROOM00", "ROOM01", "ROOM02"])
            # a batch refused whole announces nothing
            with pytest.raises(StoreConflict):
                store.append_many([steps[3], steps[1]])
            assert _heard(listener, store.origin) == []
        finally:
            listener.close()
