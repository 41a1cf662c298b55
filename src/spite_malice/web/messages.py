"""The server's messages on the game WebSocket (``web-protocol.md`` 4.3), as pydantic models.

Every message a room or the socket sends is one of these; :func:`to_text` writes it. Nothing
here reads a game: the rooms fill them from what one seat may see (R6.3).
"""

from __future__ import annotations

from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict

ReplyTo = int | str | None


class _ServerMessage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Welcome(_ServerMessage):
    """First message on a connection: which room and seat this is."""

    type: Literal["welcome"] = "welcome"
    room: str
    seat: int
    mode: str
    level: str | None
    players: list[str | None]


class State(_ServerMessage):
    """The whole state a seat may see, and the current game's public log."""

    type: Literal["state"] = "state"
    reply_to: ReplyTo = None
    cause: str
    seq: int | None = None
    """This state's number: the next ``update``'s ``base`` when nothing was missed."""
    state: dict[str, Any]
    log: list[dict[str, Any]]


class Update(_ServerMessage):
    """One move, its public events and the state after it: whole (``state``), or, for a
    connection that asked for deltas, what changed since the state numbered ``base``
    (``delta``, ``web-protocol.md`` 4.3)."""

    type: Literal["update"] = "update"
    reply_to: ReplyTo = None
    seat: int
    move: str
    events: list[dict[str, Any]]
    seq: int | None = None
    """The number of the state after this move."""
    base: int | None = None
    """The number of the state ``delta`` applies to (None with a whole ``state``)."""
    state: dict[str, Any] | None = None
    delta: dict[str, Any] | None = None


class Hint(_ServerMessage):
    """The answer to a ``hint``: the suggested rest of the turn and why."""

    type: Literal["hint"] = "hint"
    reply_to: ReplyTo = None
    moves: list[str]
    reason: str


class Thinking(_ServerMessage):
    """The computer has begun its turn."""

    type: Literal["thinking"] = "thinking"
    seat: int


class Presence(_ServerMessage):
    """Which seats have a connection open (to any server instance), and for how long each
    seat of a friend room has been offline (None while connected)."""

    type: Literal["presence"] = "presence"
    connected: list[bool]
    away: list[float | None] = [None, None]


class Pong(_ServerMessage):
    """The answer to a ``ping``."""

    type: Literal["pong"] = "pong"
    reply_to: ReplyTo = None


class Error(_ServerMessage):
    """A refused or unreadable message (``web-protocol.md`` 4.5 lists the codes)."""

    type: Literal["error"] = "error"
    reply_to: ReplyTo = None
    code: str
    message: str


ServerMessage = Welcome | State | Update | Hint | Thinking | Presence | Pong | Error
SERVER_MESSAGE_TYPES = tuple(
    model.model_fields["type"].default
    for model in (Welcome, State, Update, Hint, Thinking, Presence, Pong, Error)
)


_KEPT = frozenset(("reply_to",))
"""The fields of an ``update`` written also when None (the others are left out then)."""


def to_text(message: ServerMessage) -> str:
    """The message as the JSON text sent on the socket: pydantic's ``model_dump_json()``
        exactly, written by orjson from the model's fields (in their order) in about a tenth of
        its time (the states' dictionaries of any values were pydantic's slow path: 4% of an
        instance's CPU under load). What orjson cannot write as pydantic would (an integer over
        64 bits, as a page's message id may be) goes through pydantic; text that cannot be
        encoded raises ValueError either way. An ``update`` leaves out its empty ``seq``,
    ``base``, ``state`` and ``delta`` (it carries a whole state or a delta, 4.3)."""
    data = message.__dict__
    if type(message) is Update:  # a whole state or a delta: the other's fields are left out
        data = {key: value for key, value in data.items() if value is not None or key in _KEPT}
    try:
        return orjson.dumps(data).decode()
    except orjson.JSONEncodeError:  # a TypeError: pydantic decides, and says ValueError
        return message.model_dump_json(exclude=set(message.__dict__) - set(data))


BATCH = "batch"
"""The ``type`` of a frame holding several messages (:func:`batch_text`)."""


def batch_text(texts: list[str]) -> str:
    """Messages already written by :func:`to_text`, in order, as the text of one frame
    (``web-protocol.md`` 4.3): ``{"type": "batch", "messages": [...]}`` holding each message's
    own JSON unchanged, or the one message as it is. A connection that asked for batches gets
    every message waiting in its queue this way, so a discard's update and the computer's
    whole turn after it cost one frame to send and to read, not one a move."""
    if len(texts) == 1:
        return texts[0]
    return '{"type":"batch","messages":[' + ",".join(texts) + "]}"


def error(code: str, text: str, reply_to: ReplyTo = None) -> Error:
    return Error(reply_to=reply_to, code=code, message=text)
