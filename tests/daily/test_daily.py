"""The daily deal's day, seed and statistics (issue 14 item 4)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from spite_malice.daily import (
    DAILY_RULES,
    DailyResult,
    daily_seed,
    daily_stats,
    seconds_to_next,
    today,
)
from spite_malice.engine import Game, Rules
from spite_malice.store.stats import DAILY, PRACTICE, GameOutcome, compute

DAY = date(2026, 12, 1)


def test_the_day_is_the_utc_date() -> None:
    assert today(datetime(2026, 12, 1, 23, 59, tzinfo=UTC)) == DAY
    late_in_new_york = datetime(2026, 12, 1, 20, 0, tzinfo=UTC) + timedelta(hours=5)
    assert today(late_in_new_york) == date(2026, 12, 2)
    assert seconds_to_next(datetime(2026, 12, 1, 23, 59, tzinfo=UTC)) == 60


def test_one_deal_a_day_the_same_for_everyone() -> None:
    assert daily_seed(DAY) == daily_seed(date(2026, 12, 1))
    seeds = {daily_seed(DAY + timedelta(days=n)) for n in range(365)}
    assert len(seeds) == 365
    assert all(0 <= seed < 2**63 for seed in seeds)
    # the deal itself: the same cards from the same day's seed, other cards the next day
    first = Game.new(daily_seed(DAY), DAILY_RULES).to_position()
    again = Game.new(daily_seed(DAY), DAILY_RULES).to_position()
    other = Game.new(daily_seed(DAY + timedelta(days=1)), DAILY_RULES).to_position()
    assert first == again and first["players"] != other["players"]
    assert DAILY_RULES.match_target == 1  # one game: the first win ends the match
    assert DAILY_RULES.payoff_size == Rules.STANDARD.payoff_size


def _result(days_ago: int, outcome: str, points: int = 0) -> DailyResult:
    return DailyResult(DAY - timedelta(days=days_ago), outcome, points)


def test_streak_counts_days_won_in_a_row() -> None:
    results = [_result(5, "win", 3), _result(3, "win", 9), _result(2, "win", 4), _result(1, "win")]
    stats = daily_stats(results, DAY)
    assert stats.days_played == 4 and stats.days_won == 4
    assert stats.current_streak == 3  # days 3, 2 and 1 ago; today not played yet
    assert stats.best_streak == 3 and stats.best_score == 9
    assert stats.today is None
    assert daily_stats(results, DAY + timedelta(days=1)).current_streak == 0  # a day missed
    lost_today = daily_stats([*results, _result(0, "loss")], DAY)
    assert lost_today.current_streak == 0 and lost_today.best_streak == 3
    assert lost_today.today is not None and lost_today.today.outcome == "loss"


def test_only_the_first_game_of_a_day_counts() -> None:
    stats = daily_stats([_result(0, "loss"), _result(0, "win", 12)], DAY)
    assert stats.days_played == 1 and stats.days_won == 0 and stats.best_score == 0
    assert [r.outcome for r in stats.recent] == ["loss"]


def test_daily_games_stay_out_of_the_ordinary_total() -> None:
    games = [
        GameOutcome("easy", "win", 5, 0, False),
        GameOutcome(DAILY, "win", 9, 0, False),
        GameOutcome(PRACTICE, "loss", 0, 4, False),
    ]
    stats = compute("p", games, [(DAILY, True)])
    assert stats.total.games == 1 and stats.total.points_for == 5 and stats.total.matches == 0
    assert stats.level(DAILY).games == 1 and stats.level(DAILY).matches_won == 1
    assert [row.level for row in stats.levels] == ["easy", PRACTICE, DAILY]
