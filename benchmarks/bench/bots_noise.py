"""Is Expert's choice limited by the noise of its samples? Its regret under its own score.

Expert compares its candidate plans in sampled games (:mod:`spite_malice.bots.expert`). This
benchmark collects the positions where Expert searches in games against ``hard-1``, then for
each one plays every candidate Expert would search there in ``--truth`` sampled games (the
same games for every candidate) to estimate each candidate's true edge over the evaluation's
choice under the search's own score (the candidate's value weighed by the leaf prior, plus its
sampled chance of winning). On ``--decide`` other sampled games (disjoint from those) it
makes Expert's choice rule with ``k`` samples (random subsets, ``--trials`` times; every
candidate sampled ``k`` times, without the search's dropping of trailing plans) and prints
the mean regret: how far the choice falls short of the best candidate, in points of winning
chance (hundredths of a game). The evaluation's own choice (no samples) is the first line. A
regret that falls as ``k`` grows is noise the budget can buy off; what is left at large ``k``
is beyond the reach of more samples of this score.

    nice -n 19 .venv/bin/python benchmarks/bots_noise.py --games 1 --seed 9003 \\
        --decide 96 --truth 96 --samples 24,48,96
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from spite_malice.arena import play_game
from spite_malice.bot_registry import make_bot
from spite_malice.bots import ExpertBot
from spite_malice.bots.expert import MIN_SWITCH_SAMPLES, SWITCH_Z, _choose, _edge
from spite_malice.bots.planning import Plan
from spite_malice.bots.sampling import sample_game
from spite_malice.bots.view import Ranks
from spite_malice.engine import Observation


class Collector(ExpertBot):
    """Expert that keeps every position it plans (with the opponent's refusals)."""

    def __init__(self, seed: int, samples: int) -> None:
        super().__init__(seed, budget=1e6, max_samples=samples)
        self.positions: list[tuple[Observation, Ranks]] = []

    def best_plan(
        self, observation: Observation, deadline: float, hard_deadline: float | None = None
    ) -> Plan:
        self.positions.append((observation, self.refused))
        return super().best_plan(observation, deadline, hard_deadline)


def sampled_scores(
    bot: ExpertBot, observation: Observation, refused: Ranks, plans: list[Plan], samples: int
) -> list[list[float]]:
    """Each plan's rollout score in ``samples`` sampled games, the same games for all, dealt
    as Expert's search deals them (the opponent's refusals heeded as its settings say)."""
    rng = random.Random(f"noise/{len(observation.history)}")
    heeded = refused if bot.settings.refusals else ()
    scores: list[list[float]] = [[] for _ in plans]
    for _ in range(samples):
        world = sample_game(observation, rng, heeded)
        chance_seed = rng.getrandbits(63)
        for i, plan in enumerate(plans):
            game = world.copy(rng=random.Random(chance_seed))
            scores[i].append(bot._rollout(game, plan, observation.seat))
    return scores


def sampled_choice(
    plans: list[Plan],
    scores: list[list[float]],
    picked: list[int],
    prior: float,
    switch_z: float = SWITCH_Z,
) -> int:
    """Expert's rule (:func:`~spite_malice.bots.expert._choose`, with ``prior`` and
    ``switch_z``) on the samples ``picked`` of ``scores`` (one row per plan; with fewer than
    ``MIN_SWITCH_SAMPLES``, the evaluation's choice stands, as in Expert)."""
    if len(picked) < MIN_SWITCH_SAMPLES:
        return 0
    results = [[row[j] for j in picked] for row in scores]
    return _choose(plans, results, list(range(1, len(plans))), prior, switch_z)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1, help="games to collect positions from")
    parser.add_argument("--seed", type=int, default=9003)
    parser.add_argument("--decide", type=int, default=96, help="samples the choices draw on")
    parser.add_argument("--truth", type=int, default=96, help="samples of the true edges")
    parser.add_argument("--samples", default="24,48,96", help="sample counts to compare")
    parser.add_argument("--trials", type=int, default=20)
    args = parser.parse_args(argv)
    counts = [int(text) for text in args.samples.split(",")]
    if max(counts) > args.decide:
        parser.error("--samples may not exceed --decide")
    if min(counts) < 2 or args.truth < 2:
        parser.error("--samples and --truth need at least 2 samples (a spread needs two)")
    start = time.perf_counter()
    positions: list[tuple[Observation, Ranks]] = []
    for k in range(args.games):
        seed = args.seed + k
        collector = Collector(seed, 24)
        play_game(collector, make_bot("hard-1", seed), seed, k % 2)
        positions.extend(collector.positions)
    bot = ExpertBot(1, budget=1e6)
    regrets: dict[str, list[float]] = {"evaluation": [], **{f"{k} samples": [] for k in counts}}
    truth_errors: list[float] = []
    for observation, refused in positions:
        bot.refused = refused
        plans = bot.search_candidates(observation)
        if len(plans) < 2:
            continue
        scores = sampled_scores(bot, observation, refused, plans, args.decide + args.truth)
        edges = [
            _edge(plans, [row[args.decide :] for row in scores], i, bot.prior)
            for i in range(1, len(plans))
        ]
        truth = [0.0, *(100 * edge for edge, _ in edges)]
        truth_errors.extend(100 * error for _, error in edges)
        best = max(truth)
        regrets["evaluation"].append(best - truth[0])
        for k in counts:
            picks = [random.Random(t).sample(range(args.decide), k) for t in range(args.trials)]
            chosen = [sampled_choice(plans, scores, picked, bot.prior) for picked in picks]
            trials = [best - truth[i] for i in chosen]
            regrets[f"{k} samples"].append(statistics.mean(trials))
    searches = len(regrets["evaluation"])
    if not searches:
        print(f"no search in {args.games} game(s) from deal {args.seed}: nothing to measure")
        return 0
    print(
        f"{searches} searches from {args.games} game(s) from deal {args.seed} "
        f"({len(positions)} positions planned), truth from {args.truth} samples "
        f"(its standard error a candidate: mean {statistics.mean(truth_errors):.2f} points); "
        f"{time.perf_counter() - start:.0f} s"
    )
    print("| choice | mean regret | searches with regret > 1 |")
    print("|---|---:|---:|")
    for name, values_ in regrets.items():
        print(f"| {name} | {statistics.mean(values_):.1f} | {sum(r > 1 for r in values_)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
