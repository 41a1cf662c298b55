"""The engine's one error hierarchy: a base error, then notation and illegal-move errors.

Every error the engine raises for wrong caller input derives from :class:`SpiteMaliceError`,
and those about values (notation, positions, arguments) from :class:`ValueError` as well, so
that code which caught ``ValueError`` before keeps working. Messages quote the input through
:func:`quote`, which is short and safe whatever the input is (a string of megabytes, a list
nested 100,000 deep, a number of 5,000 digits).
"""

from __future__ import annotations

import reprlib

QUOTE_LIMIT = 60
"""Characters of a string that a message quotes; longer strings are cut with ``...``."""


class _ShortRepr(reprlib.Repr):
    """A bounded ``repr``: few items, shallow nesting, and huge numbers described, not written."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = QUOTE_LIMIT
        self.maxother = QUOTE_LIMIT
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 6
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:  # repr() itself fails past 4,300 digits
            return f"<a whole number of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        if len(x) <= self.maxstring:
            return repr(x)
        return repr(x[: self.maxstring - 3]) + "..."


_SHORT = _ShortRepr()


def quote(value: object) -> str:
    """``repr(value)`` for a message, at most a few hundred characters; never raises."""
    try:
        shown = _SHORT.repr(value)
    except Exception:  # a caller's object whose repr fails: say what it is instead
        shown = f"<{type(value).__name__} object>"
    return shown if len(shown) <= 4 * QUOTE_LIMIT else shown[: 4 * QUOTE_LIMIT - 3] + "..."


class SpiteMaliceError(Exception):
    """Base of every error the engine raises for bad caller input."""


class NotationError(SpiteMaliceError, ValueError):
    """Text that does not parse as a card, move, position or record.

    The message quotes ``text`` through :func:`quote`, or shows ``shown`` instead when given
    (a file's whole path, say, where the text would be its contents)."""

    def __init__(self, kind: str, text: object, reason: str, *, shown: str | None = None) -> None:
        self.kind = kind
        self.text = text
        self.reason = reason
        super().__init__(f"invalid {kind} {quote(text) if shown is None else shown}: {reason}")


class IllegalMoveError(SpiteMaliceError, ValueError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(self, move: object, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {quote(str(move))}: {reason}")


class PositionError(SpiteMaliceError, ValueError):
    """A position (or record) that parses but breaks the rules: wrong card counts and the like,
    or a state that no game can reach (see "Positions" in ``docs/notation.md``)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"invalid position: {reason}")


class RecordError(PositionError):
    """A game record (or another saved document, ``kind``) that parses as JSON but is not
    one: a wrong format, a field of the wrong type, a move that fails on replay. It is a
    :class:`PositionError`, so a caller that catches that still catches it; its message names
    what was read (``invalid game record: ...``) rather than calling it a position."""

    def __init__(self, reason: str, kind: str = "game record") -> None:
        self.kind = kind
        SpiteMaliceError.__init__(self, f"invalid {kind}: {reason}")
        self.reason = reason


class GameOverError(SpiteMaliceError):
    """A move was asked of a game that has already ended (a win or a draw, R4).

    :meth:`Game.play` raises it for a well-formed move once :attr:`Game.is_over`; text that
    does not parse still raises :class:`NotationError` first. The game is left unchanged.
    """


class ArgumentError(SpiteMaliceError, ValueError):
    """An argument of the Python API that the engine refuses: a seat, a first player, a move
    index, a card's rank or suit (see the subclasses for rules options and seeds)."""


class RulesError(ArgumentError):
    """``Rules(...)`` with an option out of its range (``engine/rules.md`` marks each [option])."""


class SeedError(ArgumentError):
    """A seed that is not a whole number from 0 to 2**63 - 1 (see :func:`.seeds.check_seed`)."""
