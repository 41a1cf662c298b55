"""Elo ratings fitted to a round robin: the Bradley-Terry model by maximum likelihood.

Each pairing contributes its wins. Draws are left out, as in the arena's win rate: a drawn
game here is a stalled one (the stock ran out, R4.2), not an even result, and counting it as
half a win would pull a weak bot that stalls the strong one up the table. Every pair also
gets one virtual win each way, a weak prior that keeps ratings finite when one bot wins
every game.
Ratings are on the Elo scale (400 points = odds of 10 to 1) with their mean at 1500.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

Record = tuple[float, float, float]
"""Wins of the first bot, wins of the second, draws."""

MEAN = 1500.0
PRIOR_WINS = 1.0


def fit_elo(
    records: Mapping[tuple[str, str], Record], *, iterations: int = 2000
) -> dict[str, float]:
    """Ratings for every bot in ``records`` (keys are ordered pairs of names; values are
    wins of the first, wins of the second, and draws, which do not count)."""
    names = sorted({name for pair in records for name in pair})
    if not names:
        return {}
    wins: dict[tuple[str, str], float] = {}
    for (a, b), (won, lost, _drawn) in records.items():
        half = PRIOR_WINS
        wins[a, b] = wins.get((a, b), 0.0) + won + half
        wins[b, a] = wins.get((b, a), 0.0) + lost + half
    strength = dict.fromkeys(names, 1.0)
    # Hunter's MM algorithm: s_i <- W_i / sum_j n_ij / (s_i + s_j)
    for _ in range(iterations):
        changed = 0.0
        for i in names:
            total_wins = sum(w for (a, _), w in wins.items() if a == i)
            denominator = 0.0
            for j in names:
                if j == i:
                    continue
                games = wins.get((i, j), 0.0) + wins.get((j, i), 0.0)
                if games:
                    denominator += games / (strength[i] + strength[j])
            if denominator:
                new = total_wins / denominator
                changed = max(changed, abs(new - strength[i]) / strength[i])
                strength[i] = new
        if changed < 1e-10:
            break
    logs = {name: 400.0 * math.log10(strength[name]) for name in names}
    shift = MEAN - sum(logs.values()) / len(logs)
    return {name: logs[name] + shift for name in names}


def expected_score(rating_a: float, rating_b: float) -> float:
    """The share of points Elo expects A to take from B."""
    return 1.0 / (1.0 + 10 ** ((rating_b - rating_a) / 400.0))
