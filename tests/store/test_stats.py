"""Statistics from results: counts, win rate, streaks, matches, order of levels."""

from __future__ import annotations

from spite_malice.store import GameOutcome, compute


def outcome(level: str, result: str, points: int = 0, assisted: bool = False) -> GameOutcome:
    scored = points if result == "win" else 0
    conceded = points if result == "loss" else 0
    return GameOutcome(level, result, scored, conceded, assisted)


def test_streaks_count_wins_in_a_row() -> None:
    games = [
        outcome("easy", r)
        for r in ["win", "win", "loss", "win", "win", "win", "draw", "win", "win"]
    ]
    stats = compute("p", games, [])
    easy = stats.level("easy")
    assert (easy.games, easy.wins, easy.losses, easy.draws) == (9, 7, 1, 1)
    assert easy.best_streak == 3 and easy.current_streak == 2
    assert easy.win_rate == round(7 / 9, 3)


def test_levels_are_ordered_and_totalled() -> None:
    games = [
        outcome("friend", "win", 5),
        outcome("hard", "loss", 7, assisted=True),
        outcome("easy", "win", 12),
        outcome("reference", "win", 1),
    ]
    stats = compute("p", games, [("easy", True), ("hard", False)])
    assert [row.level for row in stats.levels] == ["easy", "hard", "reference", "friend"]
    total = stats.total
    assert (total.games, total.wins, total.points_for, total.points_against) == (4, 3, 18, 7)
    assert (total.matches, total.matches_won, total.matches_lost) == (2, 1, 1)
    assert total.assisted == 1
    assert stats.level("hard").current_streak == 0
    assert stats.level("expert").games == 0
    data = stats.to_json()
    assert data["levels"][0]["win_rate"] == 1.0
    assert data["total"]["level"] == "all"


def test_no_games_no_division() -> None:
    stats = compute("p", [], [])
    assert stats.levels == [] and stats.total.win_rate == 0.0
