"""Hard with changed evaluation weights against the frozen ``hard-1``: is a weight worth it?

Both bots plan whole turns the same way; only the variant's :class:`Weights` differ. Deal
``seed + k`` is played twice with the seats swapped and both bots seeded from the deal, so
two identical bots split every pair and score exactly 50%: any difference is the weights'.
A game takes about 50 ms, so thousands of games settle effects of a few percent. This is how
:data:`~spite_malice.bots.evaluation.EXPERT_WEIGHTS` was chosen.

    .venv/bin/python benchmarks/bots_weights.py danger=120 --deals 1000 --seed 10000 --jobs 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import fields, replace
from functools import partial

from spite_malice.arena import play_game
from spite_malice.arena.stats import wilson_interval
from spite_malice.bot_registry import make_bot
from spite_malice.bots import PlanningBot
from spite_malice.bots.evaluation import HARD_WEIGHTS, AwareEvaluator, Weights

WEIGHT_NAMES = tuple(field.name for field in fields(Weights))


def parse_change(text: str) -> tuple[str, float]:
    """``NAME=VALUE``, a field of :class:`Weights` and a number."""
    name, equals, value = text.partition("=")
    if not equals or name not in WEIGHT_NAMES:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected NAME=VALUE with NAME one of {', '.join(WEIGHT_NAMES)}"
        )
    try:
        return name, float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: {value!r} is not a number") from None


def _pair(weights: Weights, seed: int) -> list[str | None]:
    winners = []
    for seat in (0, 1):
        variant = PlanningBot(seed)
        variant.evaluator = AwareEvaluator(weights)
        winners.append(play_game(variant, make_bot("hard-1", seed), seed, seat).winner)
    return winners


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("changes", nargs="*", type=parse_change, metavar="NAME=VALUE")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=10000)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    weights = replace(HARD_WEIGHTS, **dict(args.changes))
    wins = losses = draws = 0
    start = time.perf_counter()
    seeds = range(args.seed, args.seed + args.deals)
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for pair in pool.imap_unordered(partial(_pair, weights), seeds, chunksize=20):
            wins += pair.count("A")
            losses += pair.count("B")
            draws += pair.count(None)
    low, high = wilson_interval(wins, wins + losses)
    changed = ", ".join(f"{name}={value:g}" for name, value in args.changes) or "no change"
    print(
        f"Hard ({changed}) v hard-1, {2 * args.deals} games from deal {args.seed}: "
        f"{wins}-{losses}, {draws} drawn; win rate {wins / max(1, wins + losses):.1%} "
        f"(95% CI {low:.1%} to {high:.1%}); {time.perf_counter() - start:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
