"""Issue 12's fuzz: random JSON of any shape in every field of every WebSocket message type
and every JSON endpoint. Whatever arrives, the answer is an ``error`` (or the documented
error body) or a valid answer, the connection stays open, the room does not change unless
the message was a legal action, and what the server keeps per client stays bounded."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from spite_malice.web import limits, sockets
from spite_malice.web.messages import SERVER_MESSAGE_TYPES
from spite_malice.web.protocol import MESSAGE_TYPES, ProtocolError, parse_client_message
from spite_malice.web.rooms import Room

from .conftest import Seat, new_player, new_room, open_seat, room_of

EXAMPLES = 40
"""Examples per fuzz test: enough to reach every message type, few enough for a quick suite
(raise it with ``--hypothesis-seed`` runs or a profile when hunting)."""
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ACTIONS = frozenset(
    {
        "move",
        "undo",
        "new_game",
        "new_match",
        "resign",
        "hint",
        "rematch",
        "decline_rematch",
        "claim",
    }
)
"""Message types that may change a room when they are legal."""

HOSTILE_TEXT = st.sampled_from(
    ["", "\ud800", "\udfff\ud800", "\x00", "H7-C1", "P-C1", "quick", "easy", "🂡" * 40, "x" * 70]
)
NUMBERS = st.integers() | st.sampled_from([10**30, -(2**63), 2**63, 10**5000 // 10**4990])
SCALARS = (
    st.none()
    | st.booleans()
    | NUMBERS
    | st.floats(allow_nan=False)
    | st.text(max_size=80)
    | HOSTILE_TEXT
)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=12) | HOSTILE_TEXT, inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value, of any shape, with the values that broke the server before."""

FIELDS = {
    "move": ["move"],
    "hint": [],
    "undo": [],
    "new_game": [],
    "new_match": ["level", "rules", "preset", "seed"],
    "resign": [],
    "rematch": [],
    "decline_rematch": [],
    "claim": [],
    "sync": [],
    "ping": [],
    "hello": ["token"],
}
assert set(FIELDS) == {*MESSAGE_TYPES, "hello"}


@st.composite
def page_messages(draw: st.DrawFn) -> dict[str, Any]:
    """A message of some type with random values (of any JSON shape) in its fields, now and
    then a well-formed one, an extra field or a missing type."""
    kind = draw(st.sampled_from(sorted(FIELDS)) | st.just("fly") | JSON)
    message: dict[str, Any] = {"type": kind}
    for name in FIELDS.get(kind, []) if isinstance(kind, str) else []:
        if draw(st.booleans()):
            good = {"move": st.sampled_from(["H7-C1", "P-C1", "S1-C2", "h2-s1", "HK-C3"])}
            message[name] = draw(good.get(name, JSON) | JSON)
    if draw(st.booleans()):
        message["id"] = draw(JSON | HOSTILE_TEXT)
    if draw(st.integers(0, 9)) == 0:
        message[draw(st.text(max_size=12))] = draw(JSON)
    if draw(st.integers(0, 9)) == 0:
        message.pop("type")
    return message


def snapshot(room: Room) -> tuple[Any, ...]:
    """What a message may change in a room: the game, the match and its marks."""
    table = room.table
    return (
        room.header.id,
        table.game_number,
        table.plies,
        [str(move) for move in table.game.moves],
        table.match_view(),
        sorted(table.assisted),
        table.status,
    )


HANG_GUARD = 120.0
"""Seconds a reply may take before the test gives up: a guard against a server that went
silent (a dead sending task), far above any answer's time; not a speed measure."""


def receive_within(socket: WebSocketTestSession, seconds: float = HANG_GUARD) -> dict[str, Any]:
    """The next message, or a failure when none comes (instead of waiting for ever)."""

    async def receive() -> Any:
        with anyio.fail_after(seconds):
            return await socket._send_rx.receive()

    try:
        message = socket.portal.call(receive)
    except TimeoutError:
        pytest.fail("the server went silent: no message came")
    assert message["type"] == "websocket.send", message
    answer: dict[str, Any] = json.loads(message["text"])
    return answer


def exchange(seat: Seat, text: str, mark: str) -> list[dict[str, Any]]:
    """Send ``text``, then a ping with id ``mark``; every message up to its pong (which
    proves the connection is still open and usable)."""
    seat.socket.send_text(text)
    seat.socket.send_json({"type": "ping", "id": mark})
    answers = []
    while True:
        message = receive_within(seat.socket)
        if message["type"] == "pong" and message.get("reply_to") == mark:
            return answers
        answers.append(message)


def is_legal_action(text: str) -> bool:
    try:
        message = parse_client_message(text)
    except ProtocolError:
        return False
    return message.type in ACTIONS


