"""The terminal names ranks in its sentences as the page and the tutorial do: a hint's reason
says "the Nine", the move log a King "as a five", never digits. (Card faces on the table and
in sentences stay symbols, 9♦, and so do the short labels under the center stacks, as on the
page.)"""

from __future__ import annotations

import re

import pytest

from rank_words import assert_ranks_in_words
from spite_malice.engine.cards import parse_card
from spite_malice.engine.events import CardBuilt
from spite_malice.i18n import use_language
from spite_malice.i18n.cards import page_card_words
from spite_malice.tui.event_text import describe_event
from spite_malice.tui.widgets import MessageLine

from .driver import make_app, settle, table

ENGLISH_VALUES = (
    "an Ace", "a two", "a three", "a four", "a five", "a six", "a seven", "an eight", "a nine",
    "a ten", "a Jack", "a Queen",
)  # fmt: skip
"""What a King stands for, as the page says it (written out: the check takes nothing from
the code it checks)."""


@pytest.mark.parametrize("language", ["en", "ru", "nl"])
def test_the_move_log_says_what_a_king_stands_for_in_words_r3_2(language: str) -> None:
    with use_language(language):
        page_values = page_card_words()["values"]
        for value in range(1, 13):
            king = CardBuilt(0, "H", parse_card("KH"), 1, value)
            said = describe_event(king, ["Ann", "Bo"], you=0)
            assert page_values[value - 1] in said, said
            assert re.findall(r"\d+", said) == ["2"], said  # only the center stack's number
            if language == "en":
                assert (
                    said == f"You build KH as {ENGLISH_VALUES[value - 1]} from the hand on center 2"
                )


async def _hint_line(language: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("LANG", f"{language}_XX.UTF-8")
    app = make_app(seed=9, level="medium")  # a hint that names a King and a Five
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await settle(pilot)
        message = table(app).query_one(MessageLine)
        assert message.tone == "hint"
        return str(message.render())


async def test_the_hint_line_names_ranks_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint's move is shown with its card face and keys, then its reason: the reason names
    ranks in words in English and in Russian, with the same numbers (no rank in digits)."""
    english = await _hint_line("en", monkeypatch)
    russian = await _hint_line("ru", monkeypatch)
    assert english.startswith("Hint: ") and russian.startswith("Подсказка: ")
    english_reason = english.partition(").")[2]
    russian_reason = russian.partition(").")[2]
    assert english_reason.strip() and russian_reason.strip()
    assert_ranks_in_words(english_reason, russian_reason, "ru")
    assert english_reason == (
        " Plays your pay-off King (as an Ace); discards the Five onto empty side stack 1."
    )
