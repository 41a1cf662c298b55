"""Would Expert choose better from a wider list of plans, or with another switch threshold?

Expert compares a few candidate plans in sampled games and keeps the evaluation's choice
unless another beats it by more than ``switch_z`` standard errors
(:mod:`spite_malice.bots.expert`). This benchmark collects the positions where the shipped
Expert searches in games against ``--opponent``, and in each one builds the candidate list of
every variant asked for (the shipped settings with ``--variant`` changes to the list:
``candidates``, ``margin``, ``discards``, ``discard_plans``). Every plan of any list is played
in the same ``--decide`` + ``--truth`` sampled games. Each variant's rule then chooses from its
own list on ``--samples`` of the ``--decide`` samples (random subsets, ``--trials`` times;
every plan takes them all, without the search's dropping of trailing plans), and the choice
is valued on the ``--truth`` samples, which the choice never saw: its edge over the
evaluation's choice under the search's own score, in points of winning chance (hundredths
of a game). So a variant's figure is what its choices gain, not flattered by the luck of the
samples that made them; the difference from the shipped rule is paired position by position,
with its standard error. A position counts when any list compared holds two plans or more
(a list of one gains nothing there), so the gains of one run depend on which variants it
compares; their differences do not.

This measures the choice under Expert's own score (the leaf model, the rollouts' play), not in
games: a gain here is a reason to play games, not a result. Only the candidate list and the
threshold change, since another score would change the yardstick itself.

    nice -n 5 .venv/bin/python benchmarks/bots_candidates.py --games 8 --seed 9200 \\
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
from spite_malice.bot_registry import make_bot
from spite_malice.bots import ExpertBot
from spite_malice.bots.expert import EXPERT_SETTINGS, MIN_SWITCH_SAMPLES, SearchSettings, _edge
from spite_malice.bots.planning import Plan
from spite_malice.engine import Move

from .bots_expert import opponent_name, parse_setting, settings_with
from .bots_noise import Collector, sampled_choice, sampled_scores

SHIPPED = "shipped"
"""The name of the variant with no changes, which every other is compared with."""

LIST_SETTINGS = ("candidates", "margin", "discards", "discard_plans")
"""The settings that make the candidate list; every other one changes the score or the
rollouts, the yardstick itself, which this benchmark keeps as shipped."""

Variant = tuple[str, SearchSettings]
"""A variant's name (its changes as written) and its search settings."""

Choice = tuple[str, float]
"""A variant's name and a switch threshold: one rule of choice."""


def parse_variant(text: str) -> Variant:
    """``NAME=VALUE[,NAME=VALUE...]``: changes to the shipped candidate list (the settings
    of :data:`LIST_SETTINGS`; the switch threshold is ``--switch-z``'s, tried with every
    variant)."""
    changes = [parse_setting(part) for part in text.split(",")]
    for name, _ in changes:
        if name not in LIST_SETTINGS:
            raise argparse.ArgumentTypeError(
                f"{text!r}: {name} does not make the candidate list; a variant changes "
                f"{', '.join(LIST_SETTINGS)} (switch thresholds: --switch-z)"
            )
    return text, settings_with(changes)


