"""A page's messages read by orjson (``protocol._fast_json``) where it reads them as the
standard library does, and by the standard library otherwise: every text gives the same
message, or is refused with the same error, as the standard library's reading gives it."""

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


def _slow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every text read by the standard library alone, as before orjson."""
    monkeypatch.setattr(protocol, "_fast_json", lambda _text: protocol._NOT_FAST)


def test_a_page_s_message_is_read_by_orjson_and_an_odd_one_is_not() -> None:
    """The quick reading is taken (it is what the other tests compare with the usual one)."""
    for text in (
        '{"type": "move", "move": "h1c0", "id": 3}',
        '{"type": "new_match", "level": "easy", "rules": {"payoff_size": 5}}',
        '{"type": "hello", "token": "t", "batch": true, "delta": true}',
    ):
        assert protocol._fast_json(text) is not protocol._NOT_FAST, text
    for text in (
        '{"type": "move", "move": "h1c0", "id": 1180591620717411303424}',  # read as 1.18e21
        '{"type": "move", "move": "h1c0", "id": 1.5}',
        '{"type": "move", "move": "\\ud800"}',
        '{"type": "move", "move": "h1c0", "id": NaN}',
        "[" * 33 + "]" * 33,
        "",
    ):
        assert protocol._fast_json(text) is protocol._NOT_FAST, text


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
    '{"type":"move","move":"h1c0","id":' + "[" * 40 + "]" * 40 + "}",
    '{"type":"new_match","rules":{"payoff_size":5.0}}',
    '{"type":"new_match","rules":{"payoff_size":1e400}}',
    '{"type":"hello","token":"t"}',
    '{"type":"ping","id":-9223372036854775809}',
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_move_s_text_reads_as_the_standard_library_reads_it(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Texts orjson and the standard library might read apart: the same message or error
    as the standard library's reading gives."""
    read = _read(text)
    _slow(monkeypatch)
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


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_MESSAGE = st.fixed_dictionaries(
    {"type": st.sampled_from([*protocol.MESSAGE_TYPES, "hello", "other"])},
    optional={"id": _JSON, "move": _JSON, "rules": _JSON, "level": _JSON, "token": _JSON},
)


@settings(max_examples=300, deadline=None)
@given(message=_MESSAGE, cut=st.integers(min_value=0, max_value=200))
def test_any_message_reads_as_the_standard_library_reads_it(
    message: dict[str, object], cut: int
) -> None:
    """Any message of any type, whole or cut short (an unfinished text), with NaN and
    Infinity written as the standard library writes them: the same message or error with
    orjson as without it."""
    text = json.dumps(message)
    for candidate in (text, text[:cut]):
        read = _read(candidate)
        with pytest.MonkeyPatch.context() as monkeypatch:
            _slow(monkeypatch)
            assert read == _read(candidate)
