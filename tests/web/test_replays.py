"""Replays in the page (issue 14 item 2): a stored game's record and frames, record files
checked and refused clearly."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spite_malice.engine import GameRecord
from spite_malice.replay import MAX_RECORD_BYTES

from .conftest import new_player, new_room, open_seat
from .test_socket import QUICK, play_game_against_computer

NOTATION = re.compile(r"\b(P|H[2-9AKQJT]|S[1-4])-[CS][1-4]\b|\(R\d")


def finished_game(client: TestClient) -> dict[str, Any]:
    """Play one quick game against Easy to its end; the seat's last observation."""
    answer = new_room(client, level="easy", rules=QUICK)
    with open_seat(client, answer) as seat:
        play_game_against_computer(seat)
        return seat.observation


def test_a_stored_game_replays_to_exactly_its_final_position(client: TestClient) -> None:
    final = finished_game(client)
    listed = client.get("/api/games").json()["games"]
    assert len(listed) == 1
    entry = listed[0]
    assert entry["seat"] == 0 and entry["level"] == "easy" and entry["moves"] > 0

    download = client.get(f"/api/games/{entry['id']}/record")
    assert download.status_code == 200
    assert "attachment" in download.headers["content-disposition"]
    record = GameRecord.from_json(download.json())
    assert len(record.moves) == entry["moves"]

    replay = client.get(f"/api/games/{entry['id']}/replay").json()
    frames = replay["frames"]
    assert len(frames) == len(record.moves) + 1
    assert [f["move"] for f in frames[1:]] == list(record.moves)
    last = frames[-1]["table"]
    # the last frame is the table the player saw at the end, and more: every card face up
    assert last["outcome"] == final["outcome"] == replay["result"]
    assert last["center"] == final["center"]
    assert last["stock_count"] == final["stock_count"]
    assert last["players"][0]["hand"] == sorted(final["hand"])
    for mine, seen in zip(last["players"], final["players"], strict=True):
        assert mine["side"] == seen["side"]
        assert len(mine["payoff"]) == seen["payoff_count"]
        assert (mine["payoff"][-1] if mine["payoff"] else None) == seen["payoff_top"]
        assert len(mine["hand"]) == seen["hand_count"]
    # and the engine's own replay of the record agrees with it, card for card
    game = record.replay()
    assert last["center"] == [[str(c) for c in s] for s in game.to_position()["center"]]
    for view, player in zip(last["players"], game.to_position()["players"], strict=True):
        assert view["payoff"] == player["payoff"]
        assert view["hand"] == sorted(player["hand"])


def test_a_downloaded_record_opens_as_a_file(client: TestClient) -> None:
    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    text = client.get(f"/api/games/{entry['id']}/record").text
    opened = client.post("/api/replays", content=text.encode())
    assert opened.status_code == 200, opened.text
    stored = client.get(f"/api/games/{entry['id']}/replay").json()
    assert opened.json()["frames"] == stored["frames"]
    assert opened.json()["seat"] is None


def test_only_a_player_of_the_game_reads_its_record(client: TestClient) -> None:
    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    other = new_player(client, "mallory")
    for path in ("record", "replay"):
        answer = client.get(f"/api/games/{entry['id']}/{path}", headers=other)
        assert answer.status_code == 404
        assert answer.json()["error"]["code"] == "unknown_game"
    assert client.get("/api/games", headers=other).json() == {"games": []}
    assert client.get("/api/games/999999/record").status_code == 404
    assert client.get("/api/games/0/replay").status_code == 404


def _refusal(client: TestClient, body: bytes) -> str:
    answer = client.post("/api/replays", content=body)
    assert answer.status_code in (413, 422), answer.text
    message: str = answer.json()["error"]["message"]
    assert message[0].isupper() and message.endswith("."), message
    assert "Traceback" not in message
    assert not NOTATION.search(message), message
    return message


