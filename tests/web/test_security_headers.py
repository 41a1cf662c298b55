"""Every HTTP answer carries the browser's protections (web/headers.py): a Content Security
Policy that allows only this server's own resources and no framing, no type sniffing and no
referrer; and the server describes no API at /openapi.json."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from spite_malice.web.headers import HEADERS


@pytest.mark.parametrize(
    "path",
    ["/", "/join/ABCDEF", "/static/js/app.js", "/static/app.css", "/api/config", "/api/nope"],
)
def test_every_answer_carries_the_protections(client: TestClient, path: str) -> None:
    answer = client.get(path)
    for name, value in HEADERS:
        assert answer.headers.get(name.decode()) == value.decode(), (path, name)
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_refusals_carry_them_too(client: TestClient) -> None:
    too_big = client.post("/api/rooms", content=b"x" * (1 << 20))
    assert too_big.status_code == 413
    assert too_big.headers["x-frame-options"] == "DENY"
    unknown = client.get("/api/rooms/NOSUCH")
    assert unknown.status_code == 404 and unknown.headers["referrer-policy"] == "no-referrer"


def test_no_api_description_is_served(client: TestClient) -> None:
    answer = client.get("/openapi.json")  # an unknown page address: the page itself
    assert answer.headers["content-type"].startswith("text/html")
    assert '"openapi"' not in answer.text and "/api/rooms" not in answer.text
