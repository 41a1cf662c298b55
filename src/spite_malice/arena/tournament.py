"""An arena run: paired deals between two bots, in one process or several.

Deal ``seed + k`` is played twice, bot A in seat 0 then in seat 1, so both bots get the same
cards and the luck of the deal cancels out. Every game's bots are seeded from its deal
(:func:`~.games.bot_seed`), so a run gives the same games however it is split over jobs.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from functools import partial

from ..engine.rules import Rules
from .games import GameResult, play_pair

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
    named ``name_a`` and ``name_b`` (see :func:`~spite_malice.bots.make_bot`), using ``jobs``
    processes. Results come back ordered by deal, seat 0 first."""
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
