"""One word for one thing in each language: the words a translation once got wrong or left in
English stay fixed (French "relecture" means proof-reading, not a replay; Portuguese left
"replay" in English; Dutch said "Terug" for both Undo and Back and left the terminal's
"Pay-off" in English)."""

from __future__ import annotations

import re

import pytest

from spite_malice.i18n import LANGUAGES, SOURCE_LANGUAGE, catalog

TRANSLATED = [language for language in LANGUAGES if language != SOURCE_LANGUAGE]


def _strings(language: str) -> list[str]:
    found = catalog(language)
    texts = list(found.singular.values())
    for forms in found.plural.values():
        texts.extend(forms)
    return texts


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_terminals_undo_and_back_are_two_words(language: str) -> None:
    """The key bar's Undo (takes a move back) and the replay's Back (a step back) differ."""
    words = catalog(language)
    undo = words.gettext("Undo", "key bar")
    back = words.gettext("Back")
    assert undo.casefold() != back.casefold(), (undo, back)
    # the browser's word, or its first words where the 80-column key bar has no room for all
    assert words.gettext("Undo").casefold().startswith(undo.casefold()), undo


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_terminals_payoff_caption_is_translated_and_fits(language: str) -> None:
    """The title of the player's pay-off pile fits its box at 80 columns beside its key ("p "),
    and is the language's word, not the English."""
    caption = catalog(language).gettext("Pay-off")
    assert caption != "Pay-off"
    assert len(caption) <= 8, caption


def test_french_calls_a_replay_a_rediffusion() -> None:
    """As the browser's pages do ("Rediffusions"), never "relecture" (proof-reading)."""
    assert catalog("fr").gettext("Replays") == "Rediffusions"
    assert not [text for text in _strings("fr") if re.search(r"relecture", text, re.IGNORECASE)]


def test_portuguese_calls_a_replay_a_reproducao() -> None:
    """As the browser's pages do ("Reproduções"); "replay" only in the command's name."""
    words = catalog("pt")
    assert words.gettext("Replays") == "Reproduções"
    english = [
        text
        for text in _strings("pt")
        if re.search(r"replay", text.replace("spite-malice replay", ""), re.IGNORECASE)
    ]
    assert not english, english
