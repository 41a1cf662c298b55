"""A malformed request or page message is told what is wrong in plain, translated sentences,
one per field, never pydantic's English fragments ("Input should be a valid integer"), and a
rules object is checked option by option in the reader's language (``web/validation.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from pseudo_catalogs import use_pseudo_catalogs
from spite_malice.engine.errors import SpiteMaliceError
from spite_malice.engine.rules import Rules
from spite_malice.web.validation import rules_problem

from .conftest import Seat, hello, new_room

PYDANTIC_WORDS = ("Input should", "Field required", "Extra inputs", "String should", "valid")
"""pydantic's own phrasing (and its "valid dictionary", "valid integer" ...)."""
ODD_VALUES: list[Any] = [None, True, 0, -1, 1.5, 2**70, "", "x", "x" * 300, [], [1], {}, {"a": 1}]


def refused(client: TestClient, body: Any, path: str = "/api/rooms", **headers: str) -> str:
    answer = client.post(path, json=body, headers=headers)
    assert answer.status_code == 422, answer.text
    message: str = answer.json()["error"]["message"]
    return message


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "The field 'mode' is missing."),
        ({"mode": "bot"}, "The field 'mode' must be one of: computer, friend."),
        ({"mode": "computer", "seed": -1}, "The field 'seed' must be at least 0."),
        ({"mode": "computer", "seed": "7"}, "The field 'seed' must be a whole number."),
        ({"mode": "computer", "level": 3}, "The field 'level' must be text."),
        ({"mode": "computer", "rules": [1]}, "The field 'rules' must be a JSON object."),
        ({"mode": "computer", "speed": 1}, "The field 'speed' is not expected here."),
        ({"mode": "computer", "player": ""}, "The field 'player' must not be empty."),
        (
            {"mode": "computer", "level": "x" * 65},
            "The field 'level' must have at most 64 characters.",
        ),
        (
            {"seed": -1, "level": 3},
            "The field 'mode' is missing. The field 'level' must be text."
            " The field 'seed' must be at least 0.",
        ),
        ([1, 2], "The request body must be a JSON object."),
    ],
)
def test_a_malformed_request_is_told_what_is_wrong_with_each_field(
    client: TestClient, body: Any, message: str
) -> None:
    assert refused(client, body) == "The request is not valid. " + message


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"decks": 4}, "The rules option decks must be 2 or 3."),
        ({"payoff_size": 31}, "The rules option payoff_size must be 5 to 30."),
        ({"payoff_size": "20"}, "The rules option payoff_size must be a whole number."),
        ({"payoff_size": True}, "The rules option payoff_size must be a whole number."),
        ({"match_target": 0}, "The rules option match_target must be at least 1."),
        (
            {"king_can_start_stack": 1},
            "The rules option king_can_start_stack must be true or false.",
        ),
        (
            {"first_player": "me"},
            "The rules option first_player must be one of: higher_card, alternate, loser.",
        ),
        (
            {"jokers": 2},
            "There is no rules option 'jokers'. The options are: decks, payoff_size,"
            " center_stacks, king_can_start_stack, first_player, match_target.",
        ),
    ],
)
def test_rules_options_are_checked_one_by_one(
    client: TestClient, rules: dict[str, Any], message: str
) -> None:
    assert refused(client, {"mode": "computer", "rules": rules}) == message
    # the same words for the player's saved settings
    answer = client.put("/api/settings", json={"rules": rules})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["message"] == message


def test_a_page_message_is_told_what_is_wrong(client: TestClient) -> None:
    answer = new_room(client, seed=5)
    with client.websocket_connect(answer["ws_url"]) as socket:
        socket.send_json({"type": "hello"})
        said = socket.receive_json()
        assert said["message"] == "The message is not valid. The field 'token' is missing."
    with client.websocket_connect(answer["ws_url"]) as socket:
        socket.send_json(hello(answer))
        seat = Seat(socket, answer["seat"])
        socket.send_json({"type": "move", "move": 5, "id": [1], "extra": 0})
        said = seat.until(lambda message: message["type"] == "error")
        assert said["message"] == (
            "The message is not valid. The field 'id' must be a whole number or text."
            " The field 'move' must be text."
            " The field 'extra' is not expected here."
        )


@pytest.mark.parametrize("field", ["mode", "player", "level", "rules", "preset", "seed"])
def test_no_field_is_ever_explained_in_pydantic_english(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, field: str
) -> None:
    """Every odd value of every field: each sentence is translated (a pseudo-catalog marks
    every text it translates with its language), and none is pydantic's."""
    use_pseudo_catalogs(monkeypatch)
    for value in ODD_VALUES:
        answer = client.post(
            "/api/rooms",
            json={"mode": "computer", field: value},
            headers={"Accept-Language": "fr"},
        )
        if answer.status_code == 201:
            continue  # a value this field accepts (no player given, a level left out ...)
        message = answer.json()["error"]["message"]
        assert message.startswith("[fr] "), (field, value, message)
        assert not any(words in message for words in PYDANTIC_WORDS[:4]), (field, value, message)
        invalid = "[fr] The request is not valid. "
        if message.startswith(invalid):  # then one translated sentence a field
            for sentence in message.removeprefix(invalid).split(". "):
                assert sentence.startswith("[fr] "), (field, value, message)


def _engine_accepts(options: dict[str, Any]) -> bool:
    try:
        Rules.from_json(options)
    except SpiteMaliceError:
        return False
    return True


OPTION_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 40),
    st.sampled_from(["", "higher_card", "alternate", "loser", "me", "2"]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(), max_size=2),
)
OPTION_NAMES = st.sampled_from([*Rules.STANDARD.as_dict(), "jokers"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(OPTION_NAMES, OPTION_VALUES, max_size=3))
def test_the_rules_check_agrees_with_the_engine(options: dict[str, Any]) -> None:
    """What the web layer refuses, in words, is exactly what the engine refuses (R0.2, R1.2
    to R1.4, R3.2, R5.1): nothing it lets through fails later, nothing valid is refused."""
    assert (rules_problem(options) is None) == _engine_accepts(options), options


def test_an_unknown_level_is_named_in_the_same_words_everywhere(client: TestClient) -> None:
    levels = client.get("/api/config").json()["levels"]
    names = ", ".join(level["id"] for level in levels)
    said = f"There is no computer level 'nope'. The levels are: {names}."
    assert refused(client, {"mode": "computer", "level": "nope"}) == said
    answer = client.put("/api/settings", json={"level": "nope"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["message"] == said
