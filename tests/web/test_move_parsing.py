"""A page's ``move`` message taken without pydantic's validation when it is plain
(``protocol._plain_move``): the same message as pydantic makes of it, and every other one
still read, or refused with the same error, by pydantic."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spite_malice.web import protocol
from spite_malice.web.protocol import MoveMessage, ProtocolError, parse_client_message


def _by_pydantic(data: dict[str, Any]) -> object:
    """What the message reads as through pydantic alone: the message, or the error's words."""
    try:
        return protocol._ADAPTER.validate_python(data)
    except protocol.ValidationError as error:
        return ("invalid_message", protocol._describe(error))


def _read(text: str) -> object:
    try:
        return parse_client_message(text)
    except ProtocolError as error:
        return (error.code, error.message)


CASES: list[dict[str, Any]] = [
    {"type": "move", "move": "h1c0"},
    {"type": "move", "move": "h1c0", "id": 7},
    {"type": "move", "move": "h1c0", "id": None},
    {"type": "move", "move": "s0c2", "id": "a-text-id"},
    {"type": "move", "move": "x" * 16, "id": -(2**63)},
    {"type": "move", "move": "x" * 17},
    {"type": "move", "move": ""},
    {"type": "move"},
    {"type": "move", "move": 5},
    {"type": "move", "move": "h1c0", "id": True},
    {"type": "move", "move": "h1c0", "id": 1.5},
    {"type": "move", "move": "h1c0", "id": 2**63},
    {"type": "move", "move": "h1c0", "id": 2**70},
    {"type": "move", "move": "h1c0", "id": "i" * 65},
    {"type": "move", "move": "h1c0", "id": "é" * 64},
    {"type": "move", "move": "é" * 16},
    {"type": "move", "move": "\ud800"},
    {"type": "move", "move": "h1c0", "id": "\ud800"},
    {"type": "move", "move": "h1c0", "extra": 1},
    {"type": "move", "move": ["h1c0"]},
]


@pytest.mark.parametrize("data", CASES, ids=[json.dumps(case) for case in CASES])
def test_a_move_reads_as_pydantic_reads_it(data: dict[str, Any]) -> None:
    read = _read(json.dumps(data))
    assert read == _by_pydantic(data)
    if isinstance(read, MoveMessage):
        assert read.model_fields_set == set(data)
        assert read.model_dump() == _by_pydantic(data).model_dump()  # type: ignore[attr-defined]


def test_a_plain_move_skips_pydantic_and_an_odd_one_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast path is taken (it is what the other test compares with pydantic's)."""
    asked: list[object] = []
    validate = protocol._ADAPTER.validate_python

    class Counting:
        def validate_python(self, data: object) -> object:
            asked.append(data)
            return validate(data)

    monkeypatch.setattr(protocol, "_ADAPTER", Counting())
    assert parse_client_message('{"type": "move", "move": "h1c0", "id": 3}') == MoveMessage(
        type="move", move="h1c0", id=3
    )
    assert asked == []
    with pytest.raises(ProtocolError):
        parse_client_message('{"type": "move", "move": "h1c0", "id": true}')
    assert len(asked) == 1


_VALUES = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=70)


TEXTS = [
    '{"type":"move","move":"h1c0","move":"s0c1"}',
    '{"type":"move","type":"move","move":"h1c0","id":1}',
    ' {"type":"move","move":"h1c0"}',
    '\ufeff{"type":"move","move":"h1c0"}',
    '{"type":"move","move":"h1c0","id":1180591620717411303424}',
    '{"type":"move","move":"h1c0","id":1e2}',
    '{"type":"move","move":"h1c0","id":-0}',
    '{"type":"move","move":"\\ud800"}',
    '{"type":"move","move":"h1c0","id":"\\ud83d\\ude00"}',
    '{"type":"move","move":"h1c0","id":NaN}',
    '{"type":"move","move":"h1c0"} x',
    '{"type":"move","move":"h1\\u0063"}',
    '["move"]',
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_move_s_text_reads_as_without_the_plain_path(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Texts orjson and the standard library might read apart: the same message or error
    as the usual way gives (the plain path turned off)."""
    read = _read(text)
    monkeypatch.setattr(protocol, "_plain_move", lambda _text: None)
    assert read == _read(text)
    if isinstance(read, MoveMessage):
        assert read.model_fields_set == _read(text).model_fields_set  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(
    move=_VALUES,
    message_id=_VALUES,
    extra=st.dictionaries(st.sampled_from(["id", "move", "x", "level"]), _VALUES, max_size=2),
)
def test_any_move_message_reads_as_pydantic_reads_it(
    move: object, message_id: object, extra: dict[str, object]
) -> None:
    data: dict[str, Any] = {"type": "move", "move": move, "id": message_id, **extra}
    if any(isinstance(value, float) and not math.isfinite(value) for value in data.values()):
        return  # NaN and Infinity are no JSON: not a message a page can send
    text = json.dumps(data)
    assert _read(text) == _by_pydantic(json.loads(text))
