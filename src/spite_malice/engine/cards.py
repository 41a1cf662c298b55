"""Cards as small integers, and their notation (rank then suit: ``AS``, ``TD``, ``KH``).

A card is its face, ``suit * 13 + rank - 1`` with suits in the order S, H, D, C. Decks are
shuffled together, so every face occurs once per deck (R0.1); suits never matter to the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .errors import ArgumentError, NotationError, quote

Card = int
"""A card face, 0..51. Two decks hold every face twice."""

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANK_NAMES = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")

ACE = 1
JACK = 11
QUEEN = 12
KING = 13
"""Ranks: A=1 … Q=12; K=13 is wild (R0.2)."""

FACES = 52

RANK_OF: tuple[int, ...] = tuple(face % 13 + 1 for face in range(FACES))
"""``RANK_OF[card]`` is the card's rank, 1..13 (the fast path reads this table directly)."""

_NAMES: tuple[str, ...] = tuple(RANKS[face % 13] + SUITS[face // 13] for face in range(FACES))
_BY_NAME: dict[str, Card] = {name: face for face, name in enumerate(_NAMES)}
_BY_NAME.update({name.lower(): face for face, name in enumerate(_NAMES)})
_BY_NAME.update({name[0] + name[1].lower(): face for face, name in enumerate(_NAMES)})
_BY_NAME.update({name[0].lower() + name[1]: face for face, name in enumerate(_NAMES)})

ASCII_SPACE = " \t\r\n"
"""The white space that notation may carry around a card or a move (ASCII only)."""


def a_rank(rank: int) -> str:
    """The rank's name with its article, as in messages: ``'an Ace'``, ``'an 8'``, ``'a Jack'``."""
    name = RANK_NAMES[rank - 1]
    return ("an " if name in ("Ace", "8") else "a ") + name


def make_card(rank: int, suit: int = 0) -> Card:
    """The card of ``rank`` (1..13) in ``suit`` (0..3, S H D C)."""
    if type(rank) is not int or type(suit) is not int or not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise ArgumentError(f"no card of rank {quote(rank)} and suit {quote(suit)}")
    return suit * 13 + rank - 1


def rank_of(card: Card) -> int:
    """The rank of ``card``: 1 (Ace) to 13 (King)."""
    return RANK_OF[card]


def suit_of(card: Card) -> int:
    """The suit of ``card``: 0..3 for S, H, D, C."""
    return card // 13


def card_str(card: Card) -> str:
    """The notation of ``card``, e.g. ``'7H'``."""
    return _NAMES[card]


def cards_str(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by spaces."""
    return " ".join(_NAMES[card] for card in cards)


def parse_card(text: str) -> Card:
    """Parse a card such as ``'AS'`` or ``'td'`` (lower case is accepted, and ASCII white space
    around it; letters that only look like ours, such as ``ſ``, are not)."""
    card = _BY_NAME.get(text) if type(text) is str else None
    if card is not None:
        return card
    if not isinstance(text, str):
        raise NotationError("card", text, "expected a string such as 'AS' or 'TD'")
    card = _BY_NAME.get(text.strip(ASCII_SPACE))
    if card is None:
        raise NotationError(
            "card", text, f"expected a rank of {' '.join(RANKS)} then a suit of {' '.join(SUITS)}"
        )
    return card


def rank_char(rank: int) -> str:
    """The one-letter notation of a rank: ``A 2 … 9 T J Q K``."""
    return RANKS[rank - 1]


def parse_rank(text: str) -> int:
    """Parse a one-letter rank (``A``, ``2``-``9``, ``T``, ``J``, ``Q``, ``K``)."""
    one_letter = isinstance(text, str) and len(text) == 1 and text.isascii()
    index = RANKS.find(text.upper()) if one_letter else -1
    if index < 0:
        raise NotationError("rank", text, f"expected one of {' '.join(RANKS)}")
    return index + 1


def full_deck(decks: int) -> list[Card]:
    """Every card of ``decks`` standard decks, in a fixed order (R0.1)."""
    return [face for _ in range(decks) for face in range(FACES)]


def count_faces(cards: Iterable[Card]) -> Counter[Card]:
    """How many of each face ``cards`` holds."""
    return Counter(cards)
