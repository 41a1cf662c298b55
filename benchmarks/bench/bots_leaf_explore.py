"""Fit Expert's leaf model to self-play that tries Expert's candidate plans (issue 18, fifth round).

The shipped leaf (``bots/leaf_weights.json``) was fitted to Hard's own self-play, where every
turn is Hard's best plan, so its weights say what goes with winning when Hard plays, not
what a choice is worth: cards kept on the side stacks go with winning there
(docs/measurements/2026-12-05-expert-rounds.md).
Expert's search asks the model to rank the positions its candidate plans lead to. Here, at
the start of a turn, with probability ``--explore`` the player to move plays a candidate
of Expert's instead of Hard's best plan: one of the plans Expert would search (the best
``CANDIDATES`` within ``MARGIN``, and the other discards of the best plan), chosen
uniformly; the rest of the turn and every other turn are Hard's (the rollouts' policy,
:func:`~spite_malice.bots.rollout.finish_turn`). Every turn's starting position is recorded
with the game's result for the player to move, as in ``bots_leaf.py``, and a logistic
regression is fitted (scikit-learn, the ``learn`` extra), reported on held-out deals of the
same self-play beside the shipped model, and written as JSON for ``bots_expert.py --leaf``
(or an Expert named ``expert:SECONDS:SAMPLES:leaf=FILE`` in the arena). ``--hidden N`` fits a
perceptron of one hidden layer of ``N`` units instead (``--features all``: the 28 features),
as ``bots_leaf.py`` does.

    nice -n 19 .venv/bin/python benchmarks/bots_leaf_explore.py --deals 3000 \\
        --seed 3000000 --holdout 1000 --holdout-seed 4000000 --explore 0.3 --jobs 1 \\
        --out explore.json
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from spite_malice.bots.expert import ExpertBot
from spite_malice.bots.leaf import FEATURES, LeafFeatures, LeafModel, shipped_model
from spite_malice.bots.planning import plan_turn
from spite_malice.bots.rollout import finish_turn
from spite_malice.bots.view import view_from_game
from spite_malice.engine import Game

from .bots_leaf import (
    FIRST_FEATURES,
    _calibration,
    fit,
    fit_mlp,
    kept_positions,
    log_loss,
    logistic_leaf,
    perceptron_leaf,
    print_python_gap,
)

MAX_TURNS = 2000
"""A safety net: a self-play game longer than this is dropped."""


def explore_turn(game: Game, bot: ExpertBot, rng: random.Random) -> None:
    """Play the current turn of ``game`` starting with one of the plans Expert would search
    (chosen uniformly), then Hard's policy for the rest of the turn."""
    view = view_from_game(game)
    plans = plan_turn(view, bot.evaluator)
    best = plans[0]
    candidates = [p for p in plans[: bot.candidates] if p.value >= best.value - bot.margin]
    candidates += bot._other_discards(view, best, candidates, best.value - bot.margin)
    plan = rng.choice(candidates)
    player, turn = game.to_move, game.turn
    for move in plan.committed:
        game.apply(move)
        if game.outcome is not None:
            return
    if game.to_move == player and game.turn == turn:
        finish_turn(game, bot.evaluator)


def play_deal(explore: float, seed: int) -> list[tuple[list[float], float]]:
    """Self-play of deal ``seed``: every turn's starting features and the result for the
    player to move then; each turn starts with a candidate of Expert's with probability
    ``explore``."""
    game = Game.new(seed, recording=False)
    bot = ExpertBot(seed)
    rng = random.Random(f"explore/{seed}")
    features = LeafFeatures()
    rows: list[tuple[list[float], int]] = []
    while game.outcome is None and game.turn < MAX_TURNS:
        rows.append((features(game), game.to_move))
        if rng.random() < explore:
            explore_turn(game, bot, rng)
        else:
            finish_turn(game, bot.evaluator)
    if game.outcome is None:
        return []
    winner = game.outcome.winner
    return [(x, 0.5 if winner is None else float(winner == mover)) for x, mover in rows]


