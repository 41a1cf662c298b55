"""Every error text a player reads is a plain sentence in the connection's language
(``web-protocol.md`` 4.5): not Python's JSON parser's English ("Expecting value: line 1
column 1 (char 0)"), not the engine's notation help ("unknown target 'C9'; expected
SOURCE-TARGET ..."), not a Python expression ("2**63 - 1")."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .conftest import Seat, hello, new_room

ENGLISH = re.compile(
    r"Expecting|line \d+ column|\(char \d+\)|nested too deeply|too many digits|"
    r"is not a JSON number|SOURCE-TARGET|unknown (source|target)|expected|invalid move|"
    r"\*\*|must be|whole number|not JSON|write HT|\bhas\b|unknown|known:"
)
"""Fragments of the English texts that reached players in other languages."""


@contextmanager
def seat_speaking(client: TestClient, language: str) -> Iterator[Seat]:
    answer = new_room(client, level="easy")
    with client.websocket_connect(f"{answer['ws_url']}?lang={language}") as socket:
        socket.send_json(hello(answer))
        seat = Seat(socket, answer["seat"])
        assert seat.receive()["type"] == "welcome"
        assert seat.receive()["type"] == "state"
        # The computer may start (R1.4): until its turn is over, a move is refused as "busy"
        # before its notation is read.
        seat.wait_my_turn_or_end()
        assert seat.my_turn()
        yield seat


def _error(seat: Seat, frame: str) -> dict[str, Any]:
    reply = seat.send_raw(frame)
    assert reply["type"] == "error", reply
    return reply


NOT_JSON = ["", "x", '{"a":', '{"a":' * 2000 + "1" + "}" * 2000, '{"id": ' + "9" * 5000 + "}"]
NOT_JSON += ['{"type": "ping", "id": NaN}', '{"type": "ping"} x']
BAD_MOVES = ["H7-C9", "ZZ", "h10-c1", "X9-C1", "\u017f1-C1", "\x00"]


@pytest.mark.parametrize("language", ["it", "fr", "pt", "nl", "ru"])
def test_socket_errors_are_plain_sentences_in_the_connections_language(
    client: TestClient, language: str
) -> None:
    with seat_speaking(client, language) as seat:
        for frame in NOT_JSON:
            error = _error(seat, frame)
            assert error["code"] == "bad_json"
            assert not ENGLISH.search(error["message"]), (frame, error["message"])
        for move in BAD_MOVES:
            error = _error(seat, json.dumps({"type": "move", "move": move}))
            assert error["code"] == "bad_notation"
            assert not ENGLISH.search(error["message"]), (move, error["message"])
            assert error["message"][0].isupper() and error["message"].endswith("."), error


def test_a_message_that_is_not_json_says_where_it_goes_wrong(client: TestClient) -> None:
    with seat_speaking(client, "en") as seat:
        assert _error(seat, '{"type": "ping",\n "id": ]}')["message"] == (
            "The message is not JSON: it goes wrong at line 2, character 8."
        )
        assert _error(seat, "")["message"] == (
            "The message is empty: it must be a JSON object with a 'type'."
        )
        deep = _error(seat, "[" * 5000 + "]" * 5000)["message"]
        assert deep == "The message is not JSON that can be read: it is nested too deeply."
    with seat_speaking(client, "it") as seat:
        assert _error(seat, "{}x")["message"] == (
            "Il messaggio non è JSON: c'è un errore alla riga 1, carattere 3."
        )


def test_a_move_that_cannot_be_read_says_why_in_words(client: TestClient) -> None:
    with seat_speaking(client, "en") as seat:
        target = _error(seat, json.dumps({"type": "move", "move": "H7-C9"}))["message"]
        assert target.startswith("This move is not one the game can read. There is no place 'C9'")
        dash = _error(seat, json.dumps({"type": "move", "move": "H7C1"}))["message"]
        assert "a '-'" in dash
        source = _error(seat, json.dumps({"type": "move", "move": "X9-C1"}))["message"]
        assert "There is no place 'X9' to play from" in source
        ten = _error(seat, json.dumps({"type": "move", "move": "H10-C1"}))["message"]
        assert "A 10 in the hand is written HT" in ten
    with seat_speaking(client, "it") as seat:
        said = _error(seat, json.dumps({"type": "move", "move": "H7-C9"}))["message"]
        assert said.startswith("Il gioco non riesce a leggere questa mossa.") and "'C9'" in said


def test_a_seed_out_of_range_says_the_largest_seed_in_digits(client: TestClient) -> None:
    record = {"format": 1, "seed": 1e308, "moves": []}
    answer = client.post("/api/replays", content=json.dumps(record))
    assert answer.status_code == 422
    assert answer.json()["error"] == {
        "code": "bad_record",
        "message": "This file is not a game record. Its seed must be a whole number from 0 to "
        "9,223,372,036,854,775,807.",
    }
    in_italian = client.post(
        "/api/replays", content=json.dumps(record), headers={"Accept-Language": "it"}
    )
    assert "9.223.372.036.854.775.807" in in_italian.json()["error"]["message"]
    room = client.post("/api/rooms", json={"mode": "computer", "seed": 2**63})
    assert "9,223,372,036,854,775,807" in room.json()["error"]["message"]


BAD_RECORDS: list[dict[str, Any]] = [
    {"seed": 1, "moves": []},
    {"format": 2, "seed": 1, "moves": []},
    {"format": 1, "seed": -1, "moves": []},
    {"format": 1, "seed": 1e308, "moves": []},
    {"format": 1, "seed": True, "moves": []},
    {"format": 1, "seed": 1, "moves": [1, 2]},
    {"format": 1, "seed": 1, "moves": [], "first": 7},
    {"format": 1, "seed": 1, "moves": [], "players": [{"a": 1}, 2]},
    {"format": 1, "seed": 1, "moves": [], "result": {"winner": 9}},
    {"format": 1, "seed": 1, "moves": [], "result": {"winner": False, "points": 1, "reason": ""}},
    {"format": 1, "seed": 1, "moves": [], "rules": {"payoff_size": 500}},
    {"format": 1, "seed": 1, "moves": [], "rules": {"decks": 1000}},
    {"format": 1, "seed": 1, "moves": [], "rules": {"jokers": 1}},
    {"format": 1, "seed": 1, "moves": [], "rules": []},
]


@pytest.mark.parametrize("record", BAD_RECORDS, ids=lambda record: json.dumps(record)[:40])
@pytest.mark.parametrize("language", ["it", "ru"])
def test_a_record_file_that_is_not_one_is_refused_in_the_readers_language(
    client: TestClient, record: dict[str, Any], language: str
) -> None:
    answer = client.post(
        "/api/replays", content=json.dumps(record), headers={"Accept-Language": language}
    )
    assert answer.status_code == 422, answer.text
    message = answer.json()["error"]["message"]
    assert not ENGLISH.search(message), message
    assert not re.search(r"\b(not|must|is|the|its)\b", message), message
