"""The text protocol for bots in any language (as UCI is for chess engines): the host's side.

The host side is :class:`.external.ExternalBot`, a :class:`~spite_malice.bots.Bot` that runs
an outside program and talks to it over standard input and output. The bot author's side,
which helps write such a program in Python, is a package of its own,
:mod:`spite_malice.bot_client`; the two share only the constants below. The protocol itself
is described in ``docs/bot-protocol.md``.
"""

from __future__ import annotations

PROTOCOL_VERSION = 1
"""The protocol version this engine speaks."""
GREETING = "spite-malice-protocol"
"""The first word the engine sends, followed by the versions it speaks."""

__all__ = ["GREETING", "PROTOCOL_VERSION"]
