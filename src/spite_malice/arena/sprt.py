"""Sequential testing and Elo estimates, as chess engine authors measure changes.

Scores count a win as 1, a draw as 1/2 and a loss as 0, as in chess; a draw here is a stalled
game (the stock ran out, R4.2), so a bot that lets games stall against a weaker one pays for
it. Elo is logistic: a score ``s`` is worth ``-400 log10(1/s - 1)``.

The arena plays each deal twice with the seats swapped, so its natural trial is the pair: a
pair scores 0, 1/4, 1/2, 3/4 or 1 (the *pentanomial* model, which fishtest uses because a
pair's two games are correlated through the deal, and treating them as independent games
overstates the noise). The sequential test is the GSPRT in the form fishtest documents (M. Van
den Bergh, "A practical introduction to the GSPRT"): with ``N`` trials of mean score ``s`` and
variance ``var`` a trial, the log-likelihood ratio of H1 (Elo = ``elo1``) against H0
(Elo = ``elo0``) is approximately

    LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)

where ``s0`` and ``s1`` are the scores the two Elo bounds stand for. From :data:`MIN_PAIRS`
pairs on, the test stops when the LLR leaves ``[log(beta / (1 - alpha)),
log((1 - beta) / alpha)]``: above, H1 is accepted
(A is at least ``elo1`` better), below, H0 (A is at most ``elo0`` better). The trinomial
form (single games: wins, draws, losses) is here too, for results that are not paired.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .games import GameResult

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""What a pair of games scores, by the pentanomial count's index (points of the pair / 2)."""

MIN_PAIRS = 20
"""The test never stops before this many pairs (40 games). The LLR rests on the variance
estimated from the results, which a handful of pairs gets badly wrong: in simulation (400
tests each, bounds 0,60 and 0,100), stopping from the first pair accepted H1 at the H0 Elo
in 27% of tests; from 20 pairs on, in 4% to 5.3%, as alpha = 0.05 promises."""

ZERO_COUNT = 1e-3
"""A count of zero is taken as this in the LLR (as fishtest regularises): with no pair
split, say, the variance would otherwise be too small, and the LLR too sure, early on."""


def elo_to_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    """The logistic Elo difference a score stands for (infinite at a score of 0 or 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def _moments(counts: Sequence[float], values: Sequence[float]) -> tuple[float, float, float]:
    """Trials, mean and variance a trial of a frequency table."""
    total = sum(counts)
    mean = sum(c * v for c, v in zip(counts, values, strict=True)) / total
    variance = sum(c * (v - mean) ** 2 for c, v in zip(counts, values, strict=True)) / total
    return total, mean, variance


def _llr(counts: Sequence[float], values: Sequence[float], elo0: float, elo1: float) -> float:
    if sum(counts) == 0:
        return 0.0
    regular = [c if c > 0 else ZERO_COUNT for c in counts]
    trials, mean, variance = _moments(regular, values)
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return trials * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


def llr_pentanomial(pairs: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for pair counts
    ``pairs`` = (pairs scoring 0, 1/4, 1/2, 3/4, 1)."""
    if len(pairs) != 5:
        raise ValueError(f"a pentanomial count has 5 entries, not {len(pairs)}")
    return _llr(pairs, PAIR_SCORES, elo0, elo1)


