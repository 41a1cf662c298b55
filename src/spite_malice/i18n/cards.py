"""Cards in words, in the current language: "King of hearts", "Re di cuori", "Король червей".

The same message ids are used by the page's scripts (web/static/js/cards.js), so a card has
one name per language everywhere. Suit symbols (♠♥♦♣) never change.
"""

from __future__ import annotations

from .text import NP_, pgettext

RANK_WORDS = (
    NP_("rank", "Ace"), NP_("rank", "Two"), NP_("rank", "Three"), NP_("rank", "Four"),
    NP_("rank", "Five"), NP_("rank", "Six"), NP_("rank", "Seven"), NP_("rank", "Eight"),
    NP_("rank", "Nine"), NP_("rank", "Ten"), NP_("rank", "Jack"), NP_("rank", "Queen"),
    NP_("rank", "King"),
)  # fmt: skip
"""Rank names 1..13 as cards are named; translated with the context "rank"."""
SUIT_WORDS = (
    NP_("suit", "spades"),
    NP_("suit", "hearts"),
    NP_("suit", "diamonds"),
    NP_("suit", "clubs"),
)
"""Suits S H D C as in a card's name; translated with the context "suit"."""


def rank_name(rank: int) -> str:
    """The rank's name, 1 (Ace) to 13 (King)."""
    return pgettext("rank", RANK_WORDS[rank - 1])


def suit_name(suit: int) -> str:
    """The suit's name as in a card's name, 0..3 for S H D C."""
    return pgettext("suit", SUIT_WORDS[suit])


def card_name(card: int) -> str:
    """A card's full name, from its face 0..51 (``suit * 13 + rank - 1``)."""
    rank, suit = card % 13 + 1, card // 13
    return pgettext("card", "{rank} of {suit}", rank=rank_name(rank), suit=suit_name(suit))
