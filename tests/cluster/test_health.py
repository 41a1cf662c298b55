"""``/api/health`` reports the database and the fan-out (issue 13, item 3), so that the load
balancer takes an instance out when its database is gone, and back when it returns."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import httpx
import pytest

from spite_malice.cluster import Instance
from spite_malice.cluster.postgres import PrivatePostgres
from spite_malice.cluster.processes import free_port, wait_until
from waiting import wait_for

from .helpers import have_postgres

pytestmark = pytest.mark.skipif(not have_postgres(), reason="needs PostgreSQL's programs")


def _health(url: str) -> tuple[int, dict[str, object]]:
    answer = httpx.get(f"{url}/api/health", timeout=10)
    return answer.status_code, answer.json()


def _wait_for_status(url: str, status: int, seconds: float = 30.0) -> dict[str, object]:
    seen: list[tuple[int, dict[str, object]]] = []

    def reached() -> bool:
        seen.append(_health(url))
        return seen[-1][0] == status

    try:
        wait_for(reached, seconds, 0.2, f"health {status}")
    except AssertionError:
        raise AssertionError(f"health stayed {seen[-1][0]}: {seen[-1][1]}") from None
    return seen[-1][1]


def test_health_fails_while_the_database_is_down() -> None:
    folder = Path(tempfile.mkdtemp(prefix="spite-malice-health-"))
    folder.chmod(0o755)  # as root, PostgreSQL's own user must reach its folder
    postgres = PrivatePostgres(folder / "postgres")
    instance = Instance(1, free_port(), postgres.url, folder / "instance.log")
    try:
        postgres.start()
        instance.start()
        wait_until(instance.is_up, 60, "the instance")
        report = _wait_for_status(instance.url, 200)
        assert report == {
            "ok": True,
            "database": True,
            "pubsub": True,
            "pubsub_engine": "postgresql",
            "instance": report["instance"],
        }
        postgres.stop()
        report = _wait_for_status(instance.url, 503)
        assert report["ok"] is False and report["database"] is False
        postgres.start()  # back: the instance reconnects and listens again by itself
        report = _wait_for_status(instance.url, 200)
        assert report["pubsub"] is True
    finally:
        instance.kill()
        postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
