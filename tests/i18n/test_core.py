"""The translation core: choosing a language, plural forms, fallbacks, numbers and dates."""

from __future__ import annotations

import asyncio
import datetime as dt
import gettext

import pytest
from babel.messages.plurals import get_plural

from spite_malice.i18n import (
    LANGUAGES,
    Catalog,
    _,
    current_language,
    format_date,
    format_number,
    from_environment,
    negotiate,
    ngettext,
    normalise,
    page_catalog,
    plural_index,
    set_default_language,
    use_language,
)
from spite_malice.i18n import catalogs as catalogs_module
from spite_malice.i18n.cards import card_name


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("it-IT,it;q=0.9,en;q=0.8", "it"),
        ("de-DE, fr;q=0.5, nl;q=0.7", "nl"),
        ("pt-BR", "pt"),
        ("RU", "ru"),
        ("de, ja", "en"),
        ("", "en"),
        (None, "en"),
        ("fr;q=0, it;q=0.1", "it"),
        ("fr;q=banana, nl;q=0.2", "nl"),
        (";;;,,,q=1", "en"),
        ("en;q=0.5, fr", "fr"),
    ],
)
def test_accept_language_picks_the_most_wanted_language_we_speak(
    header: str | None, expected: str
) -> None:
    assert negotiate(header) == expected


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),
        ({"LANGUAGE": "de:nl", "LANG": "de_DE.UTF-8"}, "nl"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "POSIX"}, "en"),
        ({}, "en"),
        ({"LC_MESSAGES": "pt_BR@latin"}, "pt"),
    ],
)
def test_the_terminal_language_follows_the_locale(environ: dict[str, str], expected: str) -> None:
    assert from_environment(environ) == expected


def test_unknown_codes_are_not_languages() -> None:
    assert normalise("xx-YY") is None
    assert normalise("") is None
    assert normalise("fr_CA.utf8") == "fr"


@pytest.mark.parametrize("language", [x for x in LANGUAGES if x != "en"])
def test_plural_forms_agree_with_the_catalog_header(language: str) -> None:
    """The form picked from CLDR categories (as the page does with Intl.PluralRules) is the
    form gettext's Plural-Forms expression of the catalog picks, for every count a game has."""
    choose = gettext.c2py(get_plural(language).plural_expr)
    for n in range(0, 2500):
        assert plural_index(language, n) == choose(n), (language, n)


def test_russian_has_three_forms() -> None:
    forms = ("{n} карта", "{n} карты", "{n} карт")
    fake = Catalog("ru", plural={(None, "{n} card"): forms})
    assert [fake.ngettext("{n} card", "{n} cards", n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        forms[0], forms[1], forms[2], forms[2], forms[0], forms[1], forms[2],
    ]  # fmt: skip


def test_english_plurals_and_fields() -> None:
    with use_language("en"):
        assert ngettext("{n} card", "{n} cards", 1) == "1 card"
        assert ngettext("{n} card", "{n} cards", 4) == "4 cards"
        assert _("{name} joined the game.", name="Ann") == "Ann joined the game."


def test_a_missing_or_fuzzy_translation_falls_back_to_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = Catalog("it", singular={(None, "Your turn"): "Tocca a te"})
    monkeypatch.setattr(catalogs_module, "catalog", lambda language: fake)
    monkeypatch.setattr("spite_malice.i18n.text.catalog", lambda language: fake)
    with use_language("it"):
        assert _("Your turn") == "Tocca a te"
        assert _("Not in the catalog") == "Not in the catalog"


async def test_each_task_keeps_its_own_language() -> None:
    async def speak(language: str) -> str:
        with use_language(language):
            await asyncio.sleep(0.01)
            return current_language()

    assert await asyncio.gather(speak("it"), speak("ru"), speak("nl")) == ["it", "ru", "nl"]
    assert current_language() == "en"


def test_the_default_language_is_used_outside_blocks() -> None:
    try:
        set_default_language("fr")
        assert current_language() == "fr"
        with use_language("nl"):
            assert current_language() == "nl"
        assert current_language() == "fr"
        set_default_language("klingon")
        assert current_language() == "en"
    finally:
        set_default_language("en")


def test_numbers_and_dates_follow_the_language() -> None:
    assert format_number(1234.5, "en") == "1,234.5"
    assert format_number(1234.5, "it") == "1.234,5"
    assert format_number(1234.5, "fr") == "1\u202f234,5"
    day = dt.date(2026, 12, 1)
    assert format_date(day, "en") == "Dec 1, 2026"
    assert "dic" in format_date(day, "it")
    assert "дек" in format_date(day, "ru")


def test_card_names_in_english() -> None:
    with use_language("en"):
        assert card_name(13 + 12) == "King of hearts"
        assert card_name(0) == "Ace of spades"


def test_the_page_catalog_has_plural_categories_and_only_page_texts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = Catalog(
        "ru",
        singular={(None, "Your turn"): "Ваш ход", ("rank", "King"): "Король", (None, "x"): "y"},
        plural={(None, "{n} card"): ("{n} карта", "{n} карты", "{n} карт")},
        page_keys=frozenset({(None, "Your turn"), ("rank", "King"), (None, "{n} card")}),
    )
    monkeypatch.setattr(catalogs_module, "catalog", lambda language: fake)
    data = page_catalog("ru")
    assert data == {
        "language": "ru",
        "plural": {"one": 0, "few": 1, "many": 2, "other": 2},
        "messages": {
            "Your turn": "Ваш ход",
            "{n} card": ["{n} карта", "{n} карты", "{n} карт"],
            "rank\x04King": "Король",
        },
    }
