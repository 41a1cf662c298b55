"""Glicko-2 as Glickman's "Example of the Glicko-2 system" works it out, and the policy's
provisional mark."""

from __future__ import annotations

import pytest

from spite_malice.ratings.glicko2 import Glicko, Outcome, expected_score, idle, update
from spite_malice.ratings.policy import NEW_RATING, Rating, after_game, is_provisional, rating


def test_the_papers_worked_example() -> None:
    """Rating 1500, RD 200, volatility 0.06 against 1400/30, 1550/100 and 1700/300, won,
    lost, lost, tau 0.5: the paper gives 1464.06, 151.52 and 0.05999."""
    player = Glicko(1500, 200, 0.06)
    games = [
        Outcome(Glicko(1400, 30), 1.0),
        Outcome(Glicko(1550, 100), 0.0),
        Outcome(Glicko(1700, 300), 0.0),
    ]
    after = update(player, games, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_expected_scores() -> None:
    """The paper's E for the three opponents: 0.639, 0.432, 0.303."""
    player = Glicko(1500, 200, 0.06)
    expected = [
        expected_score(player, Glicko(r, d)) for r, d in ((1400, 30), (1550, 100), (1700, 300))
    ]
    assert expected == pytest.approx([0.639, 0.432, 0.303], abs=0.001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    """The paper's step 6 alone: phi* = sqrt(phi^2 + sigma^2); never beyond 350."""
    player = Glicko(1600, 100, 0.06)
    after = update(player, [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5, abs=1e-6)
    assert idle(Glicko(1500, 349, 0.06), 1000).deviation == 350
    assert idle(player, 0) == player


def test_a_win_raises_a_loss_lowers_and_a_draw_between_equals_changes_nothing() -> None:
    new = NEW_RATING.glicko
    assert after_game(new, new, 1.0).rating > 1500 > after_game(new, new, 0.0).rating
    assert after_game(new, new, 0.5).rating == pytest.approx(1500, abs=1e-9)
    assert after_game(new, new, 0.5).deviation < 350


def test_a_score_is_a_win_a_draw_or_a_loss() -> None:
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        Outcome(Glicko(), 2.0)


def test_provisional_while_the_deviation_is_above_110() -> None:
    assert NEW_RATING.provisional and NEW_RATING.shown == "1500?"
    assert is_provisional(110.5) and not is_provisional(110.0)
    settled: Rating = rating(Glicko(1623.4, 80, 0.06), 30)
    assert not settled.provisional and settled.shown == "1623"
