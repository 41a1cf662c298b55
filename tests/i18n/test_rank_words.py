"""Rank words are written once, in :mod:`spite_malice.i18n.cards`; the one copy kept is the
engine's English names for its own English reasons (the engine imports nothing of ours), and
this test holds that copy equal to the translations' English words (tests/test_rule_mirrors.py
lists it)."""

from __future__ import annotations

from spite_malice.engine.cards import RANK_NAMES, a_rank
from spite_malice.engine.reasons import Reason
from spite_malice.i18n import use_language
from spite_malice.i18n.cards import a_rank_word, rank_word
from spite_malice.table.words import say_reason


def test_the_engines_english_rank_names_are_the_translations_english_words() -> None:
    with use_language("en"):
        assert list(RANK_NAMES) == [rank_word(rank) for rank in range(1, 14)]
        assert [a_rank(rank) for rank in range(1, 14)] == [
            a_rank_word(rank) for rank in range(1, 14)
        ]


def test_an_engine_reason_reads_the_same_in_english_from_either_copy() -> None:
    with use_language("en"):
        for rank in range(1, 14):
            needs = Reason("center {center} needs {a_rank}", center=2, a_rank=rank)
            missing = Reason("there is no {rank} in your hand", rank=rank)
            assert str(needs) == say_reason(needs) and str(missing) == say_reason(missing)
        assert str(Reason("center {center} needs {a_rank}", center=2, a_rank=8)) == (
            "center 2 needs an 8"
        )
