"""The fixture the cluster tests that start server processes share: three instances of the
server behind HAProxy on one PostgreSQL (one cluster a test module, stopped and removed after
it). Its helpers (an instance's name, the cluster's database) are in :mod:`.processes`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from spite_malice.cluster import Cluster

from .processes import running_cluster


@pytest.fixture(scope="module")
def module_cluster() -> Iterator[Cluster]:
    with running_cluster(instances=3) as running:
        yield running


@pytest.fixture
def cluster(module_cluster: Cluster) -> Cluster:
    """The module's cluster with every instance up: an instance a test killed is started
    again here, before the next test, rather than at the end of the test that killed it
    (after a module's last test nothing needs it)."""
    for instance in module_cluster.instances:
        module_cluster.restart(instance)
    return module_cluster
