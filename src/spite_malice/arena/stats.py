"""Arena statistics: win rates with their Wilson interval, percentiles, and the summary."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .games import GameResult
from .sprt import Z95, EloEstimate, estimate_elo


def wilson_interval(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate: sound for small n and rates near 0 or 1,
    where the textbook p ± z·se interval leaves [0, 1]. (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True, slots=True)
class BotTimes:
    """Thinking time of one bot: per decision (median, p95) and per turn (median, p95)."""

    decisions: int
    decision_median: float
    decision_p95: float
    turn_median: float
    turn_p95: float


def bot_times(decisions: Sequence[float], turns: Sequence[float]) -> BotTimes:
    return BotTimes(
        len(decisions),
        statistics.median(decisions) if decisions else 0.0,
        percentile(decisions, 95),
        statistics.median(turns) if turns else 0.0,
        percentile(turns, 95),
    )


@dataclass(frozen=True, slots=True)
class Summary:
    """What an arena run between bot A and bot B found, from A's side."""

    name_a: str
    name_b: str
    games: int
    wins: int
    losses: int
    draws: int
    points_a: int
    points_b: int
    average_turns: float
    times_a: BotTimes
    times_b: BotTimes
    failures: tuple[tuple[str, int], ...]
    """Forfeit reasons and how often each happened."""
    elo: EloEstimate = field(default_factory=lambda: estimate_elo(()))
    """A's Elo advantage over B (draws half a point) with its 95% interval, from the pairs."""

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def win_rate(self) -> float:
        """A's share of the decided games (draws left out); 0.5 when none was decided."""
        return self.wins / self.decided if self.decided else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`win_rate`."""
        return wilson_interval(self.wins, self.decided)


def summarize(results: Iterable[GameResult], name_a: str, name_b: str) -> Summary:
    """Add up arena results (from A's side)."""
    results = list(results)
    games = wins = losses = draws = points_a = points_b = turns = 0
    a_dec: list[float] = []
    b_dec: list[float] = []
    a_turn: list[float] = []
    b_turn: list[float] = []
    failures: Counter[str] = Counter()
    for result in results:
        games += 1
        turns += result.turns
        if result.winner == "A":
            wins += 1
            points_a += result.points
        elif result.winner == "B":
            losses += 1
            points_b += result.points
        else:
            draws += 1
        if result.forfeit is not None:
            failures[result.reason] += 1
        a_dec.extend(result.a_times)
        b_dec.extend(result.b_times)
        a_turn.extend(result.a_turn_times)
        b_turn.extend(result.b_turn_times)
    return Summary(
        name_a,
        name_b,
        games,
        wins,
        losses,
        draws,
        points_a,
        points_b,
        turns / games if games else 0.0,
        bot_times(a_dec, a_turn),
        bot_times(b_dec, b_turn),
        tuple(failures.most_common()),
        estimate_elo(results),
    )
