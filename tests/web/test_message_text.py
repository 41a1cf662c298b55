"""The server's messages are written by orjson from their fields (``messages.to_text``): the
text must be pydantic's ``model_dump_json()`` exactly, for every message a game sends (an
``update`` without its empty fields: it carries a whole state or a delta)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from spite_malice.web import messages

from .conftest import greedy, new_room, open_seat


def test_every_message_of_a_game_is_written_as_pydantic_writes_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole game against the computer, a ping, a bad move and a friend room's presence:
    each message's text equals its ``model_dump_json()``."""
    written: list[tuple[messages.ServerMessage, str]] = []
    original = messages.to_text

    def recording(message: messages.ServerMessage) -> str:
        text = original(message)
        written.append((message, text))
        return text

    monkeypatch.setattr(messages, "to_text", recording)
    answer = new_room(client, level="easy", seed=7, rules={"payoff_size": 5})
    with open_seat(client, answer) as seat, open_seat(client, answer, deltas=True) as other:
        assert seat.request({"type": "ping"})["type"] == "pong"
        assert seat.request({"type": "move", "move": "ZZ"})["type"] == "error"
        for _ in range(400):
            seat.wait_my_turn_or_end()
            if seat.observation["outcome"] is not None:
                break
            seat.play(greedy(seat.observation))
        assert seat.observation["outcome"] is not None
        assert seat.request({"type": "new_game"})["type"] == "state"
        other.until(lambda m: m.get("cause") == "new_game")
        assert other.state == seat.state
    with open_seat(client, new_room(client, mode="friend")) as seat:
        seat.request({"type": "sync"})
    kinds = {message.type for message, _ in written}
    assert {"welcome", "state", "update", "pong", "error", "presence"} <= kinds
    assert any(isinstance(m, messages.Update) and m.delta is not None for m, _ in written)
    for message, text in written:
        empty = {"seq", "base", "state", "delta"} if isinstance(message, messages.Update) else ()
        left_out = {key for key in empty if getattr(message, key) is None}
        assert text == message.model_dump_json(exclude=left_out)


def test_what_orjson_cannot_write_is_written_by_pydantic() -> None:
    """An id over 64 bits (a page may send one) is echoed as pydantic writes it; text that
    cannot be encoded (a lone surrogate) raises ValueError, which the sender logs."""
    big = messages.Pong(reply_to=2**70)
    expected = '{"type":"pong","reply_to":' + str(2**70) + "}"
    assert messages.to_text(big) == big.model_dump_json() == expected
    with pytest.raises(ValueError):
        messages.to_text(messages.error("bad", "a\udc80b"))


def test_the_broadcasters_quick_messages_are_pydantics_own() -> None:
    """The broadcaster makes its states and updates without pydantic's model_construct and
    model_copy (a fifth of an update's making): the same models, fields, order and text."""
    from spite_malice.web.broadcast import constructed, replying

    fields = {"seat": 1, "move": "H1-C2", "events": [{"kind": "built"}], "seq": 3, "base": 2}
    made = constructed(messages.Update, **fields, delta={"thinking": False})
    pydantics = messages.Update.model_construct(**fields, delta={"thinking": False})
    assert made == pydantics and list(made.__dict__) == list(pydantics.__dict__)
    assert made.model_fields_set == pydantics.model_fields_set
    assert messages.to_text(made) == messages.to_text(pydantics)
    answered = replying(made, 7)
    assert answered == pydantics.model_copy(update={"reply_to": 7}) and made.reply_to is None
    assert messages.to_text(answered) == messages.to_text(
        pydantics.model_copy(update={"reply_to": 7})
    )
    state = constructed(messages.State, cause="sync", seq=1, state={"seat": 0}, log=[])
    assert state == messages.State.model_construct(cause="sync", seq=1, state={"seat": 0}, log=[])
