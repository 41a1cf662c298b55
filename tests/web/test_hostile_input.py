"""Issue 12, "Crashes and floods": hostile frames and bodies get an error in the documented
shape, the connection stays open, and a damaged room never takes the others down."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spite_malice.web import limits

from .conftest import hello, new_player, new_room, open_seat
from .test_hostile_fuzz import exchange

QUICK = {"payoff_size": 5}


def error_of(response: Any) -> dict[str, Any]:
    body: dict[str, Any] = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message"}, body
    assert body["error"]["message"][0].isupper(), body
    return dict(body["error"])


# ----------------------------------------------------------------- WebSocket frames

HOSTILE_FRAMES = [
    ("[" * 30_000 + "]" * 30_000, "bad_json"),  # RecursionError in json.loads
    ("[" * 100_000 + "]" * 100_000, "too_large"),  # the same, over the frame limit
    ('{"type": "ping", "id": ' + "9" * 5000 + "}", "bad_json"),  # int() over 4,300 digits
    ('{"type": "ping", "id": "\\ud800"}', "invalid_message"),  # a lone surrogate echoed
    ('{"type": "move", "move": "H7-C1", "id": "\\udfff\\ud800"}', "invalid_message"),
    ('{"type": "ping", "id": NaN}', "bad_json"),
    ('{"type": ' + json.dumps("x" * 60_000) + "}", "invalid_message"),
    ('{"type": "move", "move": "H7-C1", ' + json.dumps("k" * 60_000) + ": 1}", "invalid_message"),
]


def test_hostile_frames_get_an_error_and_the_connection_stays_open(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK)
    with open_seat(client, answer) as seat:
        # the computer may open the game (the deal is secret): let it finish its turn first,
        # so that nothing but these frames could change the table
        seat.wait_my_turn_or_end()
        before = seat.request({"type": "sync"})["state"]
        for number, (text, code) in enumerate(HOSTILE_FRAMES):
            # the answers up to a ping's pong: the connection is still open and usable
            answers = [m for m in exchange(seat, text, f"m{number}") if m["type"] == "error"]
            assert [m["code"] for m in answers] == [code], (text[:40], answers)
            assert len(answers[0]["message"]) < 600, answers[0]["message"][:100]
        assert seat.request({"type": "sync"})["state"] == before


def test_a_frame_over_the_limit_is_refused_and_the_connection_stays_open(
    client: TestClient,
) -> None:
    answer = new_room(client, level="easy", rules=QUICK)
    with open_seat(client, answer) as seat:
        reply = seat.send_raw(json.dumps({"type": "ping", "pad": "x" * limits.MAX_FRAME}))
        assert reply["type"] == "error" and reply["code"] == "too_large"
        seat.socket.send_bytes(b"x" * (limits.MAX_FRAME + 1))
        assert seat.until(lambda m: m["type"] == "error")["code"] == "too_large"
        assert seat.request({"type": "ping"})["type"] == "pong"


def test_a_hostile_frame_before_hello_gets_an_error(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK)
    with client.websocket_connect(answer["ws_url"]) as socket:
        socket.send_text("[" * 30_000)
        assert socket.receive_json()["code"] == "bad_json"
        socket.send_json({"type": "ping", "id": "\ud800"})
        assert socket.receive_json()["code"] == "invalid_message"
        socket.send_json(hello(answer))
        assert socket.receive_json()["type"] == "welcome"


# ----------------------------------------------------------------- HTTP bodies


def test_a_body_over_the_limit_is_refused_with_413_from_its_length(client: TestClient) -> None:
    body = json.dumps({"mode": "computer", "rules": {"x": "y" * limits.MAX_BODY}})
    response = client.post("/api/rooms", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert error_of(response)["code"] == "too_large"


def test_a_streamed_body_over_the_limit_is_cut_off_with_413(client: TestClient) -> None:
    chunks = 0

    def stream() -> Iterator[bytes]:
        nonlocal chunks
        yield b'{"mode": "computer", "rules": {"x": "'
        for _ in range(1000):  # 16 MB if it were all read
            chunks += 1
            yield b"y" * 16384
        yield b'"}}'

    response = client.post(
        "/api/rooms", content=stream(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert error_of(response)["code"] == "too_large"


def test_a_body_within_the_limit_is_read(client: TestClient) -> None:
    response = client.put("/api/settings", json={"name": "Zoë"})
    assert response.status_code in (200, 422)


# ----------------------------------------------------------------- error shapes


def test_every_api_error_has_the_documented_shape(client: TestClient) -> None:
    malformed = client.post(
        "/api/rooms", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert malformed.status_code == 422 and error_of(malformed)["code"] == "invalid"
    unknown = client.get("/api/no-such-thing")
    assert unknown.status_code == 404 and error_of(unknown)["code"] == "not_found"
    wrong_method = client.delete("/api/rooms")
    assert wrong_method.status_code == 405
    assert error_of(wrong_method)["code"] == "method_not_allowed"
    missing_asset = client.get("/static/no-such-file.js")
    assert missing_asset.status_code == 404 and error_of(missing_asset)["code"] == "not_found"


def test_a_browser_asking_for_an_unknown_page_gets_the_game_page(client: TestClient) -> None:
    response = client.get("/some/page/nobody/made", headers={"accept": "text/html"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "Spite" in response.text


def test_error_messages_quote_little_of_the_input(client: TestClient) -> None:
    huge = {f"option{index}": "z" * 1000 for index in range(50)}
    response = client.post("/api/rooms", json={"mode": "computer", "rules": huge})
    assert response.status_code == 422
    assert len(response.text) < 1000
    long_key = client.post("/api/rooms", json={"mode": "computer", "k" * 40_000: 1})
    assert long_key.status_code == 422 and len(long_key.text) < 1000


def test_the_config_limits_are_enforced(client: TestClient) -> None:
    config = client.get("/api/config").json()
    bounded = [option for option in config["rules_options"] if "max" in option]
    assert {option["name"] for option in bounded} >= {"match_target", "payoff_size"}
    for option in bounded:
        for value in (option["min"] - 1, option["max"] + 1):
            response = client.post(
                "/api/rooms", json={"mode": "computer", "rules": {option["name"]: value}}
            )
            assert response.status_code == 422, (option["name"], value)
            assert error_of(response)["code"] == "invalid"
        inside = client.post(
            "/api/rooms", json={"mode": "computer", "rules": {option["name"]: option["max"]}}
        )
        assert inside.status_code == 201, inside.text
    huge = client.post("/api/rooms", json={"mode": "computer", "rules": {"match_target": 10**30}})
    assert huge.status_code == 422
    answer = new_room(client, level="easy", rules=QUICK)
    with open_seat(client, answer) as seat:
        reply = seat.request({"type": "new_match", "rules": {"match_target": 10**30}})
        assert reply["type"] == "error" and reply["code"] == "invalid"


# ----------------------------------------------------------------- damaged rooms


def damage(db_path: Path, room: str, column: str, value: str) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute(f"UPDATE matches SET {column} = ? WHERE room = ?", (value, room))


def test_a_damaged_room_is_reported_and_the_others_go_on(
    make_app: Callable[[], FastAPI], db_path: Path
) -> None:
    with TestClient(make_app()) as client:
        me = new_player(client, "ivy")
        client.headers.update(me)
        broken = new_room(client, level="easy", rules=QUICK)
        healthy = new_room(client, level="easy", rules=QUICK)
    damage(db_path, broken["room"], "rules", json.dumps({"decks": 9}))
    with TestClient(make_app()) as client:
        client.headers.update(me)
        info = client.get(f"/api/rooms/{broken['room']}", headers={"X-Seat-Token": broken["token"]})
        assert info.status_code == 500 and error_of(info)["code"] == "damaged_room"
        with client.websocket_connect(broken["ws_url"]) as socket:
            socket.send_json(hello(broken))
            assert socket.receive_json()["code"] == "damaged_room"
        with open_seat(client, healthy) as seat:
            assert seat.request({"type": "ping"})["type"] == "pong"
        assert client.post("/api/rooms", json={"mode": "computer"}).status_code == 201


def test_an_unreadable_row_does_not_break_the_list_of_rooms(
    make_app: Callable[[], FastAPI], db_path: Path
) -> None:
    with TestClient(make_app()) as client:
        me = new_player(client, "ivy")
        client.headers.update(me)
        broken = new_room(client, level="easy", rules=QUICK)
        healthy = new_room(client, level="easy", rules=QUICK)
    damage(db_path, broken["room"], "meta", json.dumps([1]))
    with TestClient(make_app()) as client:
        client.headers.update(me)
        listed = client.get("/api/rooms")
        assert listed.status_code == 200
        assert [room["room"] for room in listed.json()["rooms"]] == [healthy["room"]]
