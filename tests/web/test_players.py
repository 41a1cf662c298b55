"""Players (issue 11, item 6): a row with a display name and a secret, made on first visit;
settings, statistics, the unfinished-games list and seats belong to the player and need its
secret, in a header; the operating-system user name never appears."""

from __future__ import annotations

import getpass
import json

from fastapi.testclient import TestClient

from spite_malice.web.api import PLAYER_HEADER

from .conftest import PLAYER, new_player, new_room, open_seat


def test_a_new_player_gets_an_id_and_a_secret_once(client: TestClient) -> None:
    answer = client.post("/api/players", json={"name": "  Ann   Lee "})
    assert answer.status_code == 201
    body = answer.json()
    assert body["name"] == "Ann Lee" and body["id"] and len(body["secret"]) >= 32
    me = client.get("/api/players/me", headers={PLAYER_HEADER: body["secret"]}).json()
    assert me == {"id": body["id"], "name": "Ann Lee"}
    assert client.post("/api/players", json={"name": ""}).status_code == 422


def test_everything_of_a_player_needs_its_secret(client: TestClient) -> None:
    for headers in ({PLAYER_HEADER: ""}, {PLAYER_HEADER: "not-a-secret"}):
        for method, path in (
            ("GET", "/api/settings"),
            ("PUT", "/api/settings"),
            ("GET", "/api/stats"),
            ("GET", "/api/rooms"),
            ("POST", "/api/rooms"),
            ("GET", "/api/players/me"),
        ):
            body = {"mode": "computer"} if path == "/api/rooms" else {}
            answer = client.request(
                method, path, headers=headers, json=body if method != "GET" else None
            )
            assert answer.status_code == 401, (method, path)
            assert answer.json()["error"]["code"] == "no_player"


def test_settings_are_private_to_their_secret(client: TestClient) -> None:
    bob = new_player(client, "bob")
    client.put("/api/settings", json={"animation_speed": "slow", "level": "hard"})
    theirs = client.get("/api/settings", headers=bob).json()
    assert theirs["player"] == "bob" and theirs["animation_speed"] == "normal"
    client.put("/api/settings", json={"animation_speed": "off"}, headers=bob)
    mine = client.get("/api/settings").json()
    assert mine["player"] == PLAYER and mine["animation_speed"] == "slow"
    # a query naming another player changes nothing: the secret decides
    assert client.get("/api/settings", params={"player": "bob"}).json() == mine


def test_the_name_in_settings_renames_the_player(client: TestClient) -> None:
    client.put("/api/settings", json={"player": "Alice B."})
    assert client.get("/api/players/me").json()["name"] == "Alice B."
    assert client.get("/api/stats").json()["player"] == "Alice B."
    answer = new_room(client, level="easy")
    info = client.get(
        f"/api/rooms/{answer['room']}", headers={"X-Seat-Token": answer["token"]}
    ).json()
    assert info["players"][0] == "Alice B."


def test_statistics_are_private_to_their_secret(client: TestClient) -> None:
    bob = new_player(client, "bob")
    answer = new_room(client, level="easy", rules={"payoff_size": 5})  # a seed is practice
    with open_seat(client, answer) as seat:
        assert seat.request({"type": "resign"})["state"]["observation"]  # a lost game
    mine = client.get("/api/stats").json()
    assert mine["total"]["games"] == 1 and mine["total"]["losses"] == 1
    theirs = client.get("/api/stats", headers=bob).json()
    assert theirs["total"]["games"] == 0
    assert client.get("/api/stats", params={"player": PLAYER}, headers=bob).json() == theirs
    assert client.get("/api/rooms", headers=bob).json()["rooms"] == []


def test_the_operating_system_user_never_appears(client: TestClient) -> None:
    user = getpass.getuser()
    fresh = new_player(client, "Zed")
    texts = [
        client.get("/api/config").text,
        client.get("/api/settings", headers=fresh).text,
        client.get("/api/stats", headers=fresh).text,
    ]
    for text in texts:
        assert f'"{user}"' not in text
    assert json.loads(texts[0])["player"] is None
