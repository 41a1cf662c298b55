"""What every part of a room shares: a connection's face (:class:`Peer`), its language, the
room's refusals, and the seats' and modes' names (``web/rooms.py`` and the parts it is made
of: ``room_steps``, ``computer_player``, ``presence``, ``broadcast``)."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from typing import Protocol

from ..i18n import N_, _, current_language, use_language
from ..table import TableError
from . import messages

COMPUTER_MODE, FRIEND_MODE = "computer", "friend"
PERSON_SEAT, COMPUTER_SEAT = 0, 1
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes: no 0/O, 1/I/L to misread."""
CODE_LENGTH = 6

STORE_UNAVAILABLE = N_(
    "The game could not be saved, so that did not happen. Try again in a moment."
)
"""Marked only: say it with ``_(STORE_UNAVAILABLE)`` (or :func:`store_unavailable`)."""

RoomError = TableError
"""A request a room refuses; ``code`` is one of ``web-protocol.md`` 4.5."""


class RoomClosed(Exception):
    """The lobby forgot this room object (it was idle); load the room again to use it."""


class Peer(Protocol):
    """One open connection of a seat: messages are queued, never awaited."""

    def push(self, message: messages.ServerMessage) -> None: ...


def store_unavailable() -> TableError:
    """The refusal when the store failed: nothing happened, try again."""
    return RoomError("store_unavailable", _(STORE_UNAVAILABLE))


def peer_language(peer: Peer) -> str | None:
    """The language of ``peer``'s texts (a socket's ``language``; None: the current one)."""
    language = getattr(peer, "language", None)
    return language if isinstance(language, str) else None


def in_language(language: str | None) -> contextlib.AbstractContextManager[object]:
    """``use_language(language)``, or nothing when the block speaks it already (the usual
    case: a state is made at every move, and entering the block costs as much as a part of
    it)."""
    if language is None or language == current_language():
        return contextlib.nullcontext()
    return use_language(language)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)
