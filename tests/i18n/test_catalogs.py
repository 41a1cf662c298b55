"""Every catalog complete: every marked text of the sources translated in every language,
nothing fuzzy, the English's {fields}, the language's plural forms, and Babel compiles it."""

from __future__ import annotations

from typing import Any

import pytest
from babel.messages.plurals import get_plural

from spite_malice.i18n import (
    LANGUAGES,
    SOURCE_LANGUAGE,
    catalog,
    ngettext,
    pgettext,
    plural_index,
    use_language,
)
from spite_malice.i18n.catalog_tools import problems, template

TRANSLATED = [language for language in LANGUAGES if language != SOURCE_LANGUAGE]


@pytest.fixture(scope="module")
def sources() -> Any:
    return template()


def test_the_sources_have_texts_to_translate(sources: Any) -> None:
    """Extraction finds the texts of every part (a broken babel.cfg would find none)."""
    files = {location for message in sources for location, _ in message.locations}
    for part in ("web/static/js/", "tui/", "tutorial/", "table/", "bots/hints.py", "i18n/cards.py"):
        assert any(part in name for name in files), f"no marked text in {part}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_catalog_is_complete_and_well_formed(language: str, sources: Any) -> None:
    found = problems(language, sources)
    assert not found, f"{len(found)} problems, first: " + "\n".join(found[:20])


@pytest.mark.parametrize(
    ("language", "king_of_hearts"),
    [("en", "King of hearts"), ("it", "Re di cuori"), ("ru", "Король червей")],
)
def test_card_names_in_the_players_words(language: str, king_of_hearts: str) -> None:
    from spite_malice.i18n.cards import card_name

    with use_language(language):
        assert card_name(13 + 12) == king_of_hearts


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_words_differ_from_english(language: str) -> None:
    """A catalog that copies the English is not a translation: most texts must change."""
    chosen = catalog(language)
    same = [key for key, text in chosen.singular.items() if text == key[1] and len(key[1]) > 12]
    assert len(same) < 0.05 * max(1, len(chosen.singular)), same[:20]
    with use_language(language):
        assert pgettext("rank", "King") != "King"


@pytest.mark.parametrize(
    ("language", "one", "two", "five", "twenty_one"),
    [
        ("en", "1 card", "2 cards", "5 cards", "21 cards"),
        ("ru", "1 карта", "2 карты", "5 карт", "21 карта"),
    ],
)
def test_plural_forms_of_a_count_of_cards(
    language: str, one: str, two: str, five: str, twenty_one: str
) -> None:
    with use_language(language):
        assert [ngettext("{n} card", "{n} cards", n) for n in (1, 2, 5, 21)] == [
            one, two, five, twenty_one,
        ]  # fmt: skip


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_its_plural_forms_in_use(language: str) -> None:
    """Each plural entry of a catalog gives, for counts of every category the language has,
    the form of that category (Russian's 1, 2 and 5 read three different ways)."""
    chosen = catalog(language)
    assert chosen.plural, "no plural entries"
    counts = {plural_index(language, n): n for n in range(0, 200)}  # a game's counts
    for key, forms in chosen.plural.items():
        seen = {chosen.ngettext(key[1], key[1], n, key[0]) for n in counts.values()}
        assert seen <= set(forms), key
    # Italian, French and Portuguese have a third form for exact millions only (CLDR "many")
    expected = {"ru": 3}.get(language, 2)
    assert len(counts) == expected
    assert get_plural(language).num_plurals >= expected
