"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
deviation and its volatility, and the update after a rating period's games.

Pure arithmetic on frozen values; nothing of ours is imported. The steps' numbers in the
comments are those of the paper. Each rated game here is a rating period of its own (as on
lichess): :func:`update` is called with the one game just finished, and :func:`idle` widens
a deviation for the time a player did not play (the paper's step 6 for periods without
games).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""The paper's conversion between the Glicko scale and Glicko-2's: 400 / ln(10)."""
CENTER = 1500.0
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change. Glickman suggests 0.3 to 1.2;
a card game has much luck in each deal, so a run of wins says less about a change of
strength than in chess (lichess uses 0.75): 0.5 keeps a lucky streak from raising the
volatility much. It is also the paper's example's value."""
EPSILON = 0.000001
"""The convergence tolerance of the volatility's iteration (the paper's)."""
MAX_DEVIATION = INITIAL_DEVIATION
"""A deviation never grows beyond a new player's."""


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating on the Glicko scale (1500 in the middle): rating, deviation (RD) and
    volatility."""

    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game of a rating period: the opponent's rating and the score (1 a win, 0.5 a
    draw, 0 a loss)."""

    opponent: Glicko
    score: float

    def __post_init__(self) -> None:
        if self.score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game's score is 0, 0.5 or 1, not {self.score!r}")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Glicko, opponent: Glicko) -> float:
    """The player's expected score against ``opponent`` (the paper's E)."""
    return _expected(
        (player.rating - CENTER) / SCALE,
        (opponent.rating - CENTER) / SCALE,
        opponent.deviation / SCALE,
    )


def idle(player: Glicko, periods: float) -> Glicko:
    """``player`` after ``periods`` rating periods without games (may be fractional): the
    deviation grows as the paper's step 6 says, never beyond :data:`MAX_DEVIATION`."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    widened = math.sqrt(phi * phi + periods * player.volatility * player.volatility)
    return Glicko(player.rating, min(widened * SCALE, MAX_DEVIATION), player.volatility)


def update(player: Glicko, games: Sequence[Outcome], tau: float = TAU) -> Glicko:
    """``player`` after one rating period with ``games`` (the paper's steps 1 to 8); no
    games: only the deviation grows (one period of :func:`idle`)."""
    if not games:
        return idle(player, 1.0)
    # step 2: to the Glicko-2 scale
    mu = (player.rating - CENTER) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    # step 3: the estimated variance v; step 4: the estimated improvement delta
    total = 0.0
    improvement = 0.0
    for game in games:
        mu_j = (game.opponent.rating - CENTER) / SCALE
        phi_j = game.opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        total += g * g * e * (1.0 - e)
        improvement += g * (game.score - e)
    v = 1.0 / total
    delta = v * improvement
    # step 5: the new volatility (the Illinois algorithm of the paper)
    sigma_new = _volatility(delta, phi, v, sigma, tau)
    # step 6: the pre-period deviation; step 7: the new deviation and rating
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # step 8: back to the Glicko scale
    return Glicko(mu_new * SCALE + CENTER, min(phi_new * SCALE, MAX_DEVIATION), sigma_new)


def _volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """The paper's step 5: sigma' from the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    delta2 = delta * delta
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
