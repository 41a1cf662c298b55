"""Every HTTP answer names the instance that gave it (docs/deploying.md): the name that
``/api/health`` reports, also on errors and on the page."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_every_answer_names_the_instance(client: TestClient) -> None:
    health = client.get("/api/health")
    name = health.json()["instance"]
    assert name and health.headers["X-Spite-Malice-Instance"] == name
    for path in ("/", "/api/rooms/NOSUCH", "/api/settings", "/no/such/page"):
        assert client.get(path).headers["X-Spite-Malice-Instance"] == name, path