def test_bad_record_files_are_refused_clearly(client: TestClient) -> None:
    good = {"format": 1, "seed": 7, "players": ["A", "B"], "moves": []}
    assert client.post("/api/replays", content=json.dumps(good)).status_code == 200
    assert "not JSON" in _refusal(client, b"{not json")
    assert "not text" in _refusal(client, b"\xff\xfe\x00garbage")
    assert "no record object" in _refusal(client, b"[1, 2, 3]")
    assert "not a game record" in _refusal(client, json.dumps({"format": 2}).encode())
    bad_seed = good | {"seed": -1}
    assert "not a game record" in _refusal(client, json.dumps(bad_seed).encode())
    wrong_hand = good | {"moves": ["HK-C1", "HK-C1", "HK-C1", "HK-C1", "HK-C1", "HK-C1"]}
    assert "cannot be played" in _refusal(client, json.dumps(wrong_hand).encode())
    assert "not a move" in _refusal(client, json.dumps(good | {"moves": ["X9"]}).encode())
    illegal = good | {"moves": ["P-S1"]}
    assert "Move 1 of this record cannot be played" in _refusal(
        client, json.dumps(illegal).encode()
    )
    lying = good | {"result": {"winner": 0, "points": 20, "reason": "pay-off pile emptied"}}
    assert "result does not follow" in _refusal(client, json.dumps(lying).encode())
    # a name that would turn the text beside it round (a right-to-left override) or hide
    hidden = "cannot be shown"
    for name in ("\u202eevil", "a\u0000b", "\u200bA"):
        named = good | {"players": ["A", name]}
        assert hidden in _refusal(client, json.dumps(named).encode()), name
    for name in ("", "Zoë", "\u0645\u200c\u0646"):  # no name, or a joiner between letters
        named = good | {"players": [name, "B"]}
        assert client.post("/api/replays", content=json.dumps(named)).status_code == 200, name
    huge = json.dumps(good | {"moves": ["P-C1"] * (MAX_RECORD_BYTES // 6)}).encode()
    assert client.post("/api/replays", content=huge).status_code == 413


def test_a_resigned_game_replays_where_it_stood(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules=QUICK)
    with open_seat(client, answer) as seat:
        seat.wait_my_turn_or_end()
        reply = seat.request({"type": "resign"})
        assert reply["type"] != "error", reply
    entry = client.get("/api/games").json()["games"][0]
    assert entry["outcome"] == "loss"
    frames = client.get(f"/api/games/{entry['id']}/replay").json()["frames"]
    assert frames[-1]["table"]["outcome"]["reason"] == "resigned"


def test_a_replay_is_encoded_off_the_event_loop_as_the_same_json(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long record's replay is megabytes of frames: FastAPI's own encoder, on the event
    loop, held every game of the server up for seconds. The answer comes as the bytes made
    on a worker thread, the same JSON as before."""
    import fastapi.routing

    from spite_malice.web import replays

    def refuse_frames(value: Any, *args: Any, **kwargs: Any) -> Any:
        assert not (isinstance(value, dict) and "frames" in value), "frames encoded on the loop"
        return encoder(value, *args, **kwargs)

    encoder = fastapi.routing.jsonable_encoder
    monkeypatch.setattr(fastapi.routing, "jsonable_encoder", refuse_frames)
    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    stored = client.get(f"/api/games/{entry['id']}/replay")
    assert stored.status_code == 200 and stored.headers["content-type"] == "application/json"
    record = GameRecord.from_json(client.get(f"/api/games/{entry['id']}/record").json())
    assert stored.json() == json.loads(json.dumps(replays.replay_answer(record, 0)))
    sent = client.post("/api/replays", content=record.dumps().encode())
    assert sent.status_code == 200
    assert sent.json()["frames"] == stored.json()["frames"]


def test_only_a_few_replays_are_made_at_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many records are sent at once, at most REPLAYS_AT_ONCE are replayed at the
    same time (the others wait, and are answered)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from spite_malice.web import replays
    from waiting import wait_for

    finished_game(client)
    entry = client.get("/api/games").json()["games"][0]
    body = json.dumps(client.get(f"/api/games/{entry['id']}/record").json()).encode()
    release = threading.Event()
    lock = threading.Lock()
    running = [0, 0]  # now, most at once
    made = replays.replay_answer

    def held(record: GameRecord, seat: int | None) -> dict[str, Any]:
        with lock:
            running[0] += 1
            running[1] = max(running)
        release.wait(30)
        with lock:
            running[0] -= 1
        return made(record, seat)

    monkeypatch.setattr(replays, "replay_answer", held)
    with ThreadPoolExecutor(6) as pool:
        answers = [pool.submit(client.post, "/api/replays", content=body) for _ in range(6)]
        gate = client.app.state
        others = len(answers) - replays.REPLAYS_AT_ONCE

        def all_arrived() -> bool:
            """The first ones have started and every other one waits at the gate."""
            waiting = getattr(getattr(gate, "replays", None), "_waiters", None) or ()
            return running[1] >= replays.REPLAYS_AT_ONCE and len(waiting) == others

        wait_for(all_arrived, 20, 0.02, f"the first replays to start, the rest to wait: {running}")
        assert running[1] == replays.REPLAYS_AT_ONCE
        release.set()
        assert [answer.result(timeout=60).status_code for answer in answers] == [200] * 6
    assert running == [0, replays.REPLAYS_AT_ONCE]
