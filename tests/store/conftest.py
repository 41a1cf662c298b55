"""The store under test, once on an SQLite file and once on the PostgreSQL server named by
``SPITE_MALICE_TEST_POSTGRES_URL`` (skipped when it is unset). Each PostgreSQL test gets a
schema of its own, dropped afterwards."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spite_malice.store import Store


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    yield request.getfixturevalue("postgres_schema_url")


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
