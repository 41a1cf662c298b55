"""Tune Hard's evaluation weights by self-play with Optuna, then confirm on held-out deals.

A study: each trial proposes :class:`~spite_malice.bots.evaluation.Weights` (Optuna's CMA-ES
sampler started at the baseline's weights, or its TPE sampler; seeded, one trial at a time,
so a study is reproducible), and Hard with them plays
the frozen baseline ``hard-1`` on the *training* deals, each deal twice with the seats
swapped; the trial's value is its mean score (a win 1, a draw 1/2). The first trial is
``hard-1``'s own weights, which score exactly 50%. Every trial meets the same deals, so the
trials are compared on the same cards. The best few are then confirmed on *held-out* deals
(never seen by the study) by a sequential test against ``hard-1``, as the arena's ``--sprt``
runs it; a candidate that is only lucky on the training deals fails there.

    nice -n 19 .venv/bin/python benchmarks/bots_tune.py --trials 60 --deals 200 \\
        --train-seed 100000 --holdout-seed 500000 --sprt 0,60 --confirm 2 --jobs 2 \\
        --from benchmarks/bots_tune_start.json --out tune.json

The study works on each weight scaled to its range (0 to 1, see :data:`SPACE`), so that
CMA-ES's one step size (``--sigma``) means the same for every weight. Needs the ``tune``
extra (``pip install -e '.[tune]'``: Optuna and cmaes).
docs/measurements/2026-12-01-hard-tuning.md records the studies run and what they found.
``--from`` starts from other weights than ``hard-1``'s (a JSON object of weights), ``--fix
NAME=VALUE`` keeps a weight out of the study.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, fields, replace
from functools import partial
from pathlib import Path
from typing import Any

from spite_malice.arena import play_game
from spite_malice.arena.games import bot_seed
from spite_malice.arena.sprt import PAIR_SCORES, Sprt, elo_estimate, game_points, parse_sprt
from spite_malice.bots import PlanningBot
from spite_malice.bots.baselines import HARD_1_WEIGHTS, Hard1Bot
from spite_malice.bots.evaluation import Weights

SPACE: dict[str, tuple[float, float]] = {
    "refill": (5.0, 90.0),
    "hand_card": (0.0, 12.0),
    "side_card": (0.0, 14.0),
    "king_used": (0.0, 50.0),
    "king_used_for_payoff": (0.0, 25.0),
    "king_discarded": (5.0, 90.0),
    "danger": (20.0, 220.0),
    "own_chance": (0.0, 90.0),
    "empty_side_kept": (0.0, 12.0),
    "danger_per_card": (-12.0, 20.0),
    "danger_near_win": (-12.0, 30.0),
    "danger_low_stock": (-30.0, 120.0),
    "side_order": (0.2, 2.5),
    "discard_rank": (0.0, 1.5),
    "refused_cards": (0.0, 5.0),
}
"""The weights the study searches and their ranges (``payoff`` stays 100: the unit)."""


def play_deal(weights: Weights, seed: int) -> tuple[float, tuple[str | None, str | None]]:
    """Hard with ``weights`` against ``hard-1`` on deal ``seed``, both seatings: its points
    (0 to 2) and the two winners (``"A"``: the candidate, ``"B"``, None: a draw)."""
    results = []
    for a_seat in (0, 1):
        candidate = PlanningBot(bot_seed(seed, "A"), weights=weights)
        results.append(play_game(candidate, Hard1Bot(bot_seed(seed, "B")), seed, a_seat))
    points = sum(game_points(r) for r in results)
    return points, (results[0].winner, results[1].winner)


PairCounts = list[int]


def score_deals(
    weights: Weights, seeds: Sequence[int], pool: Any
) -> tuple[PairCounts, int, int, int]:
    """Pair counts (pairs scoring 0, 1/4, ..., 1) and wins, losses, draws over ``seeds``."""
    counts = [0, 0, 0, 0, 0]
    wins = losses = draws = 0
    for points, winners in pool.imap_unordered(partial(play_deal, weights), seeds, chunksize=8):
        counts[round(2 * points)] += 1
        wins += winners.count("A")
        losses += winners.count("B")
        draws += winners.count(None)
    return counts, wins, losses, draws


def confirm(
    weights: Weights,
    test: Sprt,
    seed: int,
    max_pairs: int,
    pool: Any,
    say: Callable[[str], None],
) -> dict[str, Any]:
    """A sequential test of ``weights`` against ``hard-1`` on deals from ``seed`` on, pairs
    counted in deal order (as ``spite-malice arena --sprt``)."""
    counts = [0, 0, 0, 0, 0]
    wins = losses = draws = 0
    decision = None
    llr = 0.0
    for points, winners in pool.imap(
        partial(play_deal, weights), range(seed, seed + max_pairs), chunksize=4
    ):
        counts[round(2 * points)] += 1
        wins += winners.count("A")
        losses += winners.count("B")
        draws += winners.count(None)
        llr = test.llr(counts)
        decision = test.decision(counts)
        if sum(counts) % 100 == 0:
            say(f"    {2 * sum(counts)} games: LLR {llr:+.2f}")
        if decision is not None:
            break
    estimate = elo_estimate(counts, PAIR_SCORES, paired=True)
    return {
        "games": 2 * sum(counts),
        "pairs": counts,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "llr": llr,
        "decision": decision,
        "elo": estimate.elo,
        "elo_low": estimate.low,
        "elo_high": estimate.high,
    }


def parse_fixed(text: str) -> tuple[str, float]:
    name, equals, value = text.partition("=")
    if not equals or name not in {f.name for f in fields(Weights)}:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE, NAME a weight")
    return name, float(value)


def main(argv: list[str] | None = None) -> int:
    import optuna

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--trials", type=int, default=80)
    parser.add_argument(
        "--timeout", type=float, default=None, help="stop the study after this many seconds"
    )
    parser.add_argument("--deals", type=int, default=200, help="training deals a trial")
    parser.add_argument("--train-seed", type=int, default=100_000)
    parser.add_argument("--holdout-seed", type=int, default=500_000)
    parser.add_argument("--study-seed", type=int, default=18)
    parser.add_argument("--sampler", choices=("cmaes", "tpe"), default="cmaes")
    parser.add_argument("--sigma", type=float, default=0.12, help="CMA-ES's first step (0.12)")
    parser.add_argument("--sprt", default="0,60", help="ELO0,ELO1 of the confirmation")
    parser.add_argument("--confirm", type=int, default=3, help="best trials to confirm")
    parser.add_argument("--max-confirm-games", type=int, default=6000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--from", dest="start", type=Path, help="JSON weights to start from")
    parser.add_argument("--fix", type=parse_fixed, action="append", default=[])
    parser.add_argument("--out", type=Path, help="write the study and confirmations as JSON")
    args = parser.parse_args(argv)
    elo0, elo1 = parse_sprt(args.sprt)
    start = HARD_1_WEIGHTS
    if args.start is not None:
        start = replace(HARD_1_WEIGHTS, **json.loads(args.start.read_text(encoding="utf-8")))
    fixed = dict(args.fix)
    space = {name: span for name, span in SPACE.items() if name not in fixed}
    start = replace(start, **fixed)

    def say(text: str) -> None:
        print(text, flush=True)

    def scaled(name: str, value: float) -> float:
        low, high = space[name]
        return min(0.99, max(0.01, (value - low) / (high - low)))

    def unscaled(params: dict[str, float]) -> dict[str, float]:
        return {n: space[n][0] + x * (space[n][1] - space[n][0]) for n, x in params.items()}

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    x0 = {name: scaled(name, getattr(start, name)) for name in space}
    sampler: optuna.samplers.BaseSampler
    if args.sampler == "cmaes":
        warnings.filterwarnings("ignore", category=FutureWarning)  # x0, sigma0: deprecated
        sampler = optuna.samplers.CmaEsSampler(x0=x0, sigma0=args.sigma, seed=args.study_seed)
    else:
        sampler = optuna.samplers.TPESampler(seed=args.study_seed)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial(x0)
    seeds = range(args.train_seed, args.train_seed + args.deals)
    began = time.perf_counter()
    record: dict[str, Any] = {"args": {k: str(v) for k, v in vars(args).items()}, "trials": []}
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:

        def objective(trial: optuna.Trial) -> float:
            chosen = unscaled({name: trial.suggest_float(name, 0.0, 1.0) for name in space})
            weights = replace(start, **chosen)
            counts, wins, losses, draws = score_deals(weights, seeds, pool)
            score = sum(c * v for c, v in zip(counts, PAIR_SCORES, strict=True)) / sum(counts)
            trial.set_user_attr("record", [wins, losses, draws])
            record["trials"].append(
                {"number": trial.number, "score": score, "wlD": [wins, losses, draws], **chosen}
            )
            best = max(score, study.best_value if trial.number else score)
            say(
                f"trial {trial.number:3d}: score {score:.3f} ({wins}-{losses}, {draws} drawn), "
                f"best {best:.3f}, {time.perf_counter() - began:.0f} s"
            )
            if score >= best:
                say("  " + ", ".join(f"{name}={value:.3g}" for name, value in chosen.items()))
            if args.out is not None:
                args.out.write_text(json.dumps(record, indent=1), encoding="utf-8")
            return score

        study.optimize(objective, n_trials=args.trials, timeout=args.timeout)
        ranked = sorted(
            (t for t in study.trials if t.value is not None),
            key=lambda t: -(t.value or 0.0),
        )
        test = Sprt(elo0, elo1)
        record["confirmations"] = []
        for trial in ranked[: args.confirm]:
            weights = replace(start, **unscaled(trial.params))
            say(f"trial {trial.number} (training score {trial.value:.3f}) on held-out deals:")
            found = confirm(
                weights, test, args.holdout_seed, args.max_confirm_games // 2, pool, say
            )
            say(
                f"  {found['games']} games, {found['wins']}-{found['losses']}, "
                f"{found['draws']} drawn: Elo {found['elo']:+.0f} "
                f"({found['elo_low']:+.0f} to {found['elo_high']:+.0f}), "
                f"LLR {found['llr']:+.2f}: {found['decision'] or 'no decision'}"
            )
            record["confirmations"].append(
                {"trial": trial.number, "weights": asdict(weights), **found}
            )
    if args.out is not None:
        args.out.write_text(json.dumps(record, indent=1), encoding="utf-8")
        say(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
