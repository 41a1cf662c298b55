"""The two write paths a player could flood (``web-protocol.md`` 7): ``new_match`` on one
socket (115 a second, each a match in the store and a lost game) and replays (each megabytes
of frames, 110 times the record): both bounded per player, and a replay's answer gzipped."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from spite_malice.engine import GameRecord
from spite_malice.web.limits import (
    NEW_MATCH_BURST,
    NEW_MATCH_PER_MINUTE,
    REPLAY_BURST,
    REPLAY_PER_MINUTE,
    RateLimit,
)

from .conftest import new_player, open_seat
from .test_replays import finished_game

FLOOD = 100


@pytest.fixture
def client(client: TestClient) -> Iterator[TestClient]:
    """The client, on a server whose flood limits' clock stands still: on a slow machine a
    flood takes long enough to earn a try back (a replay every 3 seconds), which would change
    the counts."""
    state = client.app.state  # type: ignore[attr-defined]
    state.new_matches = RateLimit(NEW_MATCH_BURST, NEW_MATCH_PER_MINUTE, clock=lambda: 0.0)
    state.replays_made = RateLimit(REPLAY_BURST, REPLAY_PER_MINUTE, clock=lambda: 0.0)
    yield client


def test_a_new_match_flood_on_one_socket_is_bounded(client: TestClient) -> None:
    answer = client.post("/api/rooms", json={"mode": "computer", "level": "easy"}).json()
    with open_seat(client, answer) as seat:
        replies = [seat.request({"type": "new_match"}) for _ in range(FLOOD)]
        assert seat.request({"type": "ping"})["type"] == "pong"  # the socket still serves
    started = [r for r in replies if r.get("cause") == "new_match"]
    refused = [r for r in replies if r.get("code") == "too_many_requests"]
    assert len(started) == NEW_MATCH_BURST and len(refused) == FLOOD - NEW_MATCH_BURST
    assert all(r["message"] for r in refused)
    stored = client.app.state.lobby.store.matches(source="web")  # type: ignore[attr-defined]
    assert len([m for m in stored if m.room == answer["room"]]) <= NEW_MATCH_BURST + 1


def test_a_replay_flood_is_bounded_and_answers_are_compressed(client: TestClient) -> None:
    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    record = GameRecord.from_json(client.get(f"/api/games/{entry['id']}/record").json())
    body = record.dumps().encode()
    # the answer travels gzipped (httpx asks for it, as every browser does)
    with client.stream("POST", "/api/replays", content=body) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-encoding"] == "gzip"
        wire = b"".join(answer.iter_raw())
    text = gzip.decompress(wire)
    assert len(json.loads(text)["frames"]) == len(record.moves) + 1
    print(f"record {len(body)} B, frames {len(text)} B, sent {len(wire)} B")
    assert len(wire) < len(text) / 5
    statuses = [client.post("/api/replays", content=body).status_code for _ in range(FLOOD)]
    statuses += [client.get(f"/api/games/{entry['id']}/replay").status_code for _ in range(5)]
    assert statuses.count(200) == REPLAY_BURST - 1 and set(statuses) == {200, 429}
    # another player's replays are their own
    other = new_player(client, "bob")
    assert client.post("/api/replays", content=body, headers=other).status_code == 200


def test_a_replay_without_gzip_is_sent_plain(client: TestClient) -> None:
    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    plain = client.get(f"/api/games/{entry['id']}/replay", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert plain.json()["frames"]
