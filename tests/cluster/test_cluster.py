"""The cluster on one machine: a private PostgreSQL, instances and HAProxy (docs/deploying.md).

Skipped where PostgreSQL's server programs or HAProxy are missing (.ci/run installs both).
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from spite_malice.cluster import Cluster
from spite_malice.cluster.balancer import find_config, server_slots

from .helpers import HAPROXY_CONFIG, REPOSITORY, have_services

pytestmark = pytest.mark.skipif(
    not have_services(), reason="needs PostgreSQL's server programs and HAProxy"
)


def _get(url: str) -> tuple[int, dict[str, object]]:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return reply.status, json.loads(reply.read())


def test_the_repository_config_has_three_instance_slots() -> None:
    config = find_config(REPOSITORY / "src")
    assert config == HAPROXY_CONFIG
    assert server_slots(config) == 3


def test_every_instance_and_the_balancer_answer(cluster: Cluster) -> None:
    for instance in cluster.instances:
        assert _get(f"{instance.url}/api/health")[0] == 200
    status, _ = _get(f"{cluster.address}/api/health")
    assert status == 200
    status, config = _get(f"{cluster.address}/api/config")
    assert status == 200 and "levels" in config


def test_the_balancer_routes_around_a_killed_instance(cluster: Cluster) -> None:
    victim = cluster.instances[0]
    victim.kill()
    try:
        # HAProxy retries a request that finds a dead instance on another one (option
        # redispatch), so no request through the balancer fails, during or after the check.
        for _ in range(30):
            assert _get(f"{cluster.address}/api/health")[0] == 200
    finally:
        cluster.restart(victim)
    assert _get(f"{victim.url}/api/health")[0] == 200
