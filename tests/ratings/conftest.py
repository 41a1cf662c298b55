"""The store under test, on an SQLite file and on the PostgreSQL server named by
``SPITE_MALICE_TEST_POSTGRES_URL`` (skipped when it is unset), as in ``tests/store``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from spite_malice.store import Store


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty store of each kind."""
    if request.param == "sqlite":
        path = tmp_path / "store.db"
        shutil.copyfile(request.getfixturevalue("new_database"), path)  # a new database
        url = f"sqlite:///{path}"
    else:
        url = request.getfixturevalue("postgres_schema_url")
    with Store.open(url) as opened:
        yield opened
