"""Cards in words, in the current language: "King of hearts", "Re di cuori", "Король червей".

Every rank and card word is written here once: the server's texts and the terminal use these
functions, and the page's scripts get the words made from them with the page's catalog
(:func:`page_card_words`, sent by ``GET /api/language/<lang>``), so a card has one name per
language everywhere. Suit symbols (♠♥♦♣) never change.
"""

from __future__ import annotations

from typing import TypedDict

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


# TRANSLATORS: a value a center stack needs or a King stands for, as in "it needs an Ace"
A_VALUE = (
    NP_("value", "an Ace"), NP_("value", "a two"), NP_("value", "a three"),
    NP_("value", "a four"), NP_("value", "a five"), NP_("value", "a six"),
    NP_("value", "a seven"), NP_("value", "an eight"), NP_("value", "a nine"),
    NP_("value", "a ten"), NP_("value", "a Jack"), NP_("value", "a Queen"),
    NP_("value", "a King"),
)  # fmt: skip
"""A center stack's value 1..13 with its article, as the page's sentences say it ("as a
five", "it needs an Ace"; context "value"): number values in words, as every sentence of the
server (hints, the analysis, the engine's reasons through ``table.words``, the tutorial) says
them."""


# TRANSLATORS: under a center stack in the terminal, the card it takes next; keep them short
# (12 cells)
NEEDS_WORDS = (
    N_("needs an Ace"), N_("needs a 2"), N_("needs a 3"), N_("needs a 4"), N_("needs a 5"),
    N_("needs a 6"), N_("needs a 7"), N_("needs an 8"), N_("needs a 9"), N_("needs a 10"),
    N_("needs a Jack"), N_("needs a Queen"),
)  # fmt: skip
"""What a center stack takes next, by the rank it takes (1..12, an observation's
``center_takes``), as the terminal says it under the stack. These are labels of 12 cells, not
sentences, so number ranks stay digits here, as the page's "next 6" labels under its center
stacks do; every sentence names ranks in words (:func:`rank_name`, :func:`a_value_word`)."""


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


def a_value_word(value: int) -> str:
    """A center stack's value with its article in words ("an Ace", "a five"), as the page
    says it (:data:`A_VALUE`)."""
    return pgettext("value", A_VALUE[value - 1])


class PageCardWords(TypedDict):
    """The card words the page shows, in one language (``cards`` of the page's catalog)."""

    ranks: list[str]
    """Each rank's name by its value 1..13 (index 0 is the Ace): "Ace", "Seven", "King"."""
    values: list[str]
    """Each value 1..13 with its article: "an Ace", "a five", "a King"."""
    cards: list[list[str]]
    """Each card's name, by suit (S H D C) then rank (Ace first): "Seven of hearts"."""


def page_card_words() -> PageCardWords:
    """Every rank and card word the page shows, in the current language: the page takes
    them from its catalog (``GET /api/language/<lang>``) and holds none of its own."""
    ranks = range(1, 14)
    return {
        "ranks": [rank_name(rank) for rank in ranks],
        "values": [a_value_word(rank) for rank in ranks],
        "cards": [[card_name(suit * 13 + rank - 1) for rank in ranks] for suit in range(4)],
    }
