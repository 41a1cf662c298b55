"""Checks that a text names ranks in words ("the Seven", "as a five"), as the page and the
tutorial name them, and never as digits ("the 7"): for the hints and the analysis, whose
numbers are otherwise only a center's or a side stack's number and counts."""

from __future__ import annotations

import re

from spite_malice.i18n import use_language
from spite_malice.i18n.cards import rank_name

NUMBERS_THAT_ARE_NO_RANK = re.compile(
    r"\b(?:center|side stack|builds|built) \d+\b|\(\d+ left\)", re.IGNORECASE
)
"""Where an English hint or analysis text has a number that is not a rank: "center 2", "side
stack 3", "builds 2 cards", "built 2 more cards", "(5 left)"."""
ENGLISH_NAMES = (
    "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
    "Queen", "King",
)  # fmt: skip
ENGLISH_VALUES = (
    "an Ace", "a two", "a three", "a four", "a five", "a six", "a seven", "an eight", "a nine",
    "a ten", "a Jack", "a Queen", "a King",
)  # fmt: skip
"""The English rank names 1..13 and the values with their articles, as the page says them:
the oracles' own words (written out here, not taken from the code they check)."""
ENGLISH_NUMBER_RANKS = {
    rank: name
    for rank, name in enumerate(
        ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"), start=2
    )
}
"""The ranks that were written as digits, by their English names (written out here, so that
the check does not take them from the code it checks)."""


def rank_digits(english: str) -> list[str]:
    """The numbers of an English text that stand where a rank would: each is a rank written
    as digits (a text that names its ranks in words has none)."""
    return re.findall(r"\d+", NUMBERS_THAT_ARE_NO_RANK.sub("", english))


def numbers(text: str) -> list[str]:
    """Every number of ``text``, sorted."""
    return sorted(re.findall(r"\d+", text))


def assert_ranks_in_words(english: str, translated: str, language: str) -> None:
    """``translated`` is ``english`` in ``language``; neither writes a rank as digits. The
    English has no rank digit; the translation has the same numbers as the English (a rank
    in digits would add one) and, for each number rank the English names, that rank's name
    in ``language`` (the one the page shows)."""
    assert not rank_digits(english), english
    assert numbers(translated) == numbers(english), (english, translated)
    with use_language(language):
        for rank, name in ENGLISH_NUMBER_RANKS.items():
            if re.search(rf"\b{name}\b", english):
                assert rank_name(rank) in translated, (name, english, translated)
