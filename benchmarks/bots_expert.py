"""Expert against Hard with a fixed number of samples a search: a measure of the search itself.

With ``max_samples`` fixed, Expert's play does not depend on the machine's speed or load, so
runs are repeatable on a busy machine (its time per turn is then whatever the samples take).
Deal ``seed + k`` is played twice, Expert in seat 0 then in seat 1; Expert gets seed
``seed + k`` and Hard the same.

    .venv/bin/python benchmarks/bots_expert.py --samples 12 --deals 30 --seed 2000 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import time
from functools import partial

from spite_malice.arena import play_game
from spite_malice.arena.stats import percentile, wilson_interval
from spite_malice.bots import ExpertBot, make_bot


def _pair(samples: int, switch_z: float | None, seed: int) -> list[tuple[str | None, list[float]]]:
    if switch_z is not None:
        import spite_malice.bots.expert as expert

        expert.SWITCH_Z = switch_z
    out: list[tuple[str | None, list[float]]] = []
    for seat in (0, 1):
        bot = ExpertBot(seed, budget=1e6, max_samples=samples)
        result = play_game(bot, make_bot("hard", seed), seed, seat)
        out.append((result.winner, list(result.a_turn_times)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=12)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--switch-z", type=float, default=None, help="override SWITCH_Z")
    args = parser.parse_args(argv)
    wins = losses = draws = 0
    turns: list[float] = []
    start = time.perf_counter()
    work = partial(_pair, args.samples, args.switch_z)
    seeds = range(args.seed, args.seed + args.deals)
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for pair in pool.imap_unordered(work, seeds):
            for winner, times in pair:
                wins += winner == "A"
                losses += winner == "B"
                draws += winner is None
                turns.extend(times)
            print(f"Expert {wins} - {losses} Hard, {draws} drawn", flush=True)
    low, high = wilson_interval(wins, wins + losses)
    print(
        f"Expert ({args.samples} samples) v Hard, {2 * args.deals} games from deal {args.seed}: "
        f"{wins}-{losses}, {draws} drawn; win rate {wins / max(1, wins + losses):.1%} "
        f"(95% CI {low:.1%} to {high:.1%}); Expert per turn median "
        f"{statistics.median(turns):.3f} s, p95 {percentile(turns, 95):.3f} s; "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
