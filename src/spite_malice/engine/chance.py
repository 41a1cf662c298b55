"""Chance events: what the engine waits for when chance is dealt from outside.

A game dealt by :meth:`~.game.Game.new` is its own dealer: a ``random.Random`` seeded from the
game's seed shuffles the deck and the stock (R1.1), the stock's top cards are drawn, and every
chance event is settled the moment it happens. A game made by :meth:`~.game.Game.undealt`
leaves chance to its caller instead, in the manner of OpenSpiel's chance nodes or PokerKit's
dealing operations: whenever one of these events comes up, the game stops with it in
:attr:`~.game.Game.chance` and waits for :meth:`~.game.Game.deal` to give its outcome.

========================  =====================================================================
event                     outcome given to ``deal``
========================  =====================================================================
:class:`Deal`             the shuffled deck, in the order dealt: pay-off pile of player 1, then
                          of player 2 (bottom to top), the two hands, then the stock (R1.2)
:class:`Reshuffle`        ``Piles.PAYOFFS``: both pay-off piles, each in its new order (R1.4:
                          their tops tied); ``Piles.STOCK``: the stock in its new order
                          (R3.4(b))
:class:`Draw`             the cards drawn from the stock, in the order drawn (R2.1, R3.4(c))
:class:`TurnUp`           the pay-off card turned face up next (R3.4(a)): one of that pile's
                          face-down cards
========================  =====================================================================

Every outcome is checked: it must be cards that are where the event takes them from.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card


class Piles(StrEnum):
    """What a :class:`Reshuffle` shuffles, in the words it has always been written with."""

    PAYOFFS = "payoffs"
    """R1.4: both pay-off piles, their tops having tied."""
    STOCK = "stock"
    """R3.4(b): the stock, a completed stack having gone into it."""

    __repr__ = str.__repr__  # reads as its words in a Reshuffle's repr, as before


@dataclass(frozen=True, slots=True)
class Deal:
    """R1.2: the deck of ``cards`` cards is shuffled and dealt."""

    cards: int


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """R1.4: both pay-off piles are reshuffled, their tops having tied; or R3.4(b): the stock
    is shuffled, a completed stack having gone into it."""

    piles: Piles
    added: tuple[Card, ...] = ()
    """The cards that joined the stock (R3.4(b): the completed stack's, which all saw)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """R2.1 / R3.4(c): ``player`` draws ``count`` cards from the stock."""

    player: int
    count: int


@dataclass(frozen=True, slots=True)
class TurnUp:
    """R3.4(a): the next card of ``player``'s pay-off pile is turned face up.

    Only a game whose chance comes from outside waits for this: the seeded dealer set the
    pay-off piles' order at the deal."""

    player: int


Chance = Deal | Reshuffle | Draw | TurnUp
"""A chance event waiting for its outcome."""

__all__ = ["Chance", "Deal", "Draw", "Piles", "Reshuffle", "TurnUp"]
