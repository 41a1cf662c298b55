"""Starting the cluster's processes and asking them who they are: what the tests of a cluster
of server processes (test_cluster, test_failover, test_pairing_processes) share."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from spite_malice.cluster import Cluster, Instance

from .helpers import HAPROXY_CONFIG


@contextmanager
def running_cluster(instances: int = 3) -> Iterator[Cluster]:
    """``instances`` server processes behind HAProxy on one PostgreSQL, started, then stopped
    and their folder removed. The cluster's own temporary folder: as root, PostgreSQL's user
    must be able to reach it."""
    running = Cluster(instances_wanted=instances, config=HAPROXY_CONFIG)
    running.start()
    try:
        yield running
    finally:
        running.stop()
        running.remove_folder()


def instance_name(instance: Instance) -> str:
    """The name the instance gives itself (``GET /api/health``)."""
    name: str = httpx.get(f"{instance.url}/api/health", timeout=10).json()["instance"]
    return name


def database_url(cluster: Cluster) -> str:
    """The URL of the cluster's PostgreSQL database."""
    assert cluster.postgres is not None
    return cluster.postgres.url
