"""The HTTP endpoints: page, reference data, settings, statistics, rooms (web-protocol 1-3)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from spite_malice.web.app import STATIC

from .conftest import PLAYER, hello, new_player, new_room


def error_code(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    return code


def test_health(client: TestClient) -> None:
    # one process on SQLite: the database answers and there is no other instance to hear
    answer = client.get("/api/health")
    assert answer.status_code == 200
    assert answer.json() == {
        "ok": True,
        "database": True,
        "pubsub": True,
        "pubsub_engine": "none",
        "instance": answer.json()["instance"],
    }


def test_page_is_served_at_root_and_join_path(client: TestClient) -> None:
    for path in ("/", "/join/ABCDEF"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        assert "Spite" in response.text


def test_static_javascript_is_served_as_javascript(client: TestClient) -> None:
    scripts = sorted(STATIC.rglob("*.js"))
    if not scripts:
        pytest.skip("the page has no script yet")
    path = "/static/" + scripts[0].relative_to(STATIC).as_posix()
    response = client.get(path)
    assert response.status_code == 200
    assert "javascript" in response.headers["content-type"]


def test_config_lists_levels_presets_and_rules_options(client: TestClient) -> None:
    config = client.get("/api/config").json()
    assert config["player"] is None  # no default player: each browser makes its own
    ids = [level["id"] for level in config["levels"]]
    assert ids and config["default_level"] in ids
    assert config["presets"]["standard"] == {}
    assert config["presets"]["quick"] == {"payoff_size": 10}
    names = {option["name"] for option in config["rules_options"]}
    assert names == set(config["rules_defaults"])
    assert config["animation_speeds"] == ["off", "fast", "normal", "slow"]


def test_rules_page_has_every_section(client: TestClient) -> None:
    rules = client.get("/api/rules").json()
    assert [s["id"] for s in rules["sections"]] == ["R0", "R1", "R2", "R3", "R4", "R5", "R6"]
    items = {item["id"]: item["text"] for s in rules["sections"] for item in s["items"]}
    assert "a King on a 10 is a Jack" in items["R3.1"]
    assert rules["markdown"].startswith("# ")


def test_settings_default_then_saved_then_partial_update(client: TestClient) -> None:
    settings = client.get("/api/settings").json()
    assert settings["player"] == PLAYER
    assert settings["animation_speed"] == "normal"
    assert settings["rules"]["payoff_size"] == 20
    saved = client.put(
        "/api/settings", json={"rules": {"payoff_size": 12}, "animation_speed": "fast"}
    ).json()
    assert saved["rules"]["payoff_size"] == 12 and saved["animation_speed"] == "fast"
    again = client.put("/api/settings", json={"preset": "quick"}).json()
    assert again["rules"]["payoff_size"] == 10 and again["preset"] == "quick"
    assert again["animation_speed"] == "fast"
    assert client.get("/api/settings").json() == again
    bob = new_player(client, "bob")
    assert client.get("/api/settings", headers=bob).json()["rules"]["payoff_size"] == 20


@pytest.mark.parametrize(
    "body",
    [
        {"rules": {"payoff_size": 99}},
        {"rules": {"colour": "red"}},
        {"preset": "huge"},
        {"level": "grandmaster"},
        {"animation_speed": "warp"},
        {"volume": 3},
    ],
)
def test_settings_refuse_invalid_values(client: TestClient, body: dict[str, Any]) -> None:
    before = client.get("/api/settings").json()
    response = client.put("/api/settings", json=body)
    assert response.status_code == 422
    assert error_code(response) == "invalid"
    assert response.json()["error"]["message"]
    assert client.get("/api/settings").json() == before


def test_stats_of_a_new_player_are_empty(client: TestClient) -> None:
    stats = client.get("/api/stats", headers=new_player(client, "nobody")).json()
    assert stats["player"] == "nobody"
    assert stats["levels"] == []
    assert stats["total"]["games"] == 0 and stats["total"]["win_rate"] == 0.0


def test_create_computer_room(client: TestClient) -> None:
    answer = new_room(client, level="easy", preset="quick", seed=5)
    assert answer["seat"] == 0 and answer["mode"] == "computer"
    assert answer["invite_url"] is None
    assert answer["ws_url"] == f"/ws/{answer['room']}"  # the token is never in the URL
    assert len(answer["room"]) == 6 and len(answer["token"]) >= 40


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "solo"},
        {"mode": "computer", "level": "grandmaster"},
        {"mode": "computer", "rules": {"payoff_size": 4}},
        {"mode": "computer", "rules": {"decks": "two"}},
        {"mode": "computer", "preset": "huge"},
        {"mode": "computer", "seed": -1},
        {"mode": "computer", "seed": "12"},
        {"mode": "computer", "extra": True},
        {},
    ],
)
def test_create_room_refuses_invalid_bodies(client: TestClient, body: dict[str, Any]) -> None:
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 422, response.text
    assert error_code(response) == "invalid"


def test_create_room_refuses_non_json(client: TestClient) -> None:
    response = client.post(
        "/api/rooms", content=b"not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert error_code(response) == "invalid"


def test_friend_room_join_once_then_full(client: TestClient) -> None:
    host = new_room(client, mode="friend", player="alice")
    assert host["invite_url"] == f"/#/join/{host['room']}"
    guest = client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"})
    assert guest.status_code == 200
    assert guest.json()["seat"] == 1 and guest.json()["token"] != host["token"]
    again = client.post(f"/api/rooms/{host['room']}/join", json={"player": "carol"})
    # a taken seat answers as an unknown code does (issue 12: no oracle of codes)
    assert again.status_code == 404 and error_code(again) == "unknown_room"
    info = client.get(f"/api/rooms/{host['room']}", headers={"X-Seat-Token": guest.json()["token"]})
    assert info.json()["seat"] == 1 and info.json()["players"] == ["alice", "bob"]


def test_join_errors(client: TestClient) -> None:
    missing = client.post("/api/rooms/ZZZZZZ/join", json={})
    assert missing.status_code == 404 and error_code(missing) == "unknown_room"
    computer = new_room(client, level="easy")
    refused = client.post(f"/api/rooms/{computer['room']}/join", json={})
    assert refused.status_code == 404 and error_code(refused) == "unknown_room"
    assert refused.json() == missing.json()


def test_a_friend_joins_under_its_own_players_name(client: TestClient) -> None:
    host = new_room(client, mode="friend")
    bob = new_player(client, "Bob")
    guest = client.post(f"/api/rooms/{host['room']}/join", headers=bob).json()
    info = client.get(f"/api/rooms/{host['room']}", headers={"X-Seat-Token": guest["token"]}).json()
    assert info["players"] == [PLAYER, "Bob"]


def test_join_accepts_lower_case_code(client: TestClient) -> None:
    host = new_room(client, mode="friend")
    guest = client.post(f"/api/rooms/{host['room'].lower()}/join", json={"player": "bob"})
    assert guest.status_code == 200 and guest.json()["room"] == host["room"]


def test_room_info_needs_the_right_token(client: TestClient) -> None:
    answer = new_room(client, level="easy")
    code = answer["room"]
    ok = client.get(f"/api/rooms/{code}", headers={"X-Seat-Token": answer["token"]})
    assert ok.status_code == 200
    assert ok.json()["seat"] == 0 and ok.json()["match"]["game_number"] == 1
    wrong = client.get(f"/api/rooms/{code}", headers={"X-Seat-Token": "not-a-token"})
    assert wrong.status_code == 404 and error_code(wrong) == "unknown_room"
    unknown = client.get("/api/rooms/QQQQQQ", headers={"X-Seat-Token": answer["token"]})
    assert unknown.status_code == 404 and unknown.json() == wrong.json()


def test_rooms_of_a_player_are_listed_without_tokens(client: TestClient) -> None:
    first = new_room(client, level="easy")
    second = new_room(client, mode="friend")
    erin = new_player(client, "erin")
    client.post(f"/api/rooms/{second['room']}/join", headers=erin)
    listed = client.get("/api/rooms").json()["rooms"]
    assert {room["room"] for room in listed} == {first["room"], second["room"]}
    assert all("token" not in room for room in listed)
    assert [r["seat"] for r in client.get("/api/rooms", headers=erin).json()["rooms"]] == [1]
    assert client.get("/api/rooms", headers=new_player(client, "fred")).json()["rooms"] == []


def test_a_friend_room_still_open_to_join_is_not_listed(client: TestClient) -> None:
    # Its code lets anyone take the free seat, so a player's name must not reveal it.
    waiting = new_room(client, mode="friend")
    assert client.get("/api/rooms").json()["rooms"] == []
    client.post(f"/api/rooms/{waiting['room']}/join", headers=new_player(client, "hal"))
    listed = client.get("/api/rooms").json()["rooms"]
    assert [room["room"] for room in listed] == [waiting["room"]]


def test_a_room_without_rules_takes_the_saved_settings(client: TestClient) -> None:
    client.put("/api/settings", json={"rules": {"payoff_size": 7}, "level": "hard"})
    answer = new_room(client)
    info = client.get(
        f"/api/rooms/{answer['room']}", headers={"X-Seat-Token": answer["token"]}
    ).json()
    assert info["level"] == "hard"
    explicit = new_room(client, level="easy", preset="quick")
    info = client.get(
        f"/api/rooms/{explicit['room']}", headers={"X-Seat-Token": explicit["token"]}
    ).json()
    assert info["level"] == "easy"
    with client.websocket_connect(answer["ws_url"]) as socket:
        socket.send_json(hello(answer))
        socket.receive_json()
        state = socket.receive_json()["state"]
        assert state["observation"]["rules"] == {"payoff_size": 7}
