"""Small frozen records of every change to a game, in the order they happen.

The user interfaces animate them, the log prints them and storage keeps them. Chance is
explicit: dealing, drawing and shuffling are events too. Events may name hidden cards
(``CardsDrawn.cards``); :func:`public_event` strips what a seat may not see (R6).

Each event class names its :class:`EventKind` (``CardBuilt.kind``), and a built card's
source is a :class:`BuildSource`: enums whose values are the words the web protocol has
always written, so an event's JSON is the same text as before.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from .cards import KING, RANK_OF, Card, a_rank, card_str, cards_str
from .state import OutcomeReason


class EventKind(StrEnum):
    """What an event records, in the words of an event's ``kind`` in web-protocol.md 4.4."""

    DEALT = "dealt"
    BUILT = "built"
    DISCARDED = "discarded"
    CARDS_DRAWN = "cards_drawn"
    PAYOFF_TURNED = "payoff_turned"
    STACK_COMPLETED = "stack_completed"
    TURN_ENDED = "turn_ended"
    GAME_WON = "game_won"
    GAME_DRAWN = "game_drawn"

    __repr__ = str.__repr__  # reads as its words in an event's repr, as before


class BuildSource(StrEnum):
    """Where a built card came from (R3.1), in the notation's words: the pay-off pile, the
    hand, or a side stack."""

    PAYOFF = "P"
    HAND = "H"
    SIDE_1 = "S1"
    SIDE_2 = "S2"
    SIDE_3 = "S3"
    SIDE_4 = "S4"

    __repr__ = str.__repr__  # reads as its words in an event's repr, as before


@dataclass(frozen=True, slots=True)
class GameDealt:
    """R1.2-R1.4: the cards are dealt and ``first`` starts; ``reshuffles`` counts tie reshuffles."""

    kind: ClassVar[EventKind] = EventKind.DEALT
    first: int
    reshuffles: int

    def __str__(self) -> str:
        tie = f" after {self.reshuffles} tie reshuffle(s)" if self.reshuffles else ""
        return f"cards dealt; player {self.first + 1} starts{tie}"


@dataclass(frozen=True, slots=True)
class CardBuilt:
    """R3.1: ``card`` went from ``source`` (``P``, ``H``, ``S1``…) onto ``center`` as ``value``."""

    kind: ClassVar[EventKind] = EventKind.BUILT
    player: int
    source: BuildSource
    card: Card
    center: int
    value: int

    def __str__(self) -> str:
        where = {BuildSource.PAYOFF: "the pay-off pile", BuildSource.HAND: "the hand"}.get(
            self.source, f"side stack {self.source[1:]}"
        )
        stands = f" as {a_rank(self.value)}" if RANK_OF[self.card] == KING else ""
        return (
            f"player {self.player + 1} builds {card_str(self.card)}{stands} from {where} "
            f"on center {self.center + 1}"
        )


@dataclass(frozen=True, slots=True)
class CardDiscarded:
    """R3.3: ``card`` went from the hand onto side stack ``side``."""

    kind: ClassVar[EventKind] = EventKind.DISCARDED
    player: int
    card: Card
    side: int

    def __str__(self) -> str:
        return (
            f"player {self.player + 1} discards {card_str(self.card)} on side stack {self.side + 1}"
        )


@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """R2.1 / R3.4(c): ``player`` drew ``count`` cards; ``cards`` is empty in public events."""

    kind: ClassVar[EventKind] = EventKind.CARDS_DRAWN
    player: int
    count: int
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        shown = f" ({cards_str(self.cards)})" if self.cards else ""
        return f"player {self.player + 1} draws {self.count} card(s){shown}"


@dataclass(frozen=True, slots=True)
class PayoffTurned:
    """R3.4(a): the next pay-off card of ``player`` is turned face up."""

    kind: ClassVar[EventKind] = EventKind.PAYOFF_TURNED
    player: int
    card: Card

    def __str__(self) -> str:
        return f"player {self.player + 1} turns up pay-off card {card_str(self.card)}"


@dataclass(frozen=True, slots=True)
class StackCompleted:
    """R3.4(b): center ``center`` reached a Queen; its cards went into the stock, now shuffled."""

    kind: ClassVar[EventKind] = EventKind.STACK_COMPLETED
    center: int
    cards: tuple[Card, ...]
    stock_size: int

    def __str__(self) -> str:
        return (
            f"center {self.center + 1} is complete; its {len(self.cards)} cards are shuffled "
            f"into the stock ({self.stock_size} cards)"
        )


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """R2.3: ``player`` ended turn number ``turn``."""

    kind: ClassVar[EventKind] = EventKind.TURN_ENDED
    player: int
    turn: int

    def __str__(self) -> str:
        return f"player {self.player + 1} ends turn {self.turn}"


@dataclass(frozen=True, slots=True)
class GameWon:
    """R4.1: ``player`` emptied the pay-off pile and scores ``points``."""

    kind: ClassVar[EventKind] = EventKind.GAME_WON
    player: int
    points: int

    def __str__(self) -> str:
        return f"player {self.player + 1} wins, scoring {self.points} point(s)"


@dataclass(frozen=True, slots=True)
class GameDrawn:
    """R4.2 / R4.3: the game ended without a winner, for ``reason``."""

    kind: ClassVar[EventKind] = EventKind.GAME_DRAWN
    reason: OutcomeReason

    def __str__(self) -> str:
        return f"the game is drawn: {self.reason}"


Event = (
    GameDealt
    | CardBuilt
    | CardDiscarded
    | CardsDrawn
    | PayoffTurned
    | StackCompleted
    | TurnEnded
    | GameWon
    | GameDrawn
)


def public_event(event: Event, seat: int) -> Event:
    """The event as ``seat`` may see it: other players' drawn cards are left out (R6.1)."""
    if isinstance(event, CardsDrawn) and event.player != seat and event.cards:
        return replace(event, cards=())
    return event
