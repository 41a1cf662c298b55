"""An SMTP server of the tests' own (``aiosmtpd``, on loopback): it keeps every message."""

from __future__ import annotations

import email
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller


class Kept:
    """The messages the server took, as parsed messages."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(email.message_from_bytes(envelope.content))
        return "250 OK"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def smtp_server() -> Iterator[tuple[Kept, int]]:
    kept = Kept()
    controller = Controller(kept, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield kept, controller.port
    finally:
        controller.stop()


def text_of(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode(message.get_content_charset() or "utf-8")
