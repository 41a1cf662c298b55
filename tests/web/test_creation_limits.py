"""New players and rooms are limited per client address (``limits.make_limit``, the token
bucket of the room-code guesses), and one player's invitations that nobody has joined are
capped (``limits.OPEN_INVITATIONS``). Before, one client could make ~20,000 rooms in the 10
minutes a room stays in memory, and grow the database without bound."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from spite_malice.web import limits
from spite_malice.web.api import PLAYER_HEADER

from .conftest import new_player


class Clock:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _limit(client: TestClient, kind: str, burst: int, per_minute: float) -> Clock:
    clock = Clock()
    limit = limits.RateLimit(burst=burst, per_minute=per_minute, clock=clock)
    setattr(client.app.state, f"made_{kind}", limit)  # type: ignore[attr-defined]
    return clock


def test_the_default_limit_is_a_burst_then_a_few_a_minute() -> None:
    limit = limits.make_limit({})
    assert limit is not None
    assert (limit.burst, limit.rate * 60) == (limits.MAKE_BURST, limits.MAKE_PER_MINUTE)
    assert limits.make_limit({limits.MAKE_LIMIT_ENV: "off"}) is None
    other = limits.make_limit({limits.MAKE_LIMIT_ENV: "5/2"})
    assert other is not None and (other.burst, other.rate * 60) == (5, 2)
    for unreadable in ("lots", "0/5", "5/-1", "5/nan"):
        kept = limits.make_limit({limits.MAKE_LIMIT_ENV: unreadable})
        assert kept is not None and kept.burst == limits.MAKE_BURST, unreadable


def test_new_players_past_the_burst_get_429_until_the_address_regains_one(
    client: TestClient,
) -> None:
    clock = _limit(client, "players", burst=3, per_minute=6)
    for number in range(3):
        assert client.post("/api/players", json={"name": f"p{number}"}).status_code == 201
    refused = client.post(
        "/api/players", json={"name": "p3"}, headers={PLAYER_HEADER: "", "Accept-Language": "en"}
    )
    assert refused.status_code == 429
    assert refused.json()["error"] == {
        "code": "too_many_requests",
        "message": "Too many new players from this address; wait a minute and try again.",
    }
    assert 1 <= int(refused.headers["Retry-After"]) <= 11
    clock.now += 10  # 6 a minute: one more after 10 seconds
    assert client.post("/api/players", json={"name": "p3"}).status_code == 201
    assert client.post("/api/players", json={"name": "p4"}).status_code == 429


def test_new_rooms_past_the_burst_get_429_and_players_are_counted_apart(
    client: TestClient,
) -> None:
    _limit(client, "rooms", burst=2, per_minute=1)
    for _ in range(2):
        assert client.post("/api/rooms", json={"mode": "computer"}).status_code == 201
    refused = client.post("/api/rooms", json={"mode": "friend"})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_requests"
    assert "new games" in refused.json()["error"]["message"]
    # making a player is another count: a new browser is not held back by its rooms
    assert client.post("/api/players", json={"name": "bob"}).status_code == 201


def test_the_limit_is_said_in_the_requests_language(client: TestClient) -> None:
    _limit(client, "rooms", burst=1, per_minute=1)
    assert client.post("/api/rooms", json={"mode": "computer"}).status_code == 201
    refused = client.post(
        "/api/rooms", json={"mode": "computer"}, headers={"Accept-Language": "it"}
    )
    assert refused.status_code == 429
    assert "wait a minute" not in refused.json()["error"]["message"]


def test_a_player_with_too_many_open_invitations_is_told_what_to_do(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "OPEN_INVITATIONS", 3)
    made = [client.post("/api/rooms", json={"mode": "friend"}) for _ in range(3)]
    assert all(answer.status_code == 201 for answer in made)
    refused = client.post("/api/rooms", json={"mode": "friend"})
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "too_many_invitations"
    assert error["message"] == (
        "You already have 3 invitations that nobody has joined yet. Send one of them to a "
        "friend before you make another: an invitation nobody joins is dropped after 7 days."
    )
    # the old invitations are kept: a friend still joins one
    bob = new_player(client, "bob")
    joined = client.post(f"/api/rooms/{made[0].json()['room']}/join", headers=bob)
    assert joined.status_code == 200, joined.text
    # a joined invitation no longer counts, and a game against the computer never did
    assert client.post("/api/rooms", json={"mode": "friend"}).status_code == 201
    assert client.post("/api/rooms", json={"mode": "computer"}).status_code == 201
    assert client.post("/api/rooms", json={"mode": "friend"}).status_code == 409


def test_an_expired_invitation_does_not_count(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "OPEN_INVITATIONS", 1)
    assert client.post("/api/rooms", json={"mode": "friend"}).status_code == 201
    assert client.post("/api/rooms", json={"mode": "friend"}).status_code == 409
    later = limits.utcnow() + limits.INVITATION_TTL + timedelta(hours=1)
    monkeypatch.setattr(limits, "utcnow", lambda: later)
    assert client.post("/api/rooms", json={"mode": "friend"}).status_code == 201
