"""Cards in words, in the current language: "King of hearts", "Re di cuori", "Король червей".

The same message ids are used by the page's scripts (web/static/js/cards.js), so a card has
one name per language everywhere. Suit symbols (♠♥♦♣) never change.
"""

from __future__ import annotations

from .text import N_, NP_, _, pgettext

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


A_RANK = (
    NP_("a rank", "an Ace"), NP_("a rank", "a 2"), NP_("a rank", "a 3"), NP_("a rank", "a 4"),
    NP_("a rank", "a 5"), NP_("a rank", "a 6"), NP_("a rank", "a 7"), NP_("a rank", "an 8"),
    NP_("a rank", "a 9"), NP_("a rank", "a 10"), NP_("a rank", "a Jack"),
    NP_("a rank", "a Queen"), NP_("a rank", "a King"),
)  # fmt: skip
"""A rank with its article, as in "center 2 needs a 4" (context "a rank"). Number cards are
written as digits, as the engine writes them."""


def rank_word(rank: int) -> str:
    """A rank as hints and reasons name it, in the current language: digits for 2 to 10,
    else the rank's name ("Ace", "Jack", "Queen", "King": :data:`RANK_WORDS`)."""
    return str(rank) if 2 <= rank <= 10 else rank_name(rank)


def a_rank_word(rank: int) -> str:
    """A rank with its article ("an Ace", "a 7") in the current language."""
    return pgettext("a rank", A_RANK[rank - 1])


# TRANSLATORS: under a center stack in the terminal, the card it takes next; keep them short
# (12 cells)
NEEDS_WORDS = (
    N_("needs an Ace"), N_("needs a 2"), N_("needs a 3"), N_("needs a 4"), N_("needs a 5"),
    N_("needs a 6"), N_("needs a 7"), N_("needs an 8"), N_("needs a 9"), N_("needs a 10"),
    N_("needs a Jack"), N_("needs a Queen"),
)  # fmt: skip
"""What a center stack takes next, by the rank it takes (1..12, an observation's
``center_takes``), as the terminal says it under the stack."""


def needs_word(rank: int) -> str:
    """``needs a 6``: what a center stack that takes ``rank`` next needs (the terminal)."""
    return _(NEEDS_WORDS[rank - 1])


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
