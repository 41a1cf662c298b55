"""The engine speed benchmark: self-play with the reference policy, fast and checked paths."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..bots.reference import reference_move
from ..engine.game import Game
from ..engine.rules import Rules


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
