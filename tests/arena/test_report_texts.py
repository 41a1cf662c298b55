"""What the arena's report says when the games cannot measure much: every game drawn, every
pair the same, an SPRT past its bound before its minimum of pairs; and options that only make
sense together."""

from __future__ import annotations

import math

import pytest

from spite_malice.arena.games import GameResult
from spite_malice.arena.report import elo_text, sprt_text, summary_rows
from spite_malice.arena.sprt import MIN_PAIRS, Sprt, estimate_elo, score_to_elo
from spite_malice.arena.stats import summarize
from spite_malice.arena.tournament import SprtState
from spite_malice.cli import main


def _games(winners: list[str | None]) -> list[GameResult]:
    """Paired games (two a deal, seats swapped) with these winners, in order."""
    return [
        GameResult(index // 2, index % 2, winner, 0 if winner is None else 3, 40, "")
        for index, winner in enumerate(winners)
    ]


def _row(summary_games: list[GameResult], label_end: str) -> str:
    rows = dict(summary_rows(summarize(summary_games, "easy", "hard")))
    return next(value for label, value in rows.items() if label.endswith(label_end))


def test_every_game_drawn_says_no_decided_games_and_gives_an_honest_interval() -> None:
    games = _games([None] * 8)  # 4 pairs, each half a point
    assert _row(games, "win rate (decided games)") == "no decided games (every game drawn)"
    assert "50.0% (95% CI" not in " ".join(v for _, v in summary_rows(summarize(games, "a", "b")))
    estimate = estimate_elo(games)
    assert estimate.all_alike and estimate.elo == 0.0
    # Wilson's interval of a score of 1/2 over 4 pairs: about 15% to 85%, -300 to +300 Elo
    assert estimate.low == pytest.approx(score_to_elo(0.1500), abs=3)
    assert estimate.high == pytest.approx(-estimate.low)
    elo = _row(games, "Elo difference")
    assert "+0 to +0" not in elo and "every pair scored 50%" in elo and "Wilson" in elo


def test_more_drawn_pairs_narrow_the_interval() -> None:
    few, many = estimate_elo(_games([None] * 8)), estimate_elo(_games([None] * 400))
    assert 0 < many.high < few.high and many.low == pytest.approx(-many.high)


def test_every_pair_won_by_one_bot_has_a_finite_lower_bound() -> None:
    estimate = estimate_elo(_games(["A"] * 12))  # 6 pairs, each won twice by A
    assert estimate.all_alike and math.isinf(estimate.high) and estimate.high > 0
    assert math.isfinite(estimate.low) and estimate.low > 0
    assert "every pair scored 100%" in elo_text(estimate)


def test_a_real_spread_keeps_its_interval() -> None:
    games = _games(["A", "B", "A", "A", None, "B", "A", "A", "B", "A"])
    assert "95% CI" in _row(games, "win rate (decided games)")
    assert "95% CI" in _row(games, "Elo difference")


def test_sprt_progress_past_a_bound_says_it_waits_for_the_minimum_of_pairs() -> None:
    test = Sprt(0.0, 10.0)
    lower, upper = test.bounds
    early = SprtState((0, 0, 0, 0, 10), upper + 1.0, None)
    assert f"decides only from {MIN_PAIRS} pairs (10 so far)" in sprt_text(test, early)
    inside = SprtState((0, 0, 10, 0, 0), (lower + upper) / 2, None)
    assert "decides only" not in sprt_text(test, inside)


@pytest.mark.parametrize("option", ["--alpha", "--beta"])
def test_an_sprt_rate_without_sprt_is_refused(
    option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "reference", "reference", "--games", "2", option, "0.1"]) == 2
    assert f"{option} is a rate of the SPRT: give it with --sprt" in capsys.readouterr().err