def llr_trinomial(wins: float, draws: float, losses: float, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio for single games (wins, draws, losses)."""
    return _llr((losses, draws, wins), (0.0, 0.5, 1.0), elo0, elo1)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """The LLR below which H0 is accepted and above which H1 is: about -2.94 and 2.94 for
    ``alpha = beta = 0.05``."""
    if not (0.0 < alpha < 0.5 and 0.0 < beta < 0.5):
        raise ValueError(f"alpha and beta must be between 0 and 0.5, not {alpha} and {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """A's Elo advantage over B with its 95% interval, from a score and its standard error."""

    score: float
    """A's mean score a game (draws half a point)."""
    elo: float
    low: float
    high: float
    trials: int
    """Pairs (or games, when the results were not paired) it rests on."""
    paired: bool
    all_alike: bool = False
    """Every trial scored the same (all drawn, say): the games show no spread, and the
    interval comes from the widest spread a score of this mean can have (see
    :func:`elo_estimate`)."""


def _wilson(mean: float, trials: int) -> tuple[float, float]:
    """The Wilson interval of a mean score in [0, 1] over ``trials``, taking the variance a
    trial at its bound ``mean * (1 - mean)``: no score in [0, 1] with that mean varies more."""
    z2 = Z95 * Z95
    centre = (mean + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(mean * (1 - mean) / trials + z2 / (4 * trials * trials))
    half /= 1 + z2 / trials
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_estimate(counts: Sequence[float], values: Sequence[float], paired: bool) -> EloEstimate:
    """The Elo difference of a frequency table of scores, with the normal 95% interval of
    the score turned into Elo (fishtest's estimate, without its bias correction); where
    every trial scored the same, the Wilson interval at the widest variance instead."""
    trials = int(sum(counts))
    if trials == 0:
        return EloEstimate(0.5, 0.0, -math.inf, math.inf, 0, paired)
    _, mean, variance = _moments(counts, values)
    if variance == 0.0:
        # Every trial alike (all drawn, all won): the normal interval would have no width,
        # a certainty the games do not give. Wilson's, at the widest variance, is honest.
        low_score, high_score = _wilson(mean, trials)
        low, high = score_to_elo(low_score), score_to_elo(high_score)
        return EloEstimate(mean, score_to_elo(mean), low, high, trials, paired, all_alike=True)
    error = math.sqrt(variance / trials)
    low = score_to_elo(mean - Z95 * error)
    high = score_to_elo(mean + Z95 * error)
    return EloEstimate(mean, score_to_elo(mean), low, high, trials, paired)


def game_points(result: GameResult) -> float:
    """A's points for one game: 1 a win, 1/2 a draw, 0 a loss."""
    if result.winner == "A":
        return 1.0
    return 0.5 if result.winner is None else 0.0


def pentanomial(results: Iterable[GameResult]) -> tuple[tuple[int, ...], int]:
    """The pair counts (pairs scoring 0, 1/4, 1/2, 3/4, 1) of results grouped by deal, and
    how many games had no partner (a deal played once)."""
    by_deal: dict[int, list[float]] = {}
    for result in results:
        by_deal.setdefault(result.seed, []).append(game_points(result))
    counts = [0, 0, 0, 0, 0]
    unpaired = 0
    for points in by_deal.values():
        while len(points) >= 2:
            counts[round(2 * (points.pop() + points.pop()))] += 1
        unpaired += len(points)
    return tuple(counts), unpaired


def trinomial(results: Iterable[GameResult]) -> tuple[int, int, int]:
    """Wins, draws and losses of A."""
    wins = draws = losses = 0
    for result in results:
        if result.winner == "A":
            wins += 1
        elif result.winner is None:
            draws += 1
        else:
            losses += 1
    return wins, draws, losses


def estimate_elo(results: Sequence[GameResult]) -> EloEstimate:
    """A's Elo advantage from arena results: from the pairs (pentanomial) when every game
    has its partner on the same deal, otherwise from single games (trinomial)."""
    counts, unpaired = pentanomial(results)
    if unpaired == 0:
        return elo_estimate(counts, PAIR_SCORES, paired=True)
    wins, draws, losses = trinomial(results)
    return elo_estimate((losses, draws, wins), (0.0, 0.5, 1.0), paired=False)


@dataclass(frozen=True, slots=True)
class Sprt:
    """A sequential test of H0 (A is ``elo0`` better) against H1 (A is ``elo1`` better)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise ValueError(f"ELO1 must be above ELO0, not {self.elo0:g},{self.elo1:g}")
        sprt_bounds(self.alpha, self.beta)  # checks alpha and beta

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, pairs: Sequence[float]) -> float:
        """The LLR of these pair counts."""
        return llr_pentanomial(pairs, self.elo0, self.elo1)

    def decision(self, pairs: Sequence[float]) -> str | None:
        """``"H1"`` (A is at least ``elo1`` better), ``"H0"`` (at most ``elo0``), or None
        while the test goes on (always before :data:`MIN_PAIRS` pairs)."""
        if sum(pairs) < MIN_PAIRS:
            return None
        llr = self.llr(pairs)
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def parse_sprt(text: str) -> tuple[float, float]:
    """``ELO0,ELO1`` (such as ``0,60``) as two numbers, ELO1 above ELO0."""
    first, comma, second = text.partition(",")
    try:
        if not comma:
            raise ValueError
        elo0, elo1 = float(first), float(second)
    except ValueError:
        raise ValueError(f"--sprt {text!r}: expected ELO0,ELO1 such as 0,60") from None
    if not elo1 > elo0:
        raise ValueError(f"--sprt {text!r}: ELO1 must be above ELO0")
    return elo0, elo1
