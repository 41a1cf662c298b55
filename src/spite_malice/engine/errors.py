"""The engine's one error hierarchy: a base error, then notation and illegal-move errors."""

from __future__ import annotations


class SpiteMaliceError(Exception):
    """Base of every error the engine raises for bad caller input."""


class NotationError(SpiteMaliceError, ValueError):
    """Text that does not parse as a card, move, position or record."""

    def __init__(self, kind: str, text: object, reason: str) -> None:
        self.kind = kind
        self.text = text
        self.reason = reason
        super().__init__(f"invalid {kind} {text!r}: {reason}")


class IllegalMoveError(SpiteMaliceError, ValueError):
    """A well-formed move that the rules do not allow in this position."""

    def __init__(self, move: object, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {str(move)!r}: {reason}")


class PositionError(SpiteMaliceError, ValueError):
    """A position (or record) that parses but breaks the rules: wrong card counts and the like."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"invalid position: {reason}")


class GameOverError(SpiteMaliceError):
    """A move was asked of a game that has already ended."""
