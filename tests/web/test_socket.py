"""The game WebSocket (web-protocol 4): connecting, validation, turns, undo, hints, new games."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spite_malice.bots import Bot
from spite_malice.engine import Match, Observation, Rules
from spite_malice.table import computer

from .conftest import PLAYER, Seat, greedy, hello, new_room, open_seat, room_of

QUICK = {"payoff_size": 5}


def play_turn(seat: Seat) -> None:
    """Play this seat's whole turn with the greedy policy (ends with a discard or the game)."""
    seat.wait_my_turn_or_end()
    while seat.my_turn():
        reply = seat.play(greedy(seat.observation))
        assert reply["type"] == "update", reply
        if reply["move"][-2] == "S":
            return


def play_game_against_computer(seat: Seat) -> dict[str, Any]:
    """Play until the current game is over; return its outcome."""
    for _ in range(2000):
        seat.wait_my_turn_or_end()
        if seat.observation["outcome"] is not None:
            outcome: dict[str, Any] = seat.observation["outcome"]
            return outcome
        play_turn(seat)
    raise AssertionError("the game did not end")


def start_friend_game(client: TestClient, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    host = new_room(client, mode="friend", player="alice", **body)
    guest = client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"}).json()
    return host, guest


# ----------------------------------------------------------------- connecting


def test_connect_sends_welcome_then_state(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK, seed=1)
    with client.websocket_connect(answer["ws_url"]) as socket:
        socket.send_json(hello(answer))
        welcome = socket.receive_json()
        assert welcome == {
            "type": "welcome",
            "room": answer["room"],
            "seat": 0,
            "mode": "computer",
            "level": "easy",
            "players": [PLAYER, "Easy"],
        }
        state = socket.receive_json()
        assert state["type"] == "state" and state["cause"] == "connect"
        assert state["state"]["observation"]["seat"] == 0
        assert state["log"][0]["kind"] == "dealt"
        assert set(state["state"]) == {
            "room",
            "mode",
            "seat",
            "level",
            "daily",
            "players",
            "observation",
            "match",
            "assisted",
            "can_undo",
            "can_hint",
            "undo_barrier",
            "connected",
            "thinking",
            "resigned",
            "claimed",
            "reveal",
            "away",
            "claim_after",
            "rematch",
        }


@pytest.mark.parametrize("token", ["", "wrong", "x" * 500])
def test_wrong_token_is_refused_and_closed(client: TestClient, token: str) -> None:
    answer = new_room(client, level="easy")
    with client.websocket_connect(f"/ws/{answer['room']}") as socket:
        socket.send_json({"type": "hello", "token": token})
        message = socket.receive_json()
        # a wrong token answers as an unknown room does (issue 12: no oracle)
        if 0 < len(token) <= 128:
            assert message["type"] == "error" and message["code"] == "unknown_room"
        else:  # an empty or overlong token is not a hello at all
            assert message["type"] == "error" and message["code"] == "invalid_message"
            socket.send_json({"type": "hello", "token": "wrong"})
            assert socket.receive_json()["code"] == "unknown_room"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4404


def test_unknown_room_is_refused_and_closed(client: TestClient) -> None:
    answer = new_room(client, level="easy")
    with client.websocket_connect("/ws/QQQQQQ") as socket:
        socket.send_json(hello(answer))
        assert socket.receive_json()["code"] == "unknown_room"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4404


def test_token_of_one_room_does_not_open_another(client: TestClient) -> None:
    first = new_room(client, level="easy")
    second = new_room(client, level="easy")
    with client.websocket_connect(f"/ws/{second['room']}") as socket:
        socket.send_json(hello(first))
        assert socket.receive_json()["code"] == "unknown_room"


# ----------------------------------------------------------------- malformed messages

MALFORMED = [
    ("not json", "bad_json"),
    ("", "bad_json"),
    ("[1, 2]", "bad_json"),
    ('"move"', "bad_json"),
    ("{}", "invalid_message"),
    ('{"type": "fly"}', "invalid_message"),
    ('{"type": 3}', "invalid_message"),
    ('{"type": "move"}', "invalid_message"),
    ('{"type": "move", "move": 7}', "invalid_message"),
    ('{"type": "move", "move": ""}', "invalid_message"),
    ('{"type": "move", "move": "' + "H" * 100 + '"}', "invalid_message"),
    ('{"type": "move", "move": "H7-C1", "card": "7H"}', "invalid_message"),
    ('{"type": "ping", "id": [1]}', "invalid_message"),
    ('{"type": "ping", "id": true}', "invalid_message"),
    ('{"type": "new_match", "rules": "quick"}', "invalid_message"),
    ('{"type": "move", "move": "ZZ"}', "bad_notation"),
    ('{"type": "move", "move": "H10-C1"}', "bad_notation"),
]


@pytest.mark.parametrize(("text", "code"), MALFORMED)
def test_malformed_message_gets_an_error_and_changes_nothing(
    client: TestClient, text: str, code: str
) -> None:
    host = new_room(client, mode="friend", rules=QUICK)
    guest = client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"}).json()
    with open_seat(client, host) as seat:
        first = seat.observation["to_move"]  # the deal is secret: either seat may start
    with open_seat(client, host if first == 0 else guest) as seat:
        before = seat.request({"type": "sync"})["state"]
        reply = seat.send_raw(text)
        assert reply["type"] == "error" and reply["code"] == code, reply
        assert reply["message"]
        # the connection is still usable and nothing changed (but the clock: "away")
        assert seat.request({"type": "ping"})["type"] == "pong"
        after = seat.request({"type": "sync"})["state"]
        assert after | {"away": None} == before | {"away": None}


def test_error_echoes_a_usable_id(client: TestClient) -> None:
    answer = new_room(client, level="easy")
    with open_seat(client, answer) as seat:
        reply = seat.send_raw('{"type": "fly", "id": "abc"}')
        assert reply["reply_to"] == "abc"
        reply = seat.send_raw('{"type": "move", "id": 9}')
        assert reply["reply_to"] == 9 and reply["code"] == "invalid_message"


def test_binary_frame_is_read_as_text(client: TestClient) -> None:
    answer = new_room(client, level="easy")
    with open_seat(client, answer) as seat:
        seat.socket.send_bytes(b'{"type": "ping", "id": 1}')
        assert seat.until(lambda m: m["type"] == "pong")["reply_to"] == 1
        seat.socket.send_bytes(b"\xff\xfe")
        assert seat.until(lambda m: m["type"] == "error")["code"] == "bad_json"


# ----------------------------------------------------------------- turns and seats


def test_moves_out_of_turn_are_refused_in_a_friend_game(client: TestClient) -> None:
    host, guest = start_friend_game(client, rules=QUICK)
    with open_seat(client, host) as one, open_seat(client, guest) as two:
        mover, waiter = (one, two) if one.observation["to_move"] == 0 else (two, one)
        legal = mover.observation["legal_moves"]
        reply = waiter.play(legal[0])
        assert reply["type"] == "error" and reply["code"] == "not_your_turn"
        assert "not your turn" in reply["message"]
        assert waiter.observation["legal_moves"] == []
        # the refused move changed nothing: the mover can still play it
        assert mover.play(legal[0])["type"] == "update"


def test_a_seat_moves_only_for_itself(client: TestClient) -> None:
    host, _guest = start_friend_game(client, rules=QUICK)
    with open_seat(client, host) as one:
        first = one.observation["to_move"]
        if first == 0:
            play_turn(one)
        # now seat 1 is to move; seat 0's token cannot act for it
        assert one.observation["to_move"] == 1
        assert one.play("H7-S1")["code"] == "not_your_turn"
        assert one.request({"type": "undo"})["code"] == "no_undo"
        assert one.request({"type": "hint"})["code"] == "not_available"


def test_illegal_move_gives_the_engine_reason(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK, seed=5)
    with open_seat(client, answer) as seat:
        seat.wait_my_turn_or_end()
        hand = seat.observation["hand"]
        missing = next(r for r in "A23456789TJQK" if all(card[0] != r for card in hand))
        reply = seat.play(f"H{missing}-S1")
        assert reply["code"] == "illegal_move"
        assert reply["message"].startswith(f"illegal move 'H{missing}-S1': there is no")
        assert seat.play("P-S1")["message"].endswith("(R3.5)")


def test_friend_moves_before_the_friend_joins_are_refused(client: TestClient) -> None:
    host = new_room(client, mode="friend", rules=QUICK)
    with open_seat(client, host) as seat:
        assert seat.state["players"] == [PLAYER, None]
        assert seat.state["connected"] == [True, False]
        move = seat.observation["legal_moves"] or ["H7-S1"]
        reply = seat.play(move[0])
        assert reply["code"] in ("waiting_for_opponent", "not_your_turn")
        client.post(f"/api/rooms/{host['room']}/join", json={"player": "bob"})
        joined = seat.until(lambda m: m["type"] == "state" and m["cause"] == "joined")
        assert joined["state"]["players"] == [PLAYER, "bob"]


def test_update_per_move_reaches_both_seats(client: TestClient) -> None:
    host, guest = start_friend_game(client, rules=QUICK)
    with open_seat(client, host) as one, open_seat(client, guest) as two:
        mover, other = (one, two) if one.observation["to_move"] == 0 else (two, one)
        move = greedy(mover.observation)
        mine = mover.play(move)
        assert mine["seat"] == mover.seat and mine["move"] == move
        theirs = other.until(lambda m: m["type"] == "update")
        assert theirs["reply_to"] is None and theirs["move"] == move
        assert [e["kind"] for e in theirs["events"]] == [e["kind"] for e in mine["events"]]
        assert theirs["state"]["observation"]["history"] == [move]


def test_reconnect_gets_the_same_seat_and_state(client: TestClient) -> None:
    host, guest = start_friend_game(client, rules=QUICK)
    with open_seat(client, host) as one:
        with open_seat(client, guest) as two:
            if two.observation["to_move"] == 1:
                play_turn(two)
            before = two.request({"type": "sync"})["state"]
            one.request({"type": "sync"})  # everything sent to one so far is now read
        gone = one.until(lambda m: m["type"] == "presence")
        assert gone["connected"] == [True, False]
        with open_seat(client, guest) as again:
            assert again.seat == 1
            assert again.state["observation"] == before["observation"]
            back = one.until(lambda m: m["type"] == "presence")
            assert back["connected"] == [True, True]


# ----------------------------------------------------------------- against the computer


def test_whole_game_against_the_computer_then_the_next_game(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK)
    with open_seat(client, answer) as seat:
        outcome = play_game_against_computer(seat)
        assert outcome["reason"]
        match = seat.state["match"]
        assert match["games"][0]["winner"] == outcome["winner"]
        assert match["game_number"] == 1
        assert seat.request({"type": "undo"})["code"] == "game_over"
        assert seat.play("H7-S1")["code"] == "game_over"
        assert seat.request({"type": "hint"})["code"] == "game_over"
        fresh = seat.request({"type": "new_game"})
        assert fresh["type"] == "state" and fresh["cause"] == "new_game"
        assert fresh["state"]["match"]["game_number"] == 2
        assert fresh["state"]["observation"]["history"] == [] or fresh["state"]["thinking"]
        assert seat.request({"type": "new_game"})["code"] == "game_not_over"
    stats = client.get("/api/stats", params={"player": PLAYER}).json()
    easy = stats["levels"][0]
    assert easy["level"] == "easy" and easy["games"] == 1
    assert easy["wins"] + easy["losses"] + easy["draws"] == 1


def test_match_over_then_new_match(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules={"payoff_size": 5, "match_target": 1})
    with open_seat(client, answer) as seat:
        for _ in range(50):
            play_game_against_computer(seat)
            if seat.state["match"]["over"]:
                break
            seat.request({"type": "new_game"})
        assert seat.state["match"]["over"]
        assert seat.state["match"]["winner"] in (0, 1)
        assert seat.request({"type": "new_game"})["code"] == "match_over"
        fresh = seat.request({"type": "new_match", "level": "medium"})
        assert fresh["cause"] == "new_match"
        assert fresh["state"]["match"]["score"] == [0, 0]
        assert fresh["state"]["level"] == "medium"
        assert fresh["state"]["players"] == [PLAYER, "Medium"]
    total = client.get("/api/stats").json()["total"]
    assert total["matches"] == 1


def test_new_match_in_the_middle_counts_an_abandoned_loss(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK, seed=11)
    with open_seat(client, answer) as seat:
        play_turn(seat)
        reply = seat.request({"type": "new_match", "preset": "quick"})
        assert reply["cause"] == "new_match"
        assert reply["state"]["observation"]["rules"] == {"payoff_size": 10}
    easy = client.get("/api/stats").json()["levels"][0]
    assert (easy["games"], easy["losses"], easy["points_for"]) == (1, 1, 0)


def test_new_match_refuses_bad_level_and_rules(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK, seed=12)
    with open_seat(client, answer) as seat:
        seat.wait_my_turn_or_end()  # the computer is idle: nothing changes on its own
        before = seat.request({"type": "sync"})["state"]
        assert seat.request({"type": "new_match", "level": "god"})["code"] == "invalid"
        bad = seat.request({"type": "new_match", "rules": {"payoff_size": 1}})
        assert bad["code"] == "invalid"
        assert seat.request({"type": "sync"})["state"] == before


def test_friend_room_new_match_only_after_the_match(client: TestClient) -> None:
    host, _guest = start_friend_game(client, rules=QUICK)
    with open_seat(client, host) as seat:
        assert seat.request({"type": "new_match"})["code"] == "match_not_over"
        assert seat.request({"type": "new_match", "level": "easy"})["code"] == "invalid"


def test_undo_takes_back_one_move_of_the_current_turn(client: TestClient) -> None:
    for seed in range(20, 60):
        answer = new_room(client, level="easy", rules=QUICK, seed=seed)
        with open_seat(client, answer) as seat:
            seat.wait_my_turn_or_end()
            builds = [m for m in seat.observation["legal_moves"] if "-C" in m]
            if not builds or seat.observation["history"]:
                continue
            assert seat.request({"type": "undo"})["code"] == "no_undo"
            before = seat.state
            assert not before["can_undo"]
            after = seat.play(builds[0])["state"]
            assert after["can_undo"]
            undone = seat.request({"type": "undo"})
            assert undone["type"] == "state" and undone["cause"] == "undo"
            state = undone["state"]
            assert state["observation"] == before["observation"]
            assert state["assisted"] and not state["can_undo"]
            assert undone["log"] == before_log(seat)
            # the same move again gives the same position (the replay is exact)
            assert seat.play(builds[0])["state"]["observation"] == after["observation"]
            play_turn(seat)
            seat.wait_my_turn_or_end()
            assert not seat.state["can_undo"]
            return
    pytest.fail("no seed gave a first turn with a build")


def before_log(seat: Seat) -> list[dict[str, Any]]:
    connect = next(m for m in seat.messages if m["type"] == "state")
    log: list[dict[str, Any]] = connect["log"]
    return log


def test_undo_mark_counts_as_assisted(client: TestClient) -> None:
    for _attempt in range(40):  # secret deals (a seeded game is practice, not in the total)
        answer = new_room(client, level="easy", rules=QUICK, player="undoer")
        with open_seat(client, answer) as seat:
            seat.wait_my_turn_or_end()
            # a build from the hand: it turns up no card, so undo takes it back
            legal = seat.observation["legal_moves"]
            builds = [m for m in legal if m.startswith("H") and "-C" in m]
            if not builds:
                continue
            seat.play(builds[0])
            assert seat.request({"type": "undo"})["type"] == "state"
            play_game_against_computer(seat)
            assert seat.state["match"]["games"][0]["assisted"]
            break
    stats = client.get("/api/stats", params={"player": "undoer"}).json()
    assert stats["total"]["assisted"] == 1
    assert stats["total"]["games"] >= 1


def test_hint_suggests_a_legal_move(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK, seed=14)
    with open_seat(client, answer) as seat:
        seat.wait_my_turn_or_end()
        assert seat.state["can_hint"]
        hint = seat.request({"type": "hint"})
        assert hint["type"] == "hint"
        assert hint["moves"] and hint["moves"][0] in seat.observation["legal_moves"]
        assert isinstance(hint["reason"], str)
        assert seat.request({"type": "sync"})["state"]["assisted"]


def test_moves_while_the_computer_plays_are_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    started = threading.Event()
    real_choose = computer.choose

    def held(bot: Bot, observation: Observation) -> Any:
        started.set()
        release.wait(timeout=60)
        return real_choose(bot, observation)

    monkeypatch.setattr(computer, "choose", held)
    answer = new_room(client, level="easy", rules=QUICK, seed=15)
    try:
        with open_seat(client, answer) as seat:
            if seat.my_turn():
                play_turn(seat)  # ends with a discard: the computer's turn begins
                seat.until(lambda m: m["type"] == "thinking")
            # else the computer began at once and is held in its first move
            assert seat.state["thinking"]
            reply = seat.play("H7-S1")
            assert reply["code"] == "busy"
            assert seat.request({"type": "undo"})["code"] == "not_your_turn"
            release.set()
            seat.wait_my_turn_or_end()
            assert not seat.state["thinking"]
    finally:
        release.set()


def test_ping_and_sync(client: TestClient) -> None:
    answer = new_room(client, level="easy")
    with open_seat(client, answer) as seat:
        assert seat.request({"type": "ping"}) == {"type": "pong", "reply_to": 1}
        sync = seat.request({"type": "sync"})
        assert sync["type"] == "state" and sync["cause"] == "sync"
        assert room_of(client, answer["room"]).code == answer["room"]


def _seed_where_computer_starts(rules: Rules) -> int:
    return next(s for s in range(1000) if Match(rules, s).next_game().to_move == 1)


def test_new_match_while_the_computer_thinks(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    real_choose = computer.choose

    def held(bot: Bot, observation: Observation) -> Any:
        release.wait(timeout=60)
        return real_choose(bot, observation)

    monkeypatch.setattr(computer, "choose", held)
    seed = _seed_where_computer_starts(Rules(payoff_size=5))
    answer = new_room(client, level="easy", rules=QUICK, seed=seed)
    try:
        with open_seat(client, answer) as seat:
            assert seat.state["thinking"]
            fresh = seat.request({"type": "new_match", "seed": seed})
            assert fresh["cause"] == "new_match" and fresh["state"]["thinking"]
            release.set()
            seat.wait_my_turn_or_end()
            history = seat.observation["history"]
            assert history and seat.state["match"]["score"] == [0, 0]
    finally:
        release.set()


def test_every_offered_level_plays(client: TestClient) -> None:
    levels = [level["id"] for level in client.get("/api/config").json()["levels"]]
    assert levels
    seed = _seed_where_computer_starts(Rules(payoff_size=5))
    for level in levels:
        answer = new_room(client, level=level, rules=QUICK, seed=seed)
        with open_seat(client, answer) as seat:
            seat.wait_my_turn_or_end()
            history = seat.observation["history"]
            assert history, f"{level} made no move"
            assert seat.state["players"][1] == level.title()
