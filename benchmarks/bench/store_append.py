"""Store benchmark: the time to store one move at move 10 and at move 1,000 of a match.

Plays matches of two reference players through the table layer and stores every step with
``Store.append`` (the web server's path: one insert into the move log, one update of the
match's row), timing each call. Printed: the median and p95 of the calls around move 10
(moves 1-20) and around move 1,000 (moves 991-1,010) over ``--matches`` matches, so the two
can be compared: the time per move must not grow with the match.

    .venv/bin/python benchmarks/store_moves.py                      # a fresh SQLite file
    .venv/bin/python benchmarks/store_moves.py --db postgresql+psycopg://u:pw@host/db

Not a test: the figures depend on the machine.

(``benchmarks/store_moves.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from spite_malice.bots import reference_move
from spite_malice.engine import Rules
from spite_malice.store import MatchHeader, Store
from spite_malice.table import COMPUTER, PERSON, Seat, Table

RULES = Rules(match_target=500)
"""A long match: 1,000 moves and more before anyone reaches the target."""
WINDOWS = {"move 10": (1, 20), "move 1,000": (991, 1010)}


def one_match(store: Store, seed: int, moves: int) -> dict[int, float]:
    """Seconds of ``append`` for each move number of one match (deals are stored too, not
    timed)."""
    seats = (Seat(PERSON, "Ann", "bench"), Seat(COMPUTER, "Reference"))
    table = Table.new(RULES, seats, level="reference", seed=seed)
    header = MatchHeader(f"bench-{uuid.uuid4().hex}", RULES, table.meta, seed=seed)
    deal = table.check_deal()
    header = store.create_match(header, deal)
    table.apply(deal)
    times: dict[int, float] = {}
    number = 0
    while number < moves:
        if table.is_game_over:
            if table.match.is_over:
                break
            step = table.check_deal()
            store.append(header, step)
            table.apply(step)
            continue
        game = table.game
        step = table.check_move(game.to_move, reference_move(game))
        started = time.perf_counter()
        store.append(header, step)
        times[number + 1] = time.perf_counter() - started
        table.apply(step)
        number += 1
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="database (default: a fresh SQLite file)")
    parser.add_argument("--matches", type=int, default=5, help="matches to play (5)")
    parser.add_argument("--moves", type=int, default=1010, help="moves per match (1010)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store.open(args.db or str(Path(folder) / "bench.db"))
        print(f"database: {store.location}")
        samples: dict[str, list[float]] = {name: [] for name in WINDOWS}
        for seed in range(args.matches):
            times = one_match(store, seed, args.moves)
            for name, (low, high) in WINDOWS.items():
                samples[name].extend(times[n] for n in range(low, high + 1) if n in times)
        store.close()
    for name, values in samples.items():
        if not values:
            print(f"{name}: no moves (the matches were shorter)")
            continue
        ms = [value * 1000 for value in values]
        print(
            f"store time per move at {name}: median {statistics.median(ms):.2f} ms, "
            f"p95 {percentile(ms, 0.95):.2f} ms ({len(ms)} moves over {args.matches} matches)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
