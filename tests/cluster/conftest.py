"""The fixture the cluster tests that start server processes share: three instances of the
server behind HAProxy on one PostgreSQL (one cluster a test module, stopped and removed after
it). Its helpers (an instance's name, the cluster's database) are in :mod:`.processes`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spite_malice.cluster import Cluster

from .processes import running_cluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with running_cluster(instances=3) as running:
        yield running
