"""Ratings benchmark: the CPU a rated game's end costs (``docs/ratings.md``).

Two figures:

- the Glicko-2 update alone (:func:`~spite_malice.ratings.policy.after_game` for both
  players of a game), per game;
- the store's write of a game's last step (``Store.append`` of a resignation: the finished
  game's row, its results and, for a rated game, both players' ratings and history rows in
  the same transaction), per game, for games between strangers in a rated pool against the
  same games unrated (a friend's invitation): the difference is what rating costs.

CPU is this process's (``time.process_time``: the server's side of the write, not the
PostgreSQL server's own); wall time is printed beside it.

    .venv/bin/python benchmarks/rating_update.py                      # a fresh SQLite file
    .venv/bin/python benchmarks/rating_update.py --db postgresql+psycopg://u:pw@host/db

Not a test: the figures depend on the machine.

(``benchmarks/rating_update.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from pathlib import Path

from spite_malice.engine import Rules
from spite_malice.ratings.glicko2 import Glicko
from spite_malice.ratings.policy import after_game
from spite_malice.store import MatchHeader, Store
from spite_malice.table import FRIEND, PERSON, Seat, Table

PLAYERS = 20
"""Players the games are spread over, so that most games rate players with a history."""


def pure(games: int) -> float:
    """CPU seconds of the Glicko-2 update of both players, per game."""
    a, b = Glicko(1620, 80, 0.06), Glicko(1480, 140, 0.061)
    started = time.process_time()
    for number in range(games):
        score = (0.0, 1.0, 0.5)[number % 3]
        after_game(a, b, score)
        after_game(b, a, 1.0 - score)
    return (time.process_time() - started) / games


def game_ends(store: Store, games: int, pool: str | None) -> tuple[list[float], list[float]]:
    """(CPU, wall) seconds of each game's last write: ``games`` games resigned after the
    deal, between players of :data:`PLAYERS`, in ``pool`` (None: not rated)."""
    cpu, wall = [], []
    run = uuid.uuid4().hex[:8]
    for number in range(games):
        first, second = number % PLAYERS, (number * 7 + 1) % PLAYERS
        if first == second:
            second = (second + 1) % PLAYERS
        seats = (
            Seat(PERSON, "a", f"{run}-{first}"),
            Seat(FRIEND, "b", f"{run}-{second}"),
        )
        table = Table.new(Rules.QUICK, seats, seed=number)
        header = MatchHeader(
            f"rate-{run}-{number}", Rules.QUICK, replace(table.meta, pool=pool), seed=number
        )
        deal = table.check_deal()
        header = store.create_match(header, deal)
        table.apply(deal)
        step = table.check_resign(number % 2)
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        store.append(header, step)
        cpu.append(time.process_time() - cpu_start)
        wall.append(time.perf_counter() - wall_start)
    return cpu, wall


def _ms(value: float) -> str:
    return f"{value * 1000:.3f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="database (default: a fresh SQLite file)")
    parser.add_argument("--games", type=int, default=400, help="games each way (400)")
    args = parser.parse_args()
    print(f"Glicko-2 update of both players: {pure(20_000) * 1e6:.1f} us CPU a game")
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(args.db or str(Path(folder) / "bench.db"))
        print(f"database: {store.location}, {args.games} games each way")
        game_ends(store, 20, "quick")  # warm up: the pool, prepared statements
        figures = {}
        for label, pool in (("unrated", None), ("rated", "quick")):
            cpu, wall = game_ends(store, args.games, pool)
            figures[label] = statistics.mean(cpu)
            print(
                f"{label:8} game end: CPU mean {_ms(statistics.mean(cpu))}, "
                f"median {_ms(statistics.median(cpu))}; wall median {_ms(statistics.median(wall))}"
            )
        store.close()
    print(f"rating a game's end costs {_ms(figures['rated'] - figures['unrated'])} CPU a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
