"""What one seat's state costs to build (``table/seat_state.py``), in the middle of a game and
once the game is over (the state then carries the reveal): the best of five runs.

    .venv/bin/python benchmarks/state_cost.py

Run it with another checkout's sources first on ``PYTHONPATH`` to compare two versions."""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Sequence

from spite_malice.bots import reference_move
from spite_malice.engine.rules import Rules
from spite_malice.table import COMPUTER, PERSON, Seat, Table
from spite_malice.table.seat_state import seat_state

MOVES_BEFORE = 40
"""Moves played before the mid-game figure."""


def microseconds(table: Table, number: int) -> float:
    def build() -> object:
        return seat_state(
            table, 0, room="ABCDEF", connected=[True, True], away=[None, None], claim_after=None
        )

    return min(timeit.repeat(build, number=number, repeat=5)) / number * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="What one seat's state costs to build, in the middle of a game and once "
        "the game is over (the best of five runs)."
    )
    parser.parse_args(argv)
    seats = (Seat(PERSON, "Ann", "ann"), Seat(COMPUTER, "Easy"))
    table = Table.new(Rules.STANDARD, seats, level="easy", seed=5)
    table.apply(table.check_deal())
    for _ in range(MOVES_BEFORE):
        table.apply(table.check_move(table.game.to_move, reference_move(table.game)))
    middle = microseconds(table, 3000)
    while not table.is_game_over:
        table.apply(table.check_move(table.game.to_move, reference_move(table.game)))
    over = microseconds(table, 1000)
    print(f"one seat's state: {middle:.1f} us in the middle of a game, {over:.1f} us once over")
    return 0
