"""The tutorial names cards one way, the page's (issue 43): a card by its rank's name ("the
Two", "your pay-off Three"), a value a stack needs or a King counts as in words ("a six",
"as a four"), never a rank in digits ("the 2", "a 7"), in English and in every translation.
Numbers stay only where they are places or counts: "center 2", "side stack 1", "20 cards",
"42 points to 30"."""

from __future__ import annotations

import functools
import re

import pytest

from spite_malice.i18n import catalog_tools, use_language
from spite_malice.i18n.cards import card_name, rank_name, suit_name
from spite_malice.tutorial import LESSONS

from .test_i18n import _every_text, _free_moves_said

LANGUAGES = ("fr", "it", "nl", "pt", "ru")
PLACES_AND_COUNTS = re.compile(
    r"\b(?:center|side stack) \d+\b|\b\d+ points to \d+\b"
    r"|\b\d+ (?:cards?|points?|center stacks)\b|\b(?:brings you to|reaching) \d+\b",
    re.IGNORECASE,
)
"""Where an English tutorial text has a number that is no rank: a center or side stack's
number, a count of cards, points or stacks, a score."""
NUMBER_RANKS = dict(
    enumerate(("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"), start=2)
)
"""The ranks that were written as digits, by their English names (written out here, so that
the check does not take them from the code it checks)."""


def rank_digits(english: str) -> list[str]:
    """The numbers of an English text that are not a place or a count: ranks in digits."""
    return re.findall(r"\d+", PLACES_AND_COUNTS.sub("", english))


def numbers(text: str) -> list[str]:
    return sorted(re.findall(r"\d+", text))


def named_ranks(english: str) -> set[int]:
    """The number ranks an English text names: a card ("the Six", "a Four"; not a count such
    as "Four cards built") or a value ("a six", "an eight"; not "five new cards")."""
    found = set()
    for rank, name in NUMBER_RANKS.items():
        card = re.search(rf"\b{name}\b(?! (?:new )?cards?\b)", english)
        value = re.search(rf"\ban? {name.lower()}\b", english)
        if card or value:
            found.add(rank)
    return found


def rank_word(language: str, rank: int) -> str:
    """How ``language`` writes ``rank`` inside a sentence, lower case: its card name, less
    the ending in Russian, whose sentences decline it ("семёрку", "семёрки"; "туза")."""
    with use_language(language):
        name = rank_name(rank).lower()
    return name[:-1] if language == "ru" and len(name) > 3 else name


def check(english: str, translated: str, language: str) -> None:
    assert not rank_digits(english), f"a rank in digits: {english!r}"
    assert numbers(translated) == numbers(english), (language, english, translated)
    for rank in named_ranks(english):
        word = rank_word(language, rank)
        assert word in translated.lower(), (language, NUMBER_RANKS[rank], english, translated)


@functools.cache
def lesson_messages() -> tuple[tuple[str, object, str | None], ...]:
    """(English, catalog id, context) of every text marked in the tutorial's modules (the
    sources are read once a test process: Babel takes a second over them)."""
    found = []
    for message in catalog_tools.template():
        if message.id and any("/tutorial/" in path for path, _ in message.locations):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            found.append((ids[-1], message.id, message.context))
    return tuple(found)


def test_the_check_finds_ranks_in_digits_and_lets_places_and_counts_be() -> None:
    assert rank_digits("Now build the 2 on top of the Ace.") == ["2"]
    assert rank_digits("no stack takes a 7 yet; count as a 4") == ["7", "4"]
    assert not rank_digits("Pick side stack 2 and put its Five on center 1.")
    assert not rank_digits("It holds 20 cards; 42 points to 30, which brings you to 50.")
    assert named_ranks("Build the Six on the Five; it needs a seven.") == {5, 6, 7}
    assert not named_ranks("Four cards built in one turn; you draw five new cards.")
    with pytest.raises(AssertionError):
        check("Build the Six.", "Gioca il 6.", "it")
    with pytest.raises(AssertionError):
        check("Center 1 needs a six.", "Alla pila centrale 1 serve un sette.", "it")
    check("Center 1 needs a six.", "Центру 1 нужна шестёрка.", "ru")


def test_every_tutorial_text_names_ranks_in_words_in_english() -> None:
    messages = list(lesson_messages())
    assert len(messages) > 80
    for english, _, _ in messages:
        assert not rank_digits(english), f"a rank in digits: {english!r}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_tutorial_translation_names_ranks_in_words(language: str) -> None:
    """Each catalog entry of the tutorial: no digit the English lacks, and the language's
    word for each rank the English names (the page's words: the "rank" context)."""
    catalog = catalog_tools._read(language)
    for english, message_id, context in lesson_messages():
        entry = catalog.get(message_id, context)
        assert entry is not None and entry.string, (language, english)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        for translated in strings:
            check(english, translated, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_each_lesson_shows_names_ranks_in_words(language: str) -> None:
    """Every text a lesson shows on its way (instructions, tips, explanations, the engine's
    refusals of illegal moves through table.words, "show me"), in English and ``language``."""
    for lesson in LESSONS:
        with use_language("en"):
            english = [*_every_text(lesson), *_free_moves_said(lesson)]
        with use_language(language):
            translated = [*_every_text(lesson), *_free_moves_said(lesson)]
        assert [where for where, _ in english] == [where for where, _ in translated]
        for (where, text), (_, said) in zip(english, translated, strict=True):
            assert said, (language, where)
            check(text, said, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_card_the_tutorial_names_is_named_as_the_page_names_it(language: str) -> None:
    """ "The Seven of diamonds" of a lesson is the page's card name in ``language``
    (i18n/cards.py's ``card_name``): its rank's word and its suit's, as above."""
    catalog = catalog_tools._read(language)
    with use_language("en"):
        english_names = {card: card_name(card) for card in range(52)}
    named = 0
    for english, message_id, context in lesson_messages():
        for card, name in english_names.items():
            if name in english:
                named += 1
                translated = catalog.get(message_id, context).string.lower()
                assert rank_word(language, card % 13 + 1) in translated, (language, translated)
                with use_language(language):
                    suit = suit_name(card // 13).lower()
                assert suit in translated, (language, name, translated)
    assert named >= 5
