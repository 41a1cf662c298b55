"""Would Expert choose better from a wider list of plans, or with another switch threshold?

Expert compares a few candidate plans in sampled games and keeps the evaluation's choice
unless another beats it by more than ``SWITCH_Z`` standard errors
(:mod:`spite_malice.bots.expert`). This benchmark collects the positions where the shipped
Expert searches in games against ``--opponent``, and in each one builds the candidate list of
every variant asked for (the shipped settings with ``--variant`` changes, e.g.
``discard_plans=2`` or ``candidates=10,margin=100``). Every plan of any list is played in the
same ``--decide`` + ``--truth`` sampled games. Each variant's rule then chooses from its own
list on ``k`` of the ``--decide`` samples (random subsets, ``--trials`` times), and the choice
is valued on the ``--truth`` samples, which the choice never saw: its edge over the
evaluation's choice under the search's own score, in points of winning chance (hundredths of
a game). So a variant's figure is what its choices gain, unbiased by the luck of the samples
that made them; the difference from the shipped rule is paired search by search, with its
standard error.

This measures the choice under Expert's own score (the leaf model, the rollouts' play), not in
games: a gain here is a reason to play games, not a result. It changes nothing but the
candidate list and the threshold, since another score would change the yardstick itself.

    nice -n 5 .venv/bin/python -m spite_malice.bench.bots_candidates --games 8 --seed 9200 \\
        --jobs 2 --variant discard_plans=2 --variant candidates=10,margin=100,discard_plans=3 \\
        --switch-z 0.75,1,1.5
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from functools import partial

from spite_malice.arena import play_game
from spite_malice.bench.bots_expert import parse_setting, settings_with
from spite_malice.bench.bots_noise import Collector, sampled_scores
from spite_malice.bot_registry import make_bot
from spite_malice.bots import ExpertBot
from spite_malice.bots.expert import MIN_SWITCH_SAMPLES, SWITCH_Z, _choose, _edge
from spite_malice.bots.planning import Plan

SHIPPED = "shipped"
"""The name of the variant with no changes, which every other is compared with."""

Variant = tuple[str, tuple[tuple[str, float], ...]]
"""A variant's name (its changes as written) and its changes to the shipped settings."""


def parse_variant(text: str) -> Variant:
    """``NAME=VALUE[,NAME=VALUE...]``: changes to the shipped search settings (the switch
    threshold is ``--switch-z``'s, tried with every variant)."""
    changes = tuple(parse_setting(part) for part in text.split(","))
    if any(name == "switch_z" for name, _ in changes):
        raise argparse.ArgumentTypeError(f"{text!r}: give switch thresholds with --switch-z")
    return text, changes


