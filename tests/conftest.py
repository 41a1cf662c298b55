"""Fixtures shared by the test packages."""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from spite_malice.engine import Rules

RULE_VARIANTS = (
    Rules.STANDARD,
    Rules.QUICK,
    Rules(decks=3, center_stacks=4),
    Rules(payoff_size=5, king_can_start_stack=False),
)
"""Rule sets that move every option away from the standard one (R0-R3 options)."""


@pytest.fixture(
    params=RULE_VARIANTS, ids=["standard", "quick", "3-decks-4-stacks", "no-king-start"]
)
def varied_rules(request: pytest.FixtureRequest) -> Rules:
    """Each of :data:`RULE_VARIANTS` in turn."""
    rules: Rules = request.param
    return rules


MAX_WORKERS = 8
"""At most this many test processes: each may run a browser, servers and a PostgreSQL
connection pool of its own."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): two test processes a CPU, up to
    :data:`MAX_WORKERS`. Many tests wait more than they compute (on a browser, a server
    process, the database), so one process a CPU left the CPUs half idle: the browser tests
    took 571 s on two processes and 476 s on four here, on the same loaded 2-CPU machine."""
    return max(1, min(MAX_WORKERS, 2 * len(os.sched_getaffinity(0))))


@pytest.fixture(scope="session")
def new_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file as ``Store.open`` makes a new one (the schema at the newest migration,
    nothing else in it), made once a test process: the databases of the web, notification
    API and ratings tests start as copies of it (``shutil.copyfile``). Making one costs
    about 60 ms of CPU, copying it well under one; making new databases is the store's
    tests' and ``spite-malice serve``'s tests' business."""
    from spite_malice.store import Store  # here: most test processes' other tests need none

    path = tmp_path_factory.mktemp("new-database") / "new.db"
    Store.open(str(path)).close()
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file copied
    return path


POSTGRES_ENV = "SPITE_MALICE_TEST_POSTGRES_URL"
"""The PostgreSQL server to test against; `.ci/run` sets it, and tests skip without it."""


@contextmanager
def _postgres_schema() -> Iterator[str]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"no PostgreSQL server: set {POSTGRES_ENV} (.ci/run does) to run this test")
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def postgres_schema_url() -> Iterator[str]:
    """A URL of the PostgreSQL server named by ``POSTGRES_ENV``, in a schema of its own that
    is dropped afterwards; skips the test when no server is named."""
    with _postgres_schema() as url:
        yield url


@pytest.fixture(scope="module")
def postgres_module_url() -> Iterator[str]:
    """:func:`postgres_schema_url` for a whole module: one schema its tests share (for the
    servers a module starts once), dropped after its last test."""
    with _postgres_schema() as url:
        yield url
