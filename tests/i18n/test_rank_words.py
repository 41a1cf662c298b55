"""Rank words are written once, in :mod:`spite_malice.i18n.cards`; the one copy kept is the
engine's English names for its own English reasons (the engine imports nothing of ours), and
this test holds that copy to the translations' English words (tests/test_rule_mirrors.py
lists it). What players read of a reason (``table.words.say_reason``: the page's refusal, the
terminal's 'Not allowed' line, the tutorial) names every rank in words, in English too."""

from __future__ import annotations

import re

import pytest

from spite_malice.engine.cards import RANK_NAMES, a_rank
from spite_malice.engine.reasons import Reason
from spite_malice.i18n import use_language
from spite_malice.i18n.cards import a_value_word, rank_name
from spite_malice.table.words import say_reason

NEEDS = "center {center} needs {a_rank}"
MISSING = "there is no {rank} in your hand"


def test_the_engines_english_rank_names_are_the_translations_english_words() -> None:
    """The engine's English names its picture cards and Ace as the translations' English
    does and its number cards by their digits, which its API's errors keep."""
    with use_language("en"):
        for rank, name in enumerate(RANK_NAMES, start=1):
            assert name == (str(rank) if 2 <= rank <= 10 else rank_name(rank)), name
            if not 2 <= rank <= 10:
                assert a_rank(rank) == a_value_word(rank)


def test_a_refused_moves_reason_names_its_rank_in_words_in_english() -> None:
    with use_language("en"):
        assert say_reason(Reason(NEEDS, center=2, a_rank=4)) == "center 2 needs a four"
        assert say_reason(Reason(NEEDS, center=3, a_rank=8)) == "center 3 needs an eight"
        assert say_reason(Reason(NEEDS, center=1, a_rank=1)) == "center 1 needs an Ace"
        assert say_reason(Reason(MISSING, rank=7)) == "there is no Seven in your hand"
        assert say_reason(Reason(MISSING, rank=13)) == "there is no King in your hand"
        for rank in range(1, 14):
            for reason in (Reason(NEEDS, center=2, a_rank=rank), Reason(MISSING, rank=rank)):
                # the engine's own text keeps its digits; what players read has none but
                # the center's number
                center = ["2"] if "center" in reason else []
                assert re.findall(r"\d+", say_reason(reason)) == center


@pytest.mark.parametrize(
    ("language", "needs", "missing"),
    [
        ("fr", "il faut un quatre sur le centre 2", "il n'y a aucune carte Sept dans votre main"),
        ("it", "alla pila centrale 2 serve un quattro", "in mano non hai nessuna carta Sette"),
        ("nl", "midden 2 heeft een vier nodig", "er is geen Zeven in je hand"),
        ("pt", "a pilha central 2 precisa de um quatro", "não há nenhuma carta Sete na sua mão"),
        ("ru", "на центр 2 нужно положить четвёрку", "на руке нет такой карты: Семёрка"),
    ],
)
def test_a_refused_moves_reason_names_its_rank_in_words_in_each_language(
    language: str, needs: str, missing: str
) -> None:
    with use_language(language):
        assert say_reason(Reason(NEEDS, center=2, a_rank=4)) == needs
        assert say_reason(Reason(MISSING, rank=7)) == missing
        for rank in range(2, 11):
            assert re.findall(r"\d+", say_reason(Reason(NEEDS, center=2, a_rank=rank))) == ["2"]
            assert not re.search(r"\d", say_reason(Reason(MISSING, rank=rank)))


def test_the_engines_own_english_reason_keeps_its_digits() -> None:
    assert str(Reason(NEEDS, center=2, a_rank=8)) == "center 2 needs an 8"
    assert str(Reason(MISSING, rank=7)) == "there is no 7 in your hand"