def _game_gains(
    variants: list[Variant],
    thresholds: list[float],
    opponent: str,
    decide: int,
    truth: int,
    samples: int,
    trials: int,
    game: int,
    seed: int,
) -> tuple[list[dict[tuple[str, float], float]], dict[str, list[int]]]:
    """Play deal ``seed`` (Expert in seat ``game % 2``, so that it alternates) and value
    every variant's choices in each of Expert's searches: per search, each (variant,
    threshold) choice's mean true edge over the evaluation's choice; per variant, how many
    plans it compared each time."""
    collector = Collector(seed, 24)
    play_game(collector, make_bot(opponent, seed), seed, game % 2)
    bots = {
        name: ExpertBot(1, budget=1e6, settings=settings_with(list(changes)))
        for name, changes in variants
    }
    reference = bots[SHIPPED]
    rows: list[dict[tuple[str, float], float]] = []
    sizes: dict[str, list[int]] = {name: [] for name in bots}
    for observation, refused in collector.positions:
        lists: dict[str, list[Plan]] = {}
        for name, bot in bots.items():
            bot.refused = refused
            lists[name] = bot.search_candidates(observation)
        union: list[Plan] = []
        index: dict[object, int] = {}
        for plans in lists.values():
            for plan in plans:
                if plan.moves not in index:
                    index[plan.moves] = len(union)
                    union.append(plan)
        if len(union) < 2:
            continue
        reference.refused = refused
        scores = sampled_scores(reference, observation, refused, union, decide + truth)
        held_out = [row[decide:] for row in scores]
        true_edge = [0.0] + [
            100 * _edge(union, held_out, i, reference.prior)[0] for i in range(1, len(union))
        ]
        picks = [random.Random(t).sample(range(decide), samples) for t in range(trials)]
        row: dict[tuple[str, float], float] = {}
        for name, plans in lists.items():
            sizes[name].append(len(plans))
            ids = [index[plan.moves] for plan in plans]
            for z in thresholds:
                if len(ids) < 2:
                    row[name, z] = 0.0
                    continue
                values = []
                for picked in picks:
                    results = [[scores[i][j] for j in picked] for i in ids]
                    chosen = _choose(plans, results, list(range(1, len(ids))), reference.prior, z)
                    values.append(true_edge[ids[chosen]])
                row[name, z] = statistics.mean(values)
        rows.append(row)
    return rows, sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games to collect positions from")
    parser.add_argument("--seed", type=int, default=9200, help="the first deal")
    parser.add_argument("--opponent", default="hard", help="whom Expert plays (default: hard)")
    parser.add_argument(
        "--variant",
        type=parse_variant,
        action="append",
        default=[],
        metavar="NAME=VALUE[,...]",
        help="changes to the shipped settings",
    )
    parser.add_argument(
        "--switch-z",
        default=str(SWITCH_Z),
        help="switch thresholds to try, comma-separated (default: the shipped)",
    )
    parser.add_argument("--decide", type=int, default=96, help="samples the choices draw on")
    parser.add_argument("--truth", type=int, default=96, help="samples that value the choices")
    parser.add_argument("--samples", type=int, default=24, help="samples a choice takes")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args(argv)
    try:
        thresholds = [float(text) for text in args.switch_z.split(",")]
    except ValueError:
        parser.error(f"--switch-z: {args.switch_z!r} is not a list of numbers")
    if SWITCH_Z not in thresholds:
        thresholds.insert(0, SWITCH_Z)
    if args.samples > args.decide:
        parser.error("--samples may not exceed --decide")
    if args.samples < MIN_SWITCH_SAMPLES:
        parser.error(f"--samples: Expert keeps the evaluation's choice under {MIN_SWITCH_SAMPLES}")
    if args.truth < 2:
        parser.error("--truth needs at least 2 samples (a spread needs two)")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    variants: list[Variant] = [(SHIPPED, ()), *args.variant]
    start = time.perf_counter()
    work = partial(
        _game_gains,
        variants,
        thresholds,
        args.opponent,
        args.decide,
        args.truth,
        args.samples,
        args.trials,
    )
    games = [(k, args.seed + k) for k in range(args.games)]
    if args.jobs == 1:
        results = [work(*game) for game in games]
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            results = pool.starmap(work, games)
    rows = [row for game_rows, _ in results for row in game_rows]
    if not rows:
        print(f"no search in {args.games} game(s) from deal {args.seed}: nothing to measure")
        return 0
    print(
        f"{len(rows)} searches in {args.games} game(s) against {args.opponent} from deal "
        f"{args.seed}; choices from {args.samples} of {args.decide} samples, valued on "
        f"{args.truth} others; {time.perf_counter() - start:.0f} s"
    )
    print("| variant | switch z | plans | gain over the evaluation | against the shipped (SE) |")
    print("|---|---:|---:|---:|---:|")
    base = [row[SHIPPED, SWITCH_Z] for row in rows]
    for name, _ in variants:
        compared = statistics.mean(n for _, sizes in results for n in sizes[name])
        for z in thresholds:
            gains = [row[name, z] for row in rows]
            differences = [g - b for g, b in zip(gains, base, strict=True)]
            error = (
                statistics.stdev(differences) / math.sqrt(len(differences))
                if len(rows) > 1
                else math.nan
            )
            print(
                f"| {name} | {z:g} | {compared:.2f} | {statistics.mean(gains):.3f} "
                f"| {statistics.mean(differences):+.3f} ({error:.3f}) |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
