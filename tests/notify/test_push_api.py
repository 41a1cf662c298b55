"""Issue 47, item 2: the page's side of Web Push (web-protocol 2.11): the server's public key,
a browser's subscription kept for its player in the language it reads, refused with a plain
sentence when it is not one a browser gives, and forgotten when the player turns
notifications off."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from push_service import Browser, unb64url
from spite_malice.web import create_app, push_api
from spite_malice.web.api import PLAYER_HEADER


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "api.db"))) as test_client:
        answer = test_client.post("/api/players", json={"name": "Alice"})
        test_client.headers[PLAYER_HEADER] = answer.json()["secret"]
        yield test_client


def test_the_key_is_a_p256_point_and_the_same_every_time(client: TestClient) -> None:
    first = client.get("/api/push/key").json()["public_key"]
    assert len(unb64url(first)) == 65 and unb64url(first)[0] == 4
    assert client.get("/api/push/key").json()["public_key"] == first


def test_a_subscription_is_kept_and_forgotten(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    browser = Browser("https://push.example/abc")
    answer = client.post(
        "/api/push/subscriptions", json=browser.subscription(), headers={"Accept-Language": "nl"}
    )
    assert answer.status_code == 201, answer.text
    assert answer.json() == {"subscribed": True, "language": "nl"}
    store = client.app.state.lobby.store  # type: ignore[attr-defined]
    [kept] = store.notifications.subscriptions(store.player_for(client.headers[PLAYER_HEADER]).id)
    assert (kept.endpoint, kept.language) == ("https://push.example/abc", "nl")
    gone = client.post("/api/push/unsubscribe", json={"endpoint": browser.endpoint})
    assert gone.status_code == 204
    again = client.post("/api/push/unsubscribe", json={"endpoint": browser.endpoint})
    assert again.status_code == 404
    assert again.json()["error"]["message"] == "This browser has no notifications turned on."


def test_what_a_browser_would_not_give_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = Browser("http://127.0.0.1:9/push").subscription()
    answer = client.post("/api/push/subscriptions", json=plain)
    assert answer.status_code == 422
    assert answer.json()["error"]["message"] == (
        "The push subscription's endpoint must be an https address."
    )
    monkeypatch.setenv(push_api.INSECURE_ENV, "1")  # a test's own push service
    assert client.post("/api/push/subscriptions", json=plain).status_code == 201
    short = Browser("https://push.example/x").subscription()
    short["keys"]["auth"] = "c2hvcnQ"
    answer = client.post("/api/push/subscriptions", json=short)
    assert answer.status_code == 422
    assert "keys" in answer.json()["error"]["message"]
    missing = client.post("/api/push/subscriptions", json={"endpoint": "https://push.example/"})
    assert missing.status_code == 422
    assert "Traceback" not in missing.text


def test_a_subscription_needs_a_player(client: TestClient) -> None:
    del client.headers[PLAYER_HEADER]
    browser = Browser("https://push.example/abc")
    answer = client.post("/api/push/subscriptions", json=browser.subscription())
    assert answer.status_code == 401
