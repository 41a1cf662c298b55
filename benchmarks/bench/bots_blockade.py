"""Hard with another way of playing stalled positions, against a baseline on paired deals.

Each ``--variant`` is a :class:`~spite_malice.bots.blockade.Blockade` written as
``quiet=Q,stock=S,WEIGHT=VALUE,...`` with, for a search, ``samples=N`` and optionally
``candidates=K,discards=D,budget=SECONDS,contempt=C``: a position counts as stalled after
``Q`` turns without a pay-off card played with fewer than ``S`` cards in the stock, and
Hard's weights (:data:`~spite_malice.bots.evaluation.HARD_WEIGHTS`) with those changes score
it there, searched in ``N`` sampled games when ``N`` is more than 0 (``quiet=0,stock=0``
alone: Hard with no stall handling). Each variant plays ``--games``
games from ``--seed`` against ``--opponent`` in the arena (one job at a time, one row a game
in ``--out``/VARIANT.csv), and, given ``--against``, an arena CSV of the shipped Hard against
the same opponent on the same deals, is compared with it game by game: the change of the
score a game (a draw a half) and of the wins a game (the match score: a draw scores nothing,
R4.1, R4.2), each with its standard error over the deals.

    nice -n 19 .venv/bin/python benchmarks/bots_blockade.py --games 300 --seed 70000 \\
        --against benchmarks/results/hard_blocker-1_70000.csv \\
        --variant quiet=6,stock=30,own_chance=130
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from dataclasses import fields, replace
from pathlib import Path

from spite_malice.arena.games import GameResult
from spite_malice.arena.report import read_csv
from spite_malice.arena.sprt import game_points
from spite_malice.bot_registry import register_bot
from spite_malice.bots.blockade import SEARCH_BUDGET, Blockade
from spite_malice.bots.evaluation import HARD_WEIGHTS
from spite_malice.bots.expert import EXPERT_SETTINGS
from spite_malice.bots.planning_bot import HARD, PlanningBot
from spite_malice.cli import main as cli_main

WEIGHT_NAMES = {field.name for field in fields(HARD_WEIGHTS)}


def parse_variant(text: str) -> Blockade:
    """A :class:`Blockade` from ``quiet=Q,stock=S,WEIGHT=VALUE,...``."""
    settings: dict[str, float] = {}
    for item in text.split(","):
        key, equals, value = item.partition("=")
        if not equals:
            raise ValueError(f"{item!r}: expected NAME=VALUE")
        settings[key.strip()] = float(value)
    quiet = int(settings.pop("quiet", 6))
    stock = int(settings.pop("stock", 30))
    samples = int(settings.pop("samples", 0))
    contempt = settings.pop("contempt", 0.0)
    candidates = int(settings.pop("candidates", EXPERT_SETTINGS.candidates))
    discards = int(settings.pop("discards", EXPERT_SETTINGS.discards))
    budget = settings.pop("budget", SEARCH_BUDGET)
    unknown = sorted(set(settings) - WEIGHT_NAMES)
    if unknown:
        raise ValueError(f"unknown weights {', '.join(unknown)} in {text!r}")
    weights = replace(HARD_WEIGHTS, **settings) if settings else None
    return Blockade(quiet, stock, weights, samples, candidates, discards, budget, contempt)


def wins(result: GameResult) -> float:
    """Bot A's match result of a game, a draw nothing: 1 won, 0 drawn, -1 lost."""
    if result.winner is None:
        return 0.0
    return 1.0 if result.winner == "A" else -1.0


def paired_change(
    new: list[GameResult], old: list[GameResult], score: object
) -> tuple[float, float, int]:
    """The mean change a game of ``score`` (a function of a result) over the deals both runs
    played, its standard error, and the deals."""
    assert callable(score)
    before = {(r.seed, r.a_seat): score(r) for r in old}
    by_deal: dict[int, list[float]] = {}
    for r in new:
        key = (r.seed, r.a_seat)
        if key in before:
            by_deal.setdefault(r.seed, []).append(score(r) - before[key])
    changes = [sum(v) / len(v) for v in by_deal.values()]
    if len(changes) < 2:
        return 0.0, 0.0, len(changes)
    return (
        statistics.fmean(changes),
        statistics.stdev(changes) / math.sqrt(len(changes)),
        len(changes),
    )


def describe(results: list[GameResult]) -> str:
    won = sum(r.winner == "A" for r in results)
    lost = sum(r.winner == "B" for r in results)
    drawn = len(results) - won - lost
    share = won / max(1, won + lost)
    return (
        f"{won}-{lost}, {drawn} draws ({drawn / max(1, len(results)):.1%}), "
        f"{share:.1%} of decided games"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--opponent", default="blocker-1")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=70000)
    parser.add_argument("--against", type=Path, help="the shipped Hard's arena CSV, same deals")
    parser.add_argument("--out", type=Path, default=Path("/tmp/blockade"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    old = read_csv(args.against, "hard", args.opponent) if args.against else None
    for number, text in enumerate(args.variant):
        blockade = parse_variant(text)
        name = f"hard-v{number}"

        def factory(seed: int | None, blockade: Blockade = blockade) -> PlanningBot:
            return PlanningBot(seed, HARD, weights=HARD.weights, blockade=blockade)

        register_bot(name, factory)
        path = args.out / f"{text.replace(',', '_').replace('=', '')}_{args.seed}.csv"
        code = cli_main(
            [
                "arena",
                name,
                args.opponent,
                "--games",
                str(args.games),
                "--seed",
                str(args.seed),
                "--jobs",
                "1",
                "--csv",
                str(path),
            ]
        )
        if code:
            return code
        new = read_csv(path, name, args.opponent)
        print(f"== {text}: {describe(new)}  ({path})")
        if old is not None:
            deals = {r.seed for r in new}
            base = [r for r in old if r.seed in deals]
            print(f"   shipped Hard on the same deals: {describe(base)}")
            for label, score in (("score", game_points), ("wins", wins)):
                mean, error, count = paired_change(new, base, score)
                print(f"   {label} a game {mean:+.3f} (SE {error:.3f}, {count} deals)")
        sys.stdout.flush()
    return 0
