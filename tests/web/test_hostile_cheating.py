"""Issue 12, "Cheating": the server alone deals games between people, room codes cannot be
guessed at speed or told apart, invitations expire, and the seat's token is never in a URL."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spite_malice.web import limits

from .conftest import hello, new_room, open_seat
from .test_socket import play_game_against_computer

QUICK = {"payoff_size": 5}


# ----------------------------------------------------------------- seeds


def test_a_friend_room_refuses_a_seed(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"mode": "friend", "seed": 42})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid" and "seed" in error["message"]


def test_a_friend_rematch_refuses_a_seed(client: TestClient) -> None:
    host = new_room(client, mode="friend", rules={**QUICK, "match_target": 1})
    client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"})
    with open_seat(client, host) as seat:
        seat.request({"type": "resign"})  # the match is over: a rematch may be asked
        reply = seat.request({"type": "new_match", "seed": 7})
        assert reply["type"] == "error" and reply["code"] == "invalid"
        assert "seed" in reply["message"]
        # without a seed it is a rematch offer (issue 17): the friend must accept it
        fresh = seat.request({"type": "new_match"})
        assert fresh["type"] == "state" and fresh["cause"] == "rematch"
        assert fresh["state"]["rematch"]["offered_by"] == 0


def test_friend_deals_are_not_derivable_from_a_revealed_game(client: TestClient) -> None:
    """Each game's deal has its own secret seed: a finished game's seed (revealed with its
    record) says nothing of the next. Two rooms never share a deal."""
    hands = set()
    for _ in range(3):
        host = new_room(client, mode="friend", rules=QUICK)
        client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"})
        with open_seat(client, host) as seat:
            mine = seat.observation
            hands.add((*mine["hand"], mine["players"][0]["payoff_top"]))
    assert len(hands) == 3
    room = client.app.state.lobby.rooms[host["room"]]  # type: ignore[attr-defined]
    assert room.header.seed is None and room.table.match.seed is None


def test_a_seeded_computer_game_is_practice_and_not_in_the_total(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules={**QUICK, "match_target": 1}, seed=5)
    with open_seat(client, answer) as seat:
        play_game_against_computer(seat)
    stats = client.get("/api/stats").json()
    levels = {row["level"]: row for row in stats["levels"]}
    assert set(levels) == {"practice"} and levels["practice"]["games"] == 1
    assert stats["total"]["games"] == 0 and stats["total"]["matches"] == 0
    # the same seed deals the same game again: a practice deal is repeatable
    hands = []
    for _ in range(2):
        again = new_room(client, level="easy", rules=QUICK, seed=5)
        with open_seat(client, again) as seat:
            mine = seat.observation  # seat 0's cards: the computer's turn cannot change them
            hands.append((mine["hand"], mine["players"][0]["payoff_top"]))
    assert hands[0] == hands[1]


def test_an_unseeded_computer_game_counts(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules={**QUICK, "match_target": 1})
    with open_seat(client, answer) as seat:
        play_game_against_computer(seat)
    stats = client.get("/api/stats").json()
    assert [row["level"] for row in stats["levels"]] == ["easy"]
    assert stats["total"]["games"] == 1


# ----------------------------------------------------------------- room codes


def test_unknown_and_forbidden_rooms_answer_the_same(client: TestClient) -> None:
    computer = new_room(client, level="easy")
    full = new_room(client, mode="friend")
    client.post(f"/api/rooms/{full['room']}/join", json={"player": "bob"})
    answers = [
        client.post(f"/api/rooms/{code}/join", json={"player": "eve"})
        for code in ("ZZZZZZ", computer["room"], full["room"])
    ]
    assert {response.status_code for response in answers} == {404}
    assert len({response.text for response in answers}) == 1
    infos = [
        client.get(f"/api/rooms/{code}", headers={"X-Seat-Token": "guess"})
        for code in ("ZZZZZZ", computer["room"])
    ]
    assert {response.status_code for response in infos} == {404}
    assert infos[0].text == infos[1].text
    closes = []
    for code in ("ZZZZZZ", computer["room"]):
        with client.websocket_connect(f"/ws/{code}") as socket:
            socket.send_json({"type": "hello", "token": "guess"})
            message = socket.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            closes.append((message["code"], message["message"], closed.value.code))
    assert closes[0] == closes[1]


def test_room_code_guesses_are_rate_limited_per_client(client: TestClient) -> None:
    now = [0.0]
    client.app.state.lookups = limits.RateLimit(  # type: ignore[attr-defined]
        burst=5, per_minute=6, clock=lambda: now[0]
    )
    host = new_room(client, mode="friend")
    for index in range(5):
        miss = client.post(f"/api/rooms/ZZZZZ{index + 2}/join", json={})
        assert miss.status_code == 404
    blocked = client.post(f"/api/rooms/{host['room']}/join", json={})
    assert blocked.status_code == 429
    assert blocked.json()["error"]["code"] == "too_many_requests"
    assert int(blocked.headers["retry-after"]) >= 1
    # wrong tokens count by the address, apart from a player's wrong invitation codes
    tries = [
        client.get(f"/api/rooms/{host['room']}", headers={"X-Seat-Token": "x"}).status_code
        for _ in range(6)
    ]
    assert tries == [404] * 5 + [429]
    with client.websocket_connect(f"/ws/{host['room']}") as socket:
        socket.send_json({"type": "hello", "token": "wrong"})
        assert socket.receive_json()["code"] == "too_many_requests"
    with client.websocket_connect(f"/ws/{host['room']}") as socket:
        socket.send_json(hello(host))  # the right token is never refused
        assert socket.receive_json()["type"] == "welcome"
    now[0] += 10.0  # one look-up back (6 a minute)
    joined = client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"})
    assert joined.status_code == 200


def test_the_right_token_costs_nothing(client: TestClient) -> None:
    client.app.state.lookups = limits.RateLimit(  # type: ignore[attr-defined]
        burst=2, per_minute=0, clock=lambda: 0.0
    )
    answer = new_room(client, level="easy", rules=QUICK)
    for _ in range(5):  # reconnecting is not guessing
        with open_seat(client, answer) as seat:
            assert seat.request({"type": "ping"})["type"] == "pong"
        ok = client.get(f"/api/rooms/{answer['room']}", headers={"X-Seat-Token": answer["token"]})
        assert ok.status_code == 200


def test_the_rate_limit_forgets_clients_so_memory_stays_bounded() -> None:
    now = [0.0]
    limit = limits.RateLimit(burst=3, per_minute=60, clock=lambda: now[0], max_clients=100)
    for index in range(10_000):
        limit.charge(f"10.0.{index // 256}.{index % 256}")
    assert len(limit._buckets) <= 100


def test_an_unanswered_invitation_expires(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = new_room(client, mode="friend")
    made = limits.utcnow()
    later = made + timedelta(days=limits.INVITATION_DAYS, hours=1)
    monkeypatch.setattr(limits, "utcnow", lambda: later)
    late = client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"})
    assert late.status_code == 404 and late.json()["error"]["code"] == "unknown_room"
    monkeypatch.setattr(limits, "utcnow", lambda: made + timedelta(days=6))
    fresh = new_room(client, mode="friend")
    in_time = client.post(f"/api/rooms/{fresh['room']}/join", json={"player": "bob"})
    assert in_time.status_code == 200


# ----------------------------------------------------------------- the token


def test_the_token_is_never_in_a_url_nor_in_a_log(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answer = new_room(client, level="easy", rules=QUICK)
    assert answer["token"] not in answer["ws_url"] and "?" not in answer["ws_url"]
    with open_seat(client, answer) as seat:
        assert seat.request({"type": "ping"})["type"] == "pong"
    assert all(answer["token"] not in record.getMessage() for record in caplog.records)


def test_a_token_in_the_url_does_not_open_a_seat(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK)
    with client.websocket_connect(f"/ws/{answer['room']}?token={answer['token']}") as socket:
        socket.send_json({"type": "ping", "id": 1})
        reply: dict[str, Any] = socket.receive_json()
        assert reply["type"] == "error" and reply["code"] == "invalid_message"
        assert "hello" in reply["message"]


def test_a_connection_that_never_says_hello_is_closed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "HELLO_SECONDS", 0.2)
    answer = new_room(client, level="easy", rules=QUICK)
    with (
        client.websocket_connect(answer["ws_url"]) as socket,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        socket.receive_json()
    assert closed.value.code == 4404


def test_a_room_look_up_takes_the_token_in_a_header_not_the_url(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK)
    path = f"/api/rooms/{answer['room']}"
    # a token in the query string would be written to access logs: it opens nothing
    in_url = client.get(path, params={"token": answer["token"]})
    assert in_url.status_code == 404 and in_url.json()["error"]["code"] == "unknown_room"
    in_header = client.get(path, headers={"X-Seat-Token": answer["token"]})
    assert in_header.status_code == 200 and in_header.json()["seat"] == 0
