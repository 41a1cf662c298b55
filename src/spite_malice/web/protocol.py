"""The game WebSocket's messages (``docs/web-protocol.md`` section 4): the page's messages as
pydantic models, and the events as JSON objects (the server's messages are in ``messages``).

Nothing here reads a game: every builder takes what one seat may see (an observation, public
events), so no hidden card can reach a message (R6.3).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated, Any, Literal

import orjson
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from ..engine.errors import NotationError, quote
from ..engine.jsontext import load_json
from ..i18n import _, format_number
from . import validation


def _encodes(value: str) -> bool:
    """Whether ``value`` can be sent back as UTF-8 (not so with a lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


MessageId = StrictInt | Annotated[StrictStr, Field(max_length=64)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: MessageId | None = None


class MoveMessage(_Message):
    type: Literal["move"]
    move: Annotated[StrictStr, Field(min_length=1, max_length=16)]


class HintMessage(_Message):
    type: Literal["hint"]


class UndoMessage(_Message):
    type: Literal["undo"]


class NewGameMessage(_Message):
    type: Literal["new_game"]


class NewMatchMessage(_Message):
    type: Literal["new_match"]
    level: Annotated[StrictStr, Field(max_length=64)] | None = None
    rules: dict[str, Any] | None = None
    preset: Annotated[StrictStr, Field(max_length=64)] | None = None
    seed: Annotated[StrictInt, Field(ge=0, le=2**63 - 1)] | None = None


class ResignMessage(_Message):
    type: Literal["resign"]


class RematchMessage(_Message):
    """Offer a rematch of a finished friend match, or accept the friend's offer."""

    type: Literal["rematch"]


class DeclineRematchMessage(_Message):
    """Decline the friend's rematch offer, or withdraw one's own."""

    type: Literal["decline_rematch"]


class ClaimMessage(_Message):
    """Claim the game: the friend has been offline for the claim time."""

    type: Literal["claim"]


class SyncMessage(_Message):
    type: Literal["sync"]


class PingMessage(_Message):
    type: Literal["ping"]


class HelloMessage(_Message):
    """The first message on a connection: the seat's token (never in the URL)."""

    type: Literal["hello"]
    token: Annotated[StrictStr, Field(min_length=1, max_length=128)]
    batch: StrictBool = False
    """Whether the client reads ``batch`` frames (``web-protocol.md`` 4.3): then the messages
    waiting for this connection go out together, one frame (see ``sockets.SocketPeer``)."""
    delta: StrictBool = False
    """Whether the client applies ``delta`` updates (``web-protocol.md`` 4.3): then an update
    carries what changed since the state it numbers ``base``, not the whole state."""


ClientMessage = Annotated[
    MoveMessage
    | HintMessage
    | UndoMessage
    | NewGameMessage
    | NewMatchMessage
    | ResignMessage
    | RematchMessage
    | DeclineRematchMessage
    | ClaimMessage
    | SyncMessage
    | PingMessage,
    Field(discriminator="type"),
]
MESSAGE_TYPES = (
    "move",
    "hint",
    "undo",
    "new_game",
    "new_match",
    "resign",
    "rematch",
    "decline_rematch",
    "claim",
    "sync",
    "ping",
)

_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
_HELLO: TypeAdapter[HelloMessage] = TypeAdapter(HelloMessage)


class ProtocolError(Exception):
    """A page message that cannot be understood; ``code`` is ``bad_json`` or
    ``invalid_message``, ``reply_to`` the message's id when it had a usable one."""

    def __init__(self, code: str, message: str, reply_to: int | str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reply_to = reply_to


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Validate one page message; raise :class:`ProtocolError` saying what is wrong."""
    data, reply_to = _object(text)
    kind = data.get("type")
    if kind == "hello":
        raise ProtocolError(
            "invalid_message", _("This connection has already said hello."), reply_to
        )
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(
            "invalid_message",
            _(
                "Unknown message type {kind}; expected one of {types}.",
                kind=quote(kind),
                types=", ".join(MESSAGE_TYPES),
            ),
            reply_to,
        )
    try:
        return _ADAPTER.validate_python(data)
    except ValidationError as error:
        raise ProtocolError("invalid_message", _describe(error), reply_to) from None


def parse_hello(text: str | bytes) -> HelloMessage:
    """Validate a connection's first message, ``hello``; :class:`ProtocolError` otherwise."""
    data, reply_to = _object(text)
    if data.get("type") != "hello":
        raise ProtocolError(
            "invalid_message",
            # TRANSLATORS: {hello} is the JSON of the hello message, as it is
            _(
                "The first message must be {hello} with your seat's token.",
                hello='{"type": "hello", "token": ...}',
            ),
            reply_to,
        )
    try:
        return _HELLO.validate_python(data)
    except ValidationError as error:
        raise ProtocolError("invalid_message", _describe(error, skip=0), reply_to) from None


def _object(text: str | bytes) -> tuple[dict[str, Any], int | str | None]:
    """The message's JSON object and its usable id; :class:`ProtocolError` otherwise."""
    data = _fast_json(text)
    if data is _NOT_FAST:
        try:
            data = load_json(text, "message")
        except NotationError as error:
            raise ProtocolError("bad_json", _json_problem(text, error.reason)) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", _("The message must be a JSON object with a 'type'."))
    return data, _usable_id(data.get("id"))


_NOT_FAST = object()
"""What :func:`_fast_json` gives for a text it leaves to the standard library."""
_FAST_DEPTH = 32
"""Deeper than this, a message is read by the standard library (no page message is)."""


def _fast_json(text: str | bytes) -> Any:
    """The value of ``text`` read by orjson (a page's every message; several times quicker
    than the standard library, whose reading was most of a message's), or :data:`_NOT_FAST`
    for a text the standard library must read: one orjson refuses (it then says what is
    wrong, or reads what orjson does not: a lone surrogate, UTF-16, a byte order mark before
    bytes), one with a number that is not a whole one (orjson reads a whole number past 64
    bits as a fraction) and one nested deeper than :data:`_FAST_DEPTH` (the two refuse
    nesting at different depths). Every other text is read to the same value by both."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        return _NOT_FAST
    return value if _plain_value(value, _FAST_DEPTH) else _NOT_FAST


def _plain_value(value: object, depth: int) -> bool:
    """Whether ``value`` holds no fraction and nests at most ``depth`` deep."""
    if isinstance(value, dict):
        items: Iterable[object] = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return not isinstance(value, float)
    if depth <= 0:
        return False
    for item in items:
        if isinstance(item, (str, int)):  # a message's every value but a few
            continue
        if not _plain_value(item, depth - 1):
            return False
    return True


_JSON_AT = re.compile(r": line (\d+) column (\d+) \(char \d+\)$")
"""Where Python's JSON parser says it stopped, at the end of its English reason."""


def _json_problem(text: str | bytes, reason: str) -> str:
    """What is wrong with a message that is not JSON, in words (``reason`` is the English one
    of ``engine.jsontext.load_json``): where the parser stopped, or which rule was broken."""
    if not text.strip():
        return _("The message is empty: it must be a JSON object with a 'type'.")
    if reason == "nested too deeply":
        return _("The message is not JSON that can be read: it is nested too deeply.")
    if reason == "a number in it has too many digits":
        return _("The message is not JSON that can be read: a number in it has too many digits.")
    if reason.endswith(" is not a JSON number"):
        return _("The message is not JSON: NaN and Infinity are not JSON numbers.")
    if reason == "not UTF-8 text":
        return _("The message is not JSON: it is not UTF-8 text.")
    found = _JSON_AT.search(reason)
    if found is None:
        return _("The message is not JSON.")
    line, column = int(found[1]), int(found[2])
    # TRANSLATORS: {line} and {column} count from 1: where the JSON parser stopped
    return _(
        "The message is not JSON: it goes wrong at line {line}, character {column}.",
        line=format_number(line),
        column=format_number(column),
    )


def _usable_id(value: object) -> int | str | None:
    if isinstance(value, str) and len(value) <= 64 and _encodes(value):
        return value
    if type(value) is int:
        return value
    return None


def _describe(error: ValidationError, skip: int = 1) -> str:
    """A plain sentence for each field of the message that is wrong (:mod:`.validation`);
    ``skip`` is 1 for a page message (its locations start with its type), 0 for ``hello``."""
    sentences = validation.describe(
        error.errors(), skip=skip, whole=_("The message must be a JSON object with a 'type'.")
    )
    # TRANSLATORS: {problems} is one or more sentences, each saying what is wrong with a field
    return _("The message is not valid. {problems}", problems=" ".join(sentences))


# ----------------------------------------------------------------- server messages
