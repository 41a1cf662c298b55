"""Issue 47, item 1, over HTTP (web-protocol 2.12): a turn-based friend game is made with a
time per move of 1, 3 or 7 days (anything else is refused in plain words), joined as any
friend game, and listed for both players with the time left in days and hours."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from spite_malice.web import create_app
from spite_malice.web.api import PLAYER_HEADER


@pytest.fixture
def client(tmp_path: Path, new_database: Path) -> Iterator[TestClient]:
    path = tmp_path / "turns.db"
    shutil.copyfile(new_database, path)  # a new database
    with TestClient(create_app(str(path))) as test_client:
        answer = test_client.post("/api/players", json={"name": "Alice"})
        test_client.headers[PLAYER_HEADER] = answer.json()["secret"]
        yield test_client


def test_a_turn_based_game_is_made_joined_and_listed(client: TestClient) -> None:
    made = client.post("/api/turn-games", json={"days": 3})
    assert made.status_code == 201, made.text
    game = made.json()
    assert game["days"] == 3 and game["invite_url"] == f"/#/join/{game['room']}"
    bob = {PLAYER_HEADER: client.post("/api/players", json={"name": "Bob"}).json()["secret"]}
    joined = client.post(f"/api/rooms/{game['room']}/join", headers=bob)
    assert joined.status_code == 200, joined.text
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    client.portal.call(lobby.turns.settled)  # type: ignore[union-attr]
    [mine] = client.get("/api/turn-games").json()["games"]
    [theirs] = client.get("/api/turn-games", headers=bob).json()["games"]
    assert mine["room"] == theirs["room"] == game["room"]
    assert (mine["opponent"], theirs["opponent"]) == ("Bob", "Alice")
    assert mine["your_turn"] != theirs["your_turn"]  # one of them is to move
    assert mine["left"] in ("3 days", "2 days and 23 hours")
    assert mine["days"] == 3 and mine["status"] == "playing"


def test_only_one_three_or_seven_days(client: TestClient) -> None:
    refused = client.post("/api/turn-games", json={"days": 2})
    assert refused.status_code == 422
    message = refused.json()["error"]["message"]
    assert "days" in message and "Traceback" not in message
