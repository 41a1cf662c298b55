"""An arena run: paired deals between two bots, in one process or several, for a number of
games or until a sequential test decides (:func:`run_sprt`).

Deal ``seed + k`` is played twice, bot A in seat 0 then in seat 1, so both bots get the same
cards and the luck of the deal cancels out. Every game's bots are seeded from its deal
(:func:`~.games.bot_seed`), so a run gives the same games however it is split over jobs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from ..engine.rules import Rules
from .games import GameResult, play_pair
from .sprt import Sprt, game_points
from .workers import Workers

Progress = Callable[[int], None]
"""Called with the number of games just finished."""

Pair = tuple[GameResult, GameResult]

Record = Callable[[Pair], None]
"""Called with each pair of games as it is played (not those given as ``done``): to write
them down at once, so that a run cut short can be resumed."""


def _pairs(done: Sequence[GameResult]) -> dict[int, Pair]:
    """Earlier results by deal: seat 0's game, then seat 1's (see ``read_csv``)."""
    by_deal: dict[int, list[GameResult]] = {}
    for result in done:
        by_deal.setdefault(result.seed, []).append(result)
    pairs: dict[int, Pair] = {}
    for deal, games in by_deal.items():
        games.sort(key=lambda result: result.a_seat)
        if [result.a_seat for result in games] != [0, 1]:
            raise ValueError(f"deal {deal} needs its two games, one in each seat")
        pairs[deal] = (games[0], games[1])
    return pairs


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
    done: Sequence[GameResult] = (),
    record: Record | None = None,
) -> list[GameResult]:
    """Play ``games`` games (rounded up to an even number: whole pairs) between the bots
    named ``name_a`` and ``name_b`` (see :func:`~spite_malice.bot_registry.make_bot`), using
    ``jobs`` processes. Results come back ordered by deal, seat 0 first.

    ``done`` holds games of this run played before (both games of each of their deals, as
    an arena CSV read back gives them): their deals are not played again, and they come back
    with the rest, so a run resumed this way gives the results of one uninterrupted run."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    deals = range(seed, seed + (games + 1) // 2)
    earlier = _pairs(done)
    outside = sorted(set(earlier) - set(deals))
    if outside:
        raise ValueError(
            f"deal {outside[0]} is not one of this run's (deals {deals.start} to {deals.stop - 1})"
        )
    seeds = [deal for deal in deals if deal not in earlier]
    work = partial(_play, name_a, name_b, rules)
    pairs: list[Pair] = list(earlier.values())

    def finished(pair: Pair) -> None:
        pairs.append(pair)
        if record is not None:
            record(pair)
        if progress is not None:
            progress(2)

    if jobs == 1 or len(seeds) <= 1:
        for deal in seeds:
            finished(work(deal))
    else:
        with Workers(min(jobs, len(seeds)), work) as workers:
            for pair in workers.map(seeds, ordered=False):
                finished(pair)
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
    done: Sequence[GameResult] = (),
    record: Record | None = None,
) -> tuple[list[GameResult], SprtState]:
    """Play pairs of games from deal ``seed`` on until the sequential test ``test`` accepts
    H0 or H1, or ``max_games`` are played. Pairs are counted in deal order whatever the
    number of ``jobs`` (the workers play ahead, and what they played after the decision is
    dropped), so a run stops at the same game with any ``jobs``.

    ``done`` holds the games of this test played before, the first deals from ``seed`` on
    (an arena CSV of an SPRT run holds exactly those): they are counted first, in deal
    order, and the test goes on from the next deal, so a resumed test decides where one
    uninterrupted test would."""
    if max_games < 2:
        raise ValueError(f"an SPRT needs at least one pair of games, not {max_games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    earlier = _pairs(done)
    first = seed + len(earlier)
    if sorted(earlier) != list(range(seed, first)):
        missing = min(set(range(seed, first)) - set(earlier))
        raise ValueError(
            f"an SPRT counts its deals in order from {seed}: deal {missing} was not played"
        )
    seeds = range(first, seed + max_games // 2)
    work = partial(_play, name_a, name_b, rules)
    results: list[GameResult] = []
    counts = [0, 0, 0, 0, 0]
    state = SprtState(tuple(counts), 0.0, None)

    def count(pair: Pair) -> SprtState:
        results.extend(pair)
        counts[round(2 * (game_points(pair[0]) + game_points(pair[1])))] += 1
        llr = test.llr(counts)
        new = SprtState(tuple(counts), llr, test.decision(counts))
        if progress is not None:
            progress(new)
        return new

    def played(pair: Pair) -> SprtState:
        if record is not None:
            record(pair)
        return count(pair)

    for deal in sorted(earlier)[: max_games // 2]:
        state = count(earlier[deal])
        if state.decision is not None:
            return results, state
    if jobs == 1:
        for deal in seeds:
            state = played(work(deal))
            if state.decision is not None:
                break
    else:
        with Workers(jobs, work) as workers:  # leaving the block stops their extra games
            for pair in workers.map(seeds):
                state = played(pair)
                if state.decision is not None:
                    break
    return results, state
