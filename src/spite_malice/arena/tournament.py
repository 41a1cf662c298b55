"""An arena run: paired deals between two bots, in one process or several, for a number of
games or until a sequential test decides (:func:`run_sprt`).

Deal ``seed + k`` is played twice, bot A in seat 0 then in seat 1, so both bots get the same
cards and the luck of the deal cancels out. Every game's bots are seeded from its deal
(:func:`~.games.bot_seed`), so a run gives the same games however it is split over jobs.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from ..engine.rules import Rules
from .games import GameResult, play_pair
from .sprt import Sprt, game_points

Progress = Callable[[int], None]
"""Called with the number of games just finished."""


def _play(name_a: str, name_b: str, rules: Rules, seed: int) -> tuple[GameResult, GameResult]:
    return play_pair(name_a, name_b, seed, rules)


def run_arena(
    name_a: str,
    name_b: str,
    games: int,
    seed: int = 1,
    *,
    jobs: int = 1,
    rules: Rules = Rules.STANDARD,
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play ``games`` games (rounded up to an even number: whole pairs) between the bots
    named ``name_a`` and ``name_b`` (see :func:`~spite_malice.bot_registry.make_bot`), using
    ``jobs`` processes. Results come back ordered by deal, seat 0 first."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    seeds = [seed + k for k in range((games + 1) // 2)]
    work = partial(_play, name_a, name_b, rules)
    pairs: list[tuple[GameResult, GameResult]] = []
    if jobs == 1 or len(seeds) == 1:
        for deal in seeds:
            pairs.append(work(deal))
            if progress is not None:
                progress(2)
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(min(jobs, len(seeds))) as pool:
            for pair in pool.imap_unordered(work, seeds):
                pairs.append(pair)
                if progress is not None:
                    progress(2)
    pairs.sort(key=lambda pair: pair[0].seed)
    return [result for pair in pairs for result in pair]


@dataclass(frozen=True, slots=True)
class SprtState:
    """Where a sequential test stands after some pairs (see :func:`run_sprt`)."""

    pairs: tuple[int, ...]
    """Pairs scoring 0, 1/4, 1/2, 3/4 and 1 for bot A."""
    llr: float
    decision: str | None
    """``"H1"``, ``"H0"``, or None while the test goes on (or when it ran out of games)."""

    @property
    def games(self) -> int:
        return 2 * sum(self.pairs)


SprtProgress = Callable[[SprtState], None]
"""Called after each pair, in deal order."""


def run_sprt(
    name_a: str,
    name_b: str,
    test: Sprt,
    seed: int = 1,
    *,
    max_games: int = 20_000,
    jobs: int = 1,
    rules: Rules = Rules.STANDARD,
    progress: SprtProgress | None = None,
) -> tuple[list[GameResult], SprtState]:
    """Play pairs of games from deal ``seed`` on until the sequential test ``test`` accepts
    H0 or H1, or ``max_games`` are played. Pairs are counted in deal order whatever the
    number of ``jobs`` (the workers play ahead, and what they played after the decision is
    dropped), so a run stops at the same game with any ``jobs``."""
    if max_games < 2:
        raise ValueError(f"an SPRT needs at least one pair of games, not {max_games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    seeds = range(seed, seed + max_games // 2)
    work = partial(_play, name_a, name_b, rules)
    results: list[GameResult] = []
    counts = [0, 0, 0, 0, 0]
    state = SprtState(tuple(counts), 0.0, None)

    def count(pair: tuple[GameResult, GameResult]) -> SprtState:
        results.extend(pair)
        counts[round(2 * (game_points(pair[0]) + game_points(pair[1])))] += 1
        llr = test.llr(counts)
        new = SprtState(tuple(counts), llr, test.decision(counts))
        if progress is not None:
            progress(new)
        return new

    if jobs == 1:
        for deal in seeds:
            state = count(work(deal))
            if state.decision is not None:
                break
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(jobs) as pool:  # leaving the block stops the workers' extra games
            for pair in pool.imap(work, seeds):
                state = count(pair)
                if state.decision is not None:
                    break
    return results, state
