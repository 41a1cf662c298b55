"""A group commit on PostgreSQL is one statement on the pooled connection's driver connection
(issue 13): it stores the steps as the ORM path did, and a connection lost under it fails
that one call as unavailable, writes nothing, and leaves the pool able to serve the next."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy.engine import make_url

from spite_malice.bots import reference_move
from spite_malice.store import Store, StoreUnavailable

from .test_store import assert_committed, new_kept

pytestmark = pytest.mark.postgres


def _admin(url: str) -> psycopg.Connection[tuple[object, ...]]:
    plain = make_url(url).set(drivername="postgresql", query={})
    return psycopg.connect(plain.render_as_string(hide_password=False), autocommit=True)


def test_a_group_commit_stores_every_field_of_its_steps(postgres_schema_url: str) -> None:
    with Store.open(postgres_schema_url) as store:
        kept = [new_kept(store, f"c{n}", 40 + n, room=f"ROOMC{n}") for n in range(2)]
        steps = []
        for each in kept:
            game = each.table.game
            step = each.table.check_move(game.to_move, reference_move(game))
            each.table.apply(step)
            steps.append((each.header, step))
        before = [store.load_match(each.header.id) for each in kept]
        store.append_many(steps)
        assert_committed(store, kept, steps, before)


def test_a_connection_lost_under_a_group_commit_fails_that_call_only(
    postgres_schema_url: str,
) -> None:
    with Store.open(postgres_schema_url) as store:
        kept = new_kept(store, "lost", 50, room="ROOMLS")
        pooled = store.engine.raw_connection()
        backend = pooled.driver_connection.info.backend_pid  # type: ignore[union-attr]
        pooled.close()  # back in the pool: the next call is given this connection
        with _admin(postgres_schema_url) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", [backend])
        game = kept.table.game
        step = kept.table.check_move(game.to_move, reference_move(game))
        with pytest.raises(StoreUnavailable):
            store.append_many([(kept.header, step)])
        assert store.head(kept.header.id) == (1, step.ply)  # nothing was written
        store.append_many([(kept.header, step)])  # a fresh connection serves the retry
        assert store.head(kept.header.id) == (1, step.ply + 1)
