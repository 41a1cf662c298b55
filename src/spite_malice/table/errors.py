"""The table's refusals: a request that cannot be carried out, with a code front ends map."""

from __future__ import annotations

from ..engine.errors import SpiteMaliceError


class TableError(SpiteMaliceError):
    """A request the table refuses (nothing changed); ``code`` is one of
    ``web-protocol.md`` 4.5 (``not_your_turn``, ``illegal_move``, ``no_undo`` ...) and
    ``message`` a plain sentence for the player; ``reason`` the bare reason (an illegal
    move's rule, without the move)."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason or message
