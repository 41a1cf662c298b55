"""Issue 47, item 2: the page's side of Web Push (web-protocol 2.11): the server's public key,
a browser's subscription kept for its player in the language it reads, refused with a plain
sentence when it is not one a browser gives, and forgotten when the player turns
notifications off."""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from push_service import Browser, unb64url
from spite_malice.notify import endpoints, push
from spite_malice.web import create_app, push_api
from spite_malice.web.api import PLAYER_HEADER


@pytest.fixture
def client(tmp_path: Path, new_database: Path) -> Iterator[TestClient]:
    path = tmp_path / "api.db"
    shutil.copyfile(new_database, path)  # a new database
    with TestClient(create_app(str(path))) as test_client:
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


INTERNAL = (
    "https://127.0.0.1/push",
    "https://127.8.0.1:8443/push",
    "https://10.0.0.5/push",
    "https://172.16.3.4/push",
    "https://192.168.1.1/push",
    "https://169.254.169.254/latest/meta-data",  # a cloud's metadata service
    "https://100.64.0.1/push",  # shared address space
    "https://0.0.0.0/push",
    "https://[::1]/push",
    "https://[fe80::1]/push",
    "https://[fd00::1]/push",
    "https://[::ffff:127.0.0.1]/push",
    "https://localhost/push",
    "https://push.localhost/push",
)


@pytest.mark.parametrize("endpoint", INTERNAL)
def test_an_endpoint_on_the_servers_own_network_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, endpoint: str
) -> None:
    """The server posts to the endpoint a page gives: never to its own network, unless the
    test flag is set (a test's own push service)."""
    monkeypatch.delenv(push_api.INSECURE_ENV, raising=False)
    answer = client.post("/api/push/subscriptions", json=Browser(endpoint).subscription())
    assert answer.status_code == 422
    assert answer.json()["error"]["message"] == (
        "The push subscription's endpoint must be a push service on the internet, not an "
        "address of this server's own network."
    )
    monkeypatch.setenv(push_api.INSECURE_ENV, "1")
    answer = client.post("/api/push/subscriptions", json=Browser(endpoint).subscription())
    assert answer.status_code == 201, answer.text


def test_a_name_is_judged_by_the_addresses_it_resolves_to(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(push_api.INSECURE_ENV, raising=False)
    resolved = {"inside.example": "10.1.2.3", "push.example": "93.184.216.34"}

    def getaddrinfo(host: str, *_args: object, **_kwargs: object) -> list[tuple[object, ...]]:
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (resolved[host], 0))]

    monkeypatch.setattr(endpoints.socket, "getaddrinfo", getaddrinfo)
    inside = Browser("https://inside.example/push").subscription()
    assert client.post("/api/push/subscriptions", json=inside).status_code == 422
    outside = Browser("https://push.example/push").subscription()
    assert client.post("/api/push/subscriptions", json=outside).status_code == 201
    public = Browser("https://93.184.216.34/push").subscription()
    assert client.post("/api/push/subscriptions", json=public).status_code == 201


def test_nothing_is_posted_to_an_endpoint_that_now_resolves_inside(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A name kept while it was on the internet, and resolving to this network at sending
    time: the subscription is dropped, and nothing is posted."""
    monkeypatch.delenv(push_api.INSECURE_ENV, raising=False)
    posted: list[object] = []
    monkeypatch.setattr(push, "webpush", lambda *args, **kwargs: posted.append(args))
    with pytest.raises(push.PushGone):
        push.send(
            push.PushKeys(push.new_private_key(), "mailto:games@example.org"),
            "https://127.0.0.1/push",
            "p256dh",
            "auth",
            {"title": "t"},
        )
    assert posted == []
