"""Measure the bot levels against the issue's targets with the arena, and print the figures.

Targets: each level wins at least 70% of decided games against the level below (over at least
1,000 paired games), Expert included (issue 18; it was 60% before); Easy, Medium
and Hard take at most 50 ms a decision (median); Expert at most 1.2 s a turn (p95).

    .venv/bin/python benchmarks/bots_targets.py --games 2000 --jobs 2 \
        --pairs medium:easy,hard:medium
    .venv/bin/python benchmarks/bots_targets.py --games 50 --pairs expert:hard

A bot may carry options: ``expert:0.25`` thinks 0.25 s a turn, ``expert:60:16`` uses 16
samples a search whatever the time (deterministic; its time per turn then depends on the
machine). The output is a markdown table, ready for the README.
"""

from __future__ import annotations

import argparse
import sys
import time

from spite_malice.arena import run_arena, summarize
from spite_malice.arena.stats import Summary
from spite_malice.levels import level_label

DEFAULT_PAIRS = "medium:easy,hard:medium,expert:hard"
WIN_TARGET: dict[str, float] = {}
"""Win-rate targets that differ from 70%."""


def _pairs(text: str) -> list[tuple[str, str]]:
    """``a:b,c:d`` where a bot may itself hold colons (``expert:0.5:hard``: the last part is B)."""
    pairs = []
    for item in text.split(","):
        parts = item.strip().split(":")
        pairs.append((":".join(parts[:-1]), parts[-1]))
    return pairs


def _row(summary: Summary, seconds: float) -> str:
    low, high = summary.interval
    a = summary.name_a.split(":")[0]
    target = WIN_TARGET.get(a, 0.70)
    verdict = "yes" if low >= target else "no" if high < target else "not settled"
    times = summary.times_a
    return (
        f"| {level_label(summary.name_a)} | {level_label(summary.name_b)} | {summary.games} | "
        f"{summary.wins}-{summary.losses}-{summary.draws} | {summary.win_rate:.1%} "
        f"({low:.1%} to {high:.1%}) | {target:.0%}: {verdict} | "
        f"{times.decision_median * 1000:.2f} / {times.decision_p95 * 1000:.1f} ms | "
        f"{times.turn_median * 1000:.1f} / {times.turn_p95 * 1000:.1f} ms | {seconds:.0f} s |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help=f"A:B,... ({DEFAULT_PAIRS})")
    args = parser.parse_args(argv)
    print(
        "| A | B | games | A won-lost-drawn | A win rate (95% CI) | target met | "
        "A decision median / p95 | A turn median / p95 | wall time |"
    )
    print("|---|---|---:|---|---|---|---|---|---:|")
    for name_a, name_b in _pairs(args.pairs):
        start = time.perf_counter()
        results = run_arena(name_a, name_b, args.games, args.seed, jobs=args.jobs)
        print(_row(summarize(results, name_a, name_b), time.perf_counter() - start), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
