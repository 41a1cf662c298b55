"""The store under test, once on an SQLite file and once on the PostgreSQL server named by
``SPITE_MALICE_TEST_POSTGRES_URL`` (skipped when it is unset). Each PostgreSQL test gets a
schema of its own, dropped afterwards."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from spite_malice.store import Store

POSTGRES_ENV = "SPITE_MALICE_TEST_POSTGRES_URL"


def _postgres_url() -> str:
    url = os.environ.get(POSTGRES_ENV)
    if not url:
        pytest.skip(f"no PostgreSQL server: set {POSTGRES_ENV} (.ci/run does) to run this test")
    return url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    base = _postgres_url()
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
def open_store(store_url: str) -> Iterator[Callable[[], Store]]:
    """Opens stores on the test database (several may be open, like a terminal and a
    server); closes them all at the end."""
    opened: list[Store] = []

    def make() -> Store:
        store = Store.open(store_url)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Callable[[], Store]) -> Store:
    return open_store()