def valued_choices(
    lists: dict[str, list[Plan]],
    scores: dict[tuple[Move, ...], list[float]],
    decide: int,
    prior: float,
    thresholds: list[float],
    picks: list[list[int]],
) -> dict[Choice, float]:
    """What each variant's choice gains in one position, for each threshold: the mean over
    ``picks`` (subsets of the first ``decide`` samples, on which the choice is made) of the
    chosen plan's edge over the evaluation's choice on the samples after ``decide``, which
    the choice never saw, in points of winning chance. ``lists`` holds each variant's
    candidates, the evaluation's choice first in each; ``scores`` every plan's rollout
    scores (by its moves), the same sampled games for all."""
    first = next(iter(lists.values()))[0]
    held_out = {moves: row[decide:] for moves, row in scores.items()}
    gains: dict[Choice, float] = {}
    for name, plans in lists.items():
        if plans[0].moves != first.moves:
            raise ValueError(f"{name}'s list does not start with the evaluation's choice")
        rows = [scores[plan.moves] for plan in plans]
        edges = [0.0] + [
            100 * _edge(plans, [held_out[plan.moves] for plan in plans], i, prior)[0]
            for i in range(1, len(plans))
        ]
        for z in thresholds:
            chosen = [sampled_choice(plans, rows, picked, prior, z) for picked in picks]
            gains[name, z] = statistics.mean(edges[i] for i in chosen)
    return gains


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
) -> tuple[list[dict[Choice, float]], dict[str, list[int]]]:
    """Play deal ``seed`` (Expert in seat ``game % 2``, so that it alternates) and value
    every variant's choices in each position where any variant searches (two plans or
    more): per position, each rule's gain (:func:`valued_choices`); per variant, how many
    plans it compared in each."""
    collector = Collector(seed, 24)
    play_game(collector, make_bot(opponent, seed), seed, game % 2)
    bots = {name: ExpertBot(1, budget=1e6, settings=settings) for name, settings in variants}
    reference = bots[SHIPPED]
    picks = [random.Random(t).sample(range(decide), samples) for t in range(trials)]
    rows: list[dict[Choice, float]] = []
    sizes: dict[str, list[int]] = {name: [] for name in bots}
    for observation, refused in collector.positions:
        lists: dict[str, list[Plan]] = {}
        for name, bot in bots.items():
            bot.refused = refused
            lists[name] = bot.search_candidates(observation)
        union = list({plan.moves: plan for plans in lists.values() for plan in plans}.values())
        if len(union) < 2:
            continue
        reference.refused = refused
        played = sampled_scores(reference, observation, refused, union, decide + truth)
        scores = {plan.moves: row for plan, row in zip(union, played, strict=True)}
        rows.append(valued_choices(lists, scores, decide, reference.prior, thresholds, picks))
        for name, plans in lists.items():
            sizes[name].append(len(plans))
    return rows, sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games to collect positions from")
    parser.add_argument("--seed", type=int, default=9200, help="the first deal")
    parser.add_argument(
        "--opponent", type=opponent_name, default="hard", help="whom Expert plays (default: hard)"
    )
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
        default=f"{EXPERT_SETTINGS.switch_z:g}",
        help="switch thresholds to try, comma-separated (the shipped one is always tried)",
    )
    parser.add_argument("--decide", type=int, default=96, help="samples the choices draw on")
    parser.add_argument("--truth", type=int, default=96, help="samples that value the choices")
    parser.add_argument("--samples", type=int, default=24, help="samples a choice takes")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args(argv)
    shipped_z = EXPERT_SETTINGS.switch_z
    try:
        asked = [float(text) for text in args.switch_z.split(",")]
    except ValueError:
        parser.error(f"--switch-z: {args.switch_z!r} is not a list of numbers")
    if not all(math.isfinite(z) for z in asked):
        parser.error(f"--switch-z: {args.switch_z!r} holds a number that is not finite")
    thresholds = list(dict.fromkeys([shipped_z, *asked]))
    if args.samples > args.decide:
        parser.error("--samples may not exceed --decide")
    if args.samples < MIN_SWITCH_SAMPLES:
        parser.error(f"--samples: Expert keeps the evaluation's choice under {MIN_SWITCH_SAMPLES}")
    if args.truth < 2:
        parser.error("--truth needs at least 2 samples (a spread needs two)")
    if min(args.games, args.jobs, args.trials) < 1:
        parser.error("--games, --jobs and --trials must be at least 1")
    variants: list[Variant] = list(dict([(SHIPPED, EXPERT_SETTINGS), *args.variant]).items())
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
        f"{len(rows)} searches (positions where some list holds two plans or more) in "
        f"{args.games} game(s) against {args.opponent} from deal "
        f"{args.seed}; choices from {args.samples} of {args.decide} samples, valued on "
        f"{args.truth} others; {time.perf_counter() - start:.0f} s"
    )
    print("| variant | switch z | plans | gain over the evaluation | against the shipped (SE) |")
    print("|---|---:|---:|---:|---:|")
    base = [row[SHIPPED, shipped_z] for row in rows]
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
