"""The parts of a game's state that its readers share: players' cards, the outcome, and the
shape of a game that :mod:`.position` and :mod:`.observation` read.

They live apart from :mod:`.game` so that the modules reading a game (positions,
observations) import this one and :mod:`.game` imports them, with no cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from .cards import Card
from .moves import Move
from .rules import TURN_LIMIT, Rules


class OutcomeReason(StrEnum):
    """Why the engine ended a game. The values are the words that records, storage, the web
    protocol and the page have always carried, so a reason compares equal to its text."""

    WON = "pay-off pile emptied"
    """R4.1: a player emptied the pay-off pile."""
    STOCK_EXHAUSTED = "stock exhausted"
    """R4.2: a draw found the stock empty."""
    TURN_LIMIT_REACHED = f"safeguard: {TURN_LIMIT} turns played"
    """R4.3: the turn limit was reached."""


WON = OutcomeReason.WON
STOCK_EXHAUSTED = OutcomeReason.STOCK_EXHAUSTED
TURN_LIMIT_REACHED = OutcomeReason.TURN_LIMIT_REACHED


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: a winner and the points scored (R4.1), or a draw and why (R4.2, R4.3)."""

    winner: int | None
    points: int
    reason: str
    """An :class:`OutcomeReason` for the engine's endings; other layers may end a game for
    reasons of their own (a resignation), so any text is allowed."""

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def to_json(self) -> dict[str, Any]:
        # the reason's words as plain text, as records have always carried them
        return {"winner": self.winner, "points": self.points, "reason": str(self.reason)}


class PlayerState:
    """One player's cards: pay-off pile, hand and side stacks (lists, bottom to top)."""

    __slots__ = ("hand", "payoff", "side")

    def __init__(self, payoff: list[Card], hand: list[Card], side: list[list[Card]]) -> None:
        self.payoff = payoff
        self.hand = hand
        self.side = side

    def copy(self) -> PlayerState:
        side = self.side
        return PlayerState(
            self.payoff[:], self.hand[:], [side[0][:], side[1][:], side[2][:], side[3][:]]
        )

    @property
    def payoff_top(self) -> Card | None:
        """The face-up top of the pay-off pile, or None when it is empty."""
        return self.payoff[-1] if self.payoff else None


class Table(Protocol):
    """What a reader of a game sees of it: a :class:`~.game.Game` is one."""

    @property
    def rules(self) -> Rules: ...
    @property
    def to_move(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def stock(self) -> list[Card]: ...
    @property
    def center(self) -> list[list[Card]]: ...
    @property
    def players(self) -> list[PlayerState]: ...
    @property
    def moves(self) -> list[Move]: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def score(self) -> tuple[int, int]: ...

    def legal_moves(self) -> list[Move]: ...


__all__ = [
    "STOCK_EXHAUSTED",
    "TURN_LIMIT_REACHED",
    "WON",
    "Outcome",
    "OutcomeReason",
    "PlayerState",
    "Table",
]
