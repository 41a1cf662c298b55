"""The engine speed benchmark: self-play with the reference policy, fast and checked paths."""

from __future__ import annotations

import time
from dataclasses import dataclass

from .bots.reference import reference_move
from .engine.game import Game
from .engine.rules import Rules


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


def bench_fast(games: int, seed: int, rules: Rules = Rules.STANDARD) -> BenchResult:
    """Self-play on the unchecked path: ``apply`` with no event log."""
    moves = wins = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(seed + i, rules, recording=False)
        apply = game.apply
        while game.outcome is None:
            apply(reference_move(game))
        moves += len(game.moves)
        wins += game.outcome.winner is not None
    seconds = time.perf_counter() - start
    return BenchResult("fast", games, moves, seconds, wins, games - wins)


def bench_checked(games: int, seed: int, rules: Rules = Rules.STANDARD) -> BenchResult:
    """Self-play on the checked path: ``legal_moves`` and ``play`` each move, events recorded."""
    moves = wins = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(seed + i, rules)
        while game.outcome is None:
            legal = game.legal_moves()
            move = reference_move(game)
            assert move in legal
            game.play(move)
        moves += len(game.moves)
        wins += game.outcome.winner is not None
    seconds = time.perf_counter() - start
    return BenchResult("checked", games, moves, seconds, wins, games - wins)
