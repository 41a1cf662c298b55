"""Batches (issue 13, web-protocol.md 4.3): a connection whose ``hello`` says
``"batch": true`` gets the messages waiting in its queue together, as one ``batch`` frame
holding each message's own JSON in order (a discard's update and the computer's whole turn
after it: one frame to send and to read instead of one a move). A connection that did not
ask gets one frame a message, exactly as before."""

from __future__ import annotations

import asyncio
import json
from itertools import pairwise
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from spite_malice.web import messages
from spite_malice.web.sockets import SocketPeer

from .conftest import MAX_MESSAGES, hello, new_room


class Recorder:
    """A WebSocket that keeps the text of every frame sent to it."""

    def __init__(self) -> None:
        self.frames: list[str] = []

    async def send_text(self, text: str) -> None:
        self.frames.append(text)

    async def close(self, code: int = 1000) -> None:
        raise AssertionError("a reading connection is not closed")


def frames_for(batches: bool, pushed: list[messages.ServerMessage]) -> list[str]:
    """The frames a connection sends for messages pushed together (in one go)."""

    async def scenario() -> list[str]:
        socket = Recorder()
        peer = SocketPeer(socket)  # type: ignore[arg-type]
        peer.batches = batches
        for message in pushed:
            peer.push(message)
        await peer.finish()
        return socket.frames

    return asyncio.run(scenario())


PUSHED: list[messages.ServerMessage] = [
    messages.Pong(reply_to=1),
    messages.Thinking(seat=1),
    messages.error("invalid_move", "Not now.", 2),
]


def test_messages_waiting_together_go_out_as_one_batch_in_order() -> None:
    texts = [messages.to_text(message) for message in PUSHED]
    (frame,) = frames_for(True, PUSHED)
    batch = json.loads(frame)
    assert batch == {"type": "batch", "messages": [json.loads(text) for text in texts]}
    assert frame == '{"type":"batch","messages":[' + ",".join(texts) + "]}"  # bytes unchanged


def test_a_connection_that_did_not_ask_gets_one_frame_a_message() -> None:
    assert frames_for(False, PUSHED) == [messages.to_text(message) for message in PUSHED]


def test_a_message_alone_is_sent_as_it_is_not_in_a_batch() -> None:
    assert frames_for(True, PUSHED[:1]) == [messages.to_text(PUSHED[0])]


class Reader:
    """A seat's connection read frame by frame: the frames, and the messages in them."""

    def __init__(self, socket: WebSocketTestSession) -> None:
        self.socket = socket
        self.frames: list[list[dict[str, Any]]] = []

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [message for frame in self.frames for message in frame]

    def receive_frame(self) -> list[dict[str, Any]]:
        message: dict[str, Any] = self.socket.receive_json()
        held = message["messages"] if message["type"] == "batch" else [message]
        assert held, "a batch is never empty"
        self.frames.append(held)
        return held

    def until(self, done: Any) -> dict[str, Any]:
        for _ in range(MAX_MESSAGES):
            for message in self.receive_frame():
                if done(message):
                    return message
        raise AssertionError("the awaited message never came")


def without_reply_to(message: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in message.items() if key != "reply_to"}


def test_a_batching_connection_gets_the_same_messages_as_one_frame_each(
    client: TestClient,
) -> None:
    """Two connections of one seat, one asking for batches: the same messages in the same
    order (the page handles a batch's messages one by one, as if they came so), and a
    discard's update and the computer's turn after it in one frame."""
    answer = new_room(client, mode="computer", level="easy", rules={"payoff_size": 5}, seed=3)
    with (
        client.websocket_connect(answer["ws_url"]) as plain_socket,
        client.websocket_connect(answer["ws_url"]) as batch_socket,
    ):
        plain_socket.send_json(hello(answer))
        plain = Reader(plain_socket)
        plain.until(lambda m: m["type"] == "state")
        batch_socket.send_json({**hello(answer), "batch": True})
        batching = Reader(batch_socket)
        welcome, first, *_ = batching.receive_frame()  # waiting together: one frame
        assert (welcome["type"], first["type"]) == ("welcome", "state")
        state = next(m["state"] for m in reversed(batching.messages) if "state" in m)
        together: list[dict[str, Any]] = []
        for ident in range(1, 60):
            observation = state["observation"]
            if observation["outcome"] is not None:
                break
            if observation["to_move"] != 0 or state["thinking"]:
                state = batching.until(lambda m: "state" in m)["state"]
                continue
            # the person discards from the hand at once: the computer's turn follows
            move = next(m for m in observation["legal_moves"] if "-S" in m and m[0] == "H")
            batch_socket.send_json({"type": "move", "move": move, "id": ident})
            answered = batching.until(lambda m, ident=ident: m.get("reply_to") == ident)
            assert answered["type"] == "update", answered
            state = answered["state"]
            frame = batching.frames[-1]
            at = frame.index(answered)
            if any(m["type"] == "update" and m["seat"] == 1 for m in frame[at + 1 :]):
                together = frame[at:]
                break
        assert together, batching.frames
        # the discard's update, then the computer's updates, in the order they were played
        assert next(m["seat"] for m in together if m["type"] == "update") == 0
        plays = [m["state"]["observation"]["history"] for m in together if m["type"] == "update"]
        assert all(len(b) == len(a) + 1 and b[: len(a)] == a for a, b in pairwise(plays))
        # the other connection of the seat got the same updates, one frame each
        ours = [without_reply_to(m) for m in batching.messages if m["type"] == "update"]
        for _ in range(MAX_MESSAGES):
            theirs = [without_reply_to(m) for m in plain.messages if m["type"] == "update"]
            if len(theirs) >= len(ours):
                break
            plain.receive_frame()
        assert theirs[: len(ours)] == ours
        assert all(len(frame) == 1 for frame in plain.frames)


def test_a_hello_whose_batch_is_not_true_or_false_is_refused(client: TestClient) -> None:
    answer = new_room(client, mode="computer", level="easy")
    with client.websocket_connect(answer["ws_url"]) as socket:
        socket.send_json({**hello(answer), "batch": "yes"})
        reply = socket.receive_json()
        assert (reply["type"], reply["code"]) == ("error", "invalid_message")
        assert "batch" in reply["message"]  # the field is named
        socket.send_json({**hello(answer), "batch": False})  # still waiting for a good one
        assert socket.receive_json()["type"] == "welcome"
        assert socket.receive_json()["type"] == "state"
