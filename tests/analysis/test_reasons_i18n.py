"""The analysis's words in the player's language (issue 15): moves, the table and the reasons
are whole messages; in English they are word for word what players read before (the old
code, kept in ``old_reasons.py``, is the oracle)."""

from __future__ import annotations

import pytest

from pseudo_catalogs import use_pseudo_catalogs
from rank_words import assert_ranks_in_words
from seeded_views import turn_views
from spite_malice.analysis import (
    Report,
    Settings,
    analyse_game,
    describe_moves,
    describe_table,
    why_better,
)
from spite_malice.bots.evaluation import AwareEvaluator
from spite_malice.bots.planning import plan_turn
from spite_malice.i18n import use_language

from . import old_reasons
from . import positions as P
from .test_analysis import FAST
from .test_reasons import _turn

VIEWS = turn_views(20, 30, payoff_size=6)


def test_the_english_words_are_the_ones_players_read_before() -> None:
    reasons = set()
    for view in VIEWS:
        assert describe_table(view) == old_reasons.describe_table(view)
        plans = [plan.moves for plan in plan_turn(view, AwareEvaluator())[:5]]
        for played in plans:
            assert describe_moves(view, played) == old_reasons.describe_moves(view, played)
            for better in plans:
                said = why_better(view, played, better)
                assert said == old_reasons.why_better(view, played, better)
                reasons.add(said.split(" ")[0])
    assert len(reasons) >= 5  # several kinds of reason were compared


def test_the_words_come_out_translated(monkeypatch: pytest.MonkeyPatch) -> None:
    use_pseudo_catalogs(monkeypatch)
    view = VIEWS[3]
    plans = [plan.moves for plan in plan_turn(view, AwareEvaluator())[:3]]
    with use_language("fr"):
        table = describe_table(view)
        words = describe_moves(view, plans[0])
        reason = why_better(view, plans[-1], plans[0])
    english = describe_table(view)
    assert table.startswith("[fr] ") and table.replace("[fr] ", "") == english
    assert words.startswith("[fr] ")
    assert words.replace("[fr] ", "") == describe_moves(view, plans[0])
    assert reason.startswith("[fr] ")


def test_the_summary_in_another_language(monkeypatch: pytest.MonkeyPatch) -> None:
    use_pseudo_catalogs(monkeypatch)
    report = Report(0, ("Ann", "Bo"), Settings(), (_turn(1, 0.0, 0.8), _turn(3, 0.5, -0.5)))
    english = report.to_text()
    with use_language("nl"):
        dutch = report.to_text()
    assert "Your costliest turn:" in english and "1. Your turn 2" in english
    assert "[nl] Your costliest turn:" in dutch and "[nl] 1. Your turn 2" in dutch
    assert "[nl] A better turn was found for 1 of your 2 turns." in dutch
    for line in dutch.splitlines():
        assert not line.strip() or "[nl] " in line, line


@pytest.mark.parametrize("language", ["ru", "fr"])
def test_the_analysis_names_ranks_in_words_as_the_page_does(language: str) -> None:
    """The table, the moves and the reasons name a rank as the page and the tutorial do ("the
    Seven", "left at a six"), in English and in another language's real catalog: no rank in
    digits."""
    reasons = set()
    for view in VIEWS[:200]:
        texts = [describe_table(view)]
        plans = [plan.moves for plan in plan_turn(view, AwareEvaluator())[:3]]
        with use_language(language):
            translated = [describe_table(view)]
        for played in plans:
            texts.append(describe_moves(view, played))
            with use_language(language):
                translated.append(describe_moves(view, played))
            for better in plans:
                texts.append(why_better(view, played, better))
                with use_language(language):
                    translated.append(why_better(view, played, better))
                reasons.add(texts[-1].split(" ")[0])
        for english, words in zip(texts, translated, strict=True):
            assert_ranks_in_words(english, words, language)
    assert len(reasons) >= 5  # several kinds of reason were looked at


def test_a_reason_in_russian_names_its_cards_as_the_page_does() -> None:
    start = P.game(P.fed_opponent())
    with use_language("ru"):
        report = analyse_game(start, ["H6-C1", "H8-S1"], 0, settings=FAST)
    decision = report.turns[0].decisions[0]
    assert decision.reason == (
        "На центре 1 вы оставили шестёрку — на единицу ниже карты выплаты соперника (Семёрка)."
    )
    assert decision.played_words == (
        "Шестёрка с руки на центр 1, затем сброс карты Восьмёрка на боковую стопку 1"
    )
