"""The engine speed benchmark: self-play with the reference policy, fast and checked paths
(``python benchmarks/engine.py``)."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from spite_malice.bots.reference import reference_move
from spite_malice.cli.arguments import positive, seed
from spite_malice.engine.game import Game
from spite_malice.engine.rules import Rules


@dataclass(frozen=True)
class BenchResult:
    path: str
    games: int
    moves: int
    seconds: float
    wins: int
    draws: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds


def bench_fast(
    games: int,
    seed: int,
    rules: Rules = Rules.STANDARD,
    *,
    clock: Callable[[], float] = time.perf_counter,
) -> BenchResult:
    """Self-play on the unchecked path: ``apply`` with no event log, timed by ``clock``."""
    moves = wins = 0
    start = clock()
    for i in range(games):
        game = Game.new(seed + i, rules, recording=False)
        apply = game.apply
        while game.outcome is None:
            apply(reference_move(game))
        moves += len(game.moves)
        wins += game.outcome.winner is not None
    seconds = clock() - start
    return BenchResult("fast", games, moves, seconds, wins, games - wins)


def bench_checked(
    games: int, seed: int, rules: Rules = Rules.STANDARD, *, list_moves: bool = False
) -> BenchResult:
    """Self-play on the checked path: every move through ``play``, with the event log on.

    With ``list_moves`` the legal moves are also listed before each move, as a program that
    picks from ``legal_moves()`` would do.
    """
    moves = wins = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(seed + i, rules)
        while game.outcome is None:
            if list_moves:
                game.legal_moves()
            game.play(reference_move(game))
        moves += len(game.moves)
        wins += game.outcome.winner is not None
    seconds = time.perf_counter() - start
    path = "checked + legal_moves" if list_moves else "checked"
    return BenchResult(path, games, moves, seconds, wins, games - wins)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="engine.py",
        description="Play N self-play games with the reference first-fit policy, single "
        "process, on the fast (unchecked) path and on the checked play() path, and print "
        "games/s and moves/s for each.",
    )
    parser.add_argument("--games", type=positive, default=1000, help="games per run (1000)")
    parser.add_argument("--seed", type=seed, default=1, help="seed of the first game (1)")
    parser.add_argument("--runs", type=positive, default=3, help="runs; the median is shown (3)")
    args = parser.parse_args(argv)
    print(
        f"reference-policy self-play, {args.games} games from seed {args.seed}, "
        f"median of {args.runs} run(s)"
    )
    paths: list[Callable[[], BenchResult]] = [
        partial(bench_fast, args.games, args.seed),
        partial(bench_checked, args.games, args.seed),
        partial(bench_checked, args.games, args.seed, list_moves=True),
    ]
    for run in paths:
        results = [run() for _ in range(args.runs)]
        gps = statistics.median(r.games_per_second for r in results)
        mps = statistics.median(r.moves_per_second for r in results)
        last = results[-1]
        print(
            f"{last.path:>21}: {gps:9,.0f} games/s {mps:11,.0f} moves/s "
            f"({last.moves / last.games:.0f} moves a game; {last.wins} won, {last.draws} drawn)"
        )
    return 0