@pytest.fixture
def friend_table(client: TestClient) -> Iterator[tuple[Room, Seat, Seat]]:
    """A friend room with both seats connected: nothing but its seats' messages moves it."""
    host = new_room(client, mode="friend", rules={"payoff_size": 5})
    guest = client.post(f"/api/rooms/{host['room']}/join", headers=new_player(client, "bob")).json()
    with open_seat(client, host) as one, open_seat(client, guest) as two:
        yield room_of(client, host["room"]), one, two


def test_fuzz_every_websocket_message_type(
    client: TestClient, friend_table: tuple[Room, Seat, Seat]
) -> None:
    room, one, two = friend_table
    counter = iter(range(10**9))

    @FUZZ
    @given(message=page_messages(), seat_number=st.integers(0, 1))
    @example(message={"type": "ping", "id": "\ud800"}, seat_number=0)  # issue 12's frames
    @example(message={"type": "sync", "id": "\udfff"}, seat_number=1)
    @example(message={"type": "new_match", "rules": {"match_target": 10**30}}, seat_number=0)
    @example(message={"type": "hello", "token": "x"}, seat_number=0)
    def check(message: dict[str, Any], seat_number: int) -> None:
        seat = (one, two)[seat_number]
        text = json.dumps(message)
        before = snapshot(room)
        answers = exchange(seat, text, f"fuzz-{next(counter)}")
        assert answers, f"no answer to {text[:80]}"  # an error or the message's answer
        for answer in answers:
            assert answer["type"] in SERVER_MESSAGE_TYPES, answer
            if answer["type"] == "error":
                assert answer["code"] and answer["message"], answer
                assert len(answer["message"]) < 600, answer["message"][:80]
        refused = any(answer["type"] == "error" for answer in answers)
        if refused or not is_legal_action(text):
            assert snapshot(room) == before, (message, answers)
        # what the server keeps for this room stays bounded
        assert len(room.peers[0]) == 1 and len(room.peers[1]) == 1
        for peers in room.peers:
            for peer in peers:
                assert isinstance(peer, sockets.SocketPeer)
                assert peer.queue.qsize() <= sockets.QUEUE_LIMIT
        for other in (one, two):  # keep the other seat's queue drained
            del other.messages[:-1], other.texts[:-1]

    check()
    assert one.request({"type": "sync"})["type"] == "state"


def test_fuzz_messages_before_hello(client: TestClient) -> None:
    answer = new_room(client, level="easy", rules={"payoff_size": 5})

    @FUZZ
    @given(message=page_messages())
    def check(message: dict[str, Any]) -> None:
        if message.get("type") == "hello":
            message["token"] = "not-" + str(message.get("token"))[:40]
        with client.websocket_connect(answer["ws_url"]) as socket:
            socket.send_text(json.dumps(message))
            reply = socket.receive_json()
            assert reply["type"] == "error", reply
            if reply["code"] != "unknown_room":  # anything but a wrong hello: keep waiting
                socket.send_json({"type": "hello", "token": answer["token"]})
                assert socket.receive_json()["type"] == "welcome"

    client.app.state.lookups = limits.RateLimit(burst=10**6)  # type: ignore[attr-defined]
    check()


ENDPOINTS = [
    ("post", "/api/players", ["name"]),
    ("put", "/api/settings", ["player", "rules", "preset", "level", "animation_speed"]),
    ("post", "/api/rooms", ["mode", "player", "level", "rules", "preset", "seed"]),
    ("post", "/api/rooms/{code}/join", ["player"]),
]


@st.composite
def bodies(draw: st.DrawFn, names: list[str]) -> Any:
    """A body for an endpoint: its fields with random JSON values, or any JSON at all."""
    if draw(st.integers(0, 4)) == 0:
        return draw(JSON)
    body = {}
    for name in names:
        if draw(st.booleans()):
            good = {"mode": st.sampled_from(["computer", "friend"])}
            body[name] = draw(good.get(name, JSON) | JSON)
    if draw(st.integers(0, 9)) == 0:
        body[draw(st.text(max_size=12))] = draw(JSON)
    return body


def test_fuzz_every_json_endpoint(client: TestClient) -> None:
    client.app.state.lookups = limits.RateLimit(burst=10**6)  # type: ignore[attr-defined]
    host = new_room(client, mode="friend", rules={"payoff_size": 5})

    @FUZZ
    @given(endpoint=st.sampled_from(ENDPOINTS), data=st.data())
    def check(endpoint: tuple[str, str, list[str]], data: st.DataObject) -> None:
        method, path, names = endpoint
        body = data.draw(bodies(names))
        settings_before = client.get("/api/settings").json()
        response = client.request(
            method.upper(),
            path.format(code=host["room"]),
            content=json.dumps(body),
            headers={"content-type": "application/json"},
        )
        assert response.status_code < 500, (body, response.text)
        answer = response.json()
        if response.status_code >= 400:
            assert set(answer) == {"error"} and set(answer["error"]) == {"code", "message"}
            assert len(response.text) < 1000, response.text[:100]
            assert client.get("/api/settings").json() == settings_before
        assert client.get("/api/health").json()["ok"] is True

    check()