def positions(seed: int, deals: int, explore: float, jobs: int) -> tuple[list[Any], list[float]]:
    """The positions of deals ``seed`` to ``seed + deals - 1`` and their results."""
    xs: list[Any] = []
    ys: list[float] = []
    work = partial(play_deal, explore)
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for rows in pool.imap(work, range(seed, seed + deals), chunksize=8):
            for x, y in rows:
                xs.append(x)
                ys.append(y)
    return xs, ys


def _print_weights(leaf: LeafModel, shipped: LeafModel) -> None:
    """A logistic model's weights beside the shipped model's, feature by feature."""
    old = dict(zip(shipped.features, shipped.coef, strict=True))
    old_scale = dict(zip(shipped.features, shipped.scale, strict=True))
    print("  feature: weight a unit (new / shipped), standardized weight (new / shipped)")
    for name, coef, s in zip(leaf.features, leaf.coef, leaf.scale, strict=True):
        if name in old:
            print(
                f"  {name:>16} {coef / s:+8.3f} / {old[name] / old_scale[name]:+8.3f}"
                f"   {coef:+.3f} / {old[name]:+.3f}"
            )
        else:
            print(f"  {name:>16} {coef / s:+8.3f}   {coef:+.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=3_000_000)
    parser.add_argument("--holdout", type=int, default=1000)
    parser.add_argument("--holdout-seed", type=int, default=4_000_000)
    parser.add_argument("--explore", type=float, default=0.3, help="share of exploring turns")
    parser.add_argument("--features", choices=("first", "all"), default="first")
    parser.add_argument("--c", type=float, default=1.0)
    parser.add_argument(
        "--hidden",
        type=int,
        default=0,
        help="hidden units of a one-layer perceptron (0, the default: a logistic regression)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--data", type=Path, help="keep the positions here (read if it exists)")
    parser.add_argument("--out", type=Path, help="write the fitted model (JSON) here")
    args = parser.parse_args(argv)
    import numpy as np

    start = time.perf_counter()
    train_x, train_y, test_x, test_y = kept_positions(
        args.data,
        lambda: (
            *positions(args.seed, args.deals, args.explore, args.jobs),
            *positions(args.holdout_seed, args.holdout, args.explore, args.jobs),
        ),
    )
    print(
        f"{len(train_y)} training positions ({args.deals} deals from {args.seed}, explore "
        f"{args.explore}), {len(test_y)} held out ({args.holdout} deals from "
        f"{args.holdout_seed}); draws {np.mean(train_y == 0.5):.1%}; "
        f"{time.perf_counter() - start:.0f} s"
    )
    constant = float(np.mean(train_y))
    print(f"held-out log loss, constant: {log_loss(np.full(len(test_y), constant), test_y):.4f}")
    shipped = shipped_model()
    p_shipped = np.array([shipped.probability(list(row)) for row in test_x[:, shipped.columns]])
    print(f"held-out log loss, the shipped model: {log_loss(p_shipped, test_y):.4f}")
    names = FIRST_FEATURES if args.features == "first" else FEATURES
    columns = [FEATURES.index(name) for name in names]

    def report(fitted: tuple[Any, Any, Any], what: str) -> Any:
        """Print the fitted model's held-out and training log loss; its held-out
        probabilities."""
        model, mean, scale = fitted
        p = model.predict_proba((test_x[:, columns] - mean) / scale)[:, 1]
        p_train = model.predict_proba((train_x[:, columns] - mean) / scale)[:, 1]
        print(
            f"held-out log loss, {what} on {len(columns)} features: {log_loss(p, test_y):.4f} "
            f"(training {log_loss(p_train, train_y):.4f})"
        )
        return p

    model, mean, scale = fitted = fit(train_x, train_y, columns, args.c)
    p = report(fitted, "logistic")
    if args.hidden:
        model, mean, scale = fitted = fit_mlp(train_x, train_y, columns, args.hidden, args.seed)
        p = report(fitted, f"a perceptron of {args.hidden} hidden units")
    _calibration(p, test_y)

    if args.hidden:
        leaf = perceptron_leaf(names, mean, scale, model)
    else:
        leaf = logistic_leaf(names, mean, scale, model)
        _print_weights(leaf, shipped)
    print_python_gap(leaf, test_x[:, columns], p)
    if args.out:
        args.out.write_text(leaf.to_json() + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
