"""Fit Expert's leaf evaluation (:mod:`spite_malice.bots.leaf`) from Hard's self-play.

Plays ``--deals`` training games and ``--holdout`` held-out games (other deals) of today's
Hard against itself, with the planning policy of Expert's rollouts
(:func:`~spite_malice.bots.rollout.finish_turn`), records the features of every position at
the start of a turn with the final result for the player to move (a win 1, a draw a half, a
loss 0), fits a logistic regression (scikit-learn, the ``learn`` extra) on the training
positions and reports the log loss and the calibration on the held-out ones, beside a
constant model and one that knows only the pay-off cards left. ``--out FILE`` writes the
weights as JSON (the package's copy is ``src/spite_malice/bots/leaf_weights.json``);
``--draws-out FILE`` also fits the chance that a position's game ends in a draw (Expert's
contempt for draws, :func:`~spite_malice.bots.leaf.draw_model`; the package's copy is
``src/spite_malice/bots/draw_weights.json``).

    nice -n 19 .venv/bin/python benchmarks/bots_leaf.py --deals 3000 --seed 1000000 \\
        --holdout 1000 --holdout-seed 2000000 --jobs 1 \\
        --out src/spite_malice/bots/leaf_weights.json
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spite_malice.bots.evaluation import HARD_WEIGHTS, AwareEvaluator
from spite_malice.bots.leaf import FEATURES, LeafFeatures, LeafModel
from spite_malice.bots.rollout import finish_turn
from spite_malice.engine import Game

MAX_TURNS = 2000
"""A safety net: a self-play game longer than this is dropped (none has come close)."""


def play_deal(seed: int) -> list[tuple[list[float], float]]:
    """Hard against itself on deal ``seed``: every turn's starting features and the result
    for the player to move then."""
    game = Game.new(seed, recording=False)
    policy = AwareEvaluator(HARD_WEIGHTS)
    features = LeafFeatures()
    rows: list[tuple[list[float], int]] = []
    while game.outcome is None and game.turn < MAX_TURNS:
        rows.append((features(game), game.to_move))
        finish_turn(game, policy)
    if game.outcome is None:
        return []
    winner = game.outcome.winner
    return [(x, 0.5 if winner is None else float(winner == mover)) for x, mover in rows]


def positions(seed: int, deals: int, jobs: int) -> tuple[list[list[float]], list[float]]:
    """The positions of deals ``seed`` to ``seed + deals - 1`` and their results."""
    xs: list[list[float]] = []
    ys: list[float] = []
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        for rows in pool.imap(play_deal, range(seed, seed + deals), chunksize=8):
            for x, y in rows:
                xs.append(x)
                ys.append(y)
    return xs, ys


def _as_labels(xs: Any, ys: Any) -> tuple[Any, Any, Any]:
    """Rows and 0/1 labels with weights: a draw is a half-weighted win and a half loss."""
    import numpy as np

    draws = ys == 0.5
    x = np.concatenate([xs, xs[draws]])
    y = np.concatenate([np.where(draws, 1.0, ys), np.zeros(int(draws.sum()))])
    w = np.concatenate([np.where(draws, 0.5, 1.0), np.full(int(draws.sum()), 0.5)])
    return x, y, w


def log_loss(p: Any, ys: Any) -> float:
    """Mean log loss of probabilities ``p`` for results ``ys`` (0, a half or 1)."""
    import numpy as np

    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(ys * np.log(p) + (1 - ys) * np.log(1 - p)))


def fit(xs: Any, ys: Any, columns: list[int], c: float) -> tuple[Any, Any, Any]:
    """A logistic regression on the standardized ``columns``: (model, mean, scale)."""
    from sklearn.linear_model import LogisticRegression

    sub = xs[:, columns]
    mean = sub.mean(axis=0)
    scale = sub.std(axis=0)
    scale[scale == 0] = 1.0
    x, y, w = _as_labels((sub - mean) / scale, ys)
    model = LogisticRegression(C=c, max_iter=2000)
    model.fit(x, y, sample_weight=w)
    return model, mean, scale


FIRST_FEATURES = FEATURES[:20]
"""The features of the first leaf model (logistic, issue 18's first round)."""


def fit_mlp(xs: Any, ys: Any, columns: list[int], hidden: int, seed: int) -> tuple[Any, Any, Any]:
    """A small multi-layer perceptron (one hidden layer of ``hidden`` rectified linear
    units) on the standardized ``columns``: (model, mean, scale). A tenth of the training
    positions is kept aside to stop the fit when it no longer improves."""
    from sklearn.neural_network import MLPClassifier

    sub = xs[:, columns]
    mean = sub.mean(axis=0)
    scale = sub.std(axis=0)
    scale[scale == 0] = 1.0
    x, y, w = _as_labels((sub - mean) / scale, ys)
    model = MLPClassifier(
        hidden_layer_sizes=(hidden,),
        alpha=1e-3,
        batch_size=512 if len(y) > 5000 else "auto",
        learning_rate_init=1e-3,
        max_iter=60,
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=4,
        random_state=seed,
    )
    model.fit(x, y, sample_weight=w)
    return model, mean, scale


def _calibration(p: Any, ys: Any) -> None:
    import numpy as np

    print("calibration on the held-out positions (predicted: mean result, positions):")
    edges = np.linspace(0, 1, 11)
    for low, high in itertools.pairwise(edges):
        inside = (p >= low) & (p < high) if high < 1 else (p >= low)
        if inside.any():
            print(
                f"  {low:.1f}-{high:.1f}: predicted {p[inside].mean():.3f}, "
                f"result {ys[inside].mean():.3f}, {int(inside.sum())}"
            )


POSITION_ARRAYS = ("train_x", "train_y", "test_x", "test_y")
"""The arrays a ``--data`` file keeps: training features and results, then held-out ones."""


def kept_positions(data: Path | None, make: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
    """The :data:`POSITION_ARRAYS`: read from the ``.npz`` file ``data`` when it exists,
    else made by ``make()`` (four sequences, in that order) and kept in ``data`` if given."""
    import numpy as np

    if data and data.exists():
        saved = np.load(data)
        return tuple(saved[name] for name in POSITION_ARRAYS)
    arrays = tuple(np.array(made) for made in make())
    if data:
        train_x, train_y, test_x, test_y = arrays
        np.savez_compressed(data, train_x=train_x, train_y=train_y, test_x=test_x, test_y=test_y)
    return arrays


def _rounded(values: Any) -> tuple[float, ...]:
    return tuple(round(float(v), 6) for v in values)


def logistic_leaf(names: tuple[str, ...], mean: Any, scale: Any, model: Any) -> LeafModel:
    """The pure-Python :class:`LeafModel` of a fitted scikit-learn logistic regression on the
    features ``names`` standardized by ``mean`` and ``scale``, rounded to six places."""
    return LeafModel(
        names,
        _rounded(mean),
        _rounded(scale),
        _rounded(model.coef_[0]),
        round(float(model.intercept_[0]), 6),
    )


def perceptron_leaf(names: tuple[str, ...], mean: Any, scale: Any, model: Any) -> LeafModel:
    """The pure-Python :class:`LeafModel` of a fitted scikit-learn perceptron of one hidden
    layer (:func:`fit_mlp`) on the features ``names`` standardized by ``mean`` and
    ``scale``, rounded to six places."""
    return LeafModel(
        names,
        _rounded(mean),
        _rounded(scale),
        _rounded(model.coefs_[1][:, 0]),
        round(float(model.intercepts_[1][0]), 6),
        ((tuple(_rounded(row) for row in model.coefs_[0].T), _rounded(model.intercepts_[0])),),
    )


def print_python_gap(leaf: LeafModel, xs: Any, p: Any) -> None:
    """Print how far the pure-Python ``leaf`` strays from scikit-learn's probabilities ``p``
    on the first 1,000 rows of ``xs`` (the model's own columns)."""
    import numpy as np

    check = [leaf.probability(list(row)) for row in xs[:1000]]
    worst = float(np.max(np.abs(np.array(check) - p[: len(check)])))
    print(f"pure-Python model against scikit-learn on 1,000 positions: largest gap {worst:.2e}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000, help="training deals")
    parser.add_argument("--seed", type=int, default=1_000_000, help="the first training deal")
    parser.add_argument("--holdout", type=int, default=1000, help="held-out deals")
    parser.add_argument("--holdout-seed", type=int, default=2_000_000)
    parser.add_argument("--c", type=float, default=1.0, help="inverse regularization")
    parser.add_argument(
        "--hidden",
        type=int,
        default=0,
        help="hidden units of a one-layer perceptron (0, the default: a logistic regression)",
    )
    parser.add_argument(
        "--features",
        choices=("first", "all"),
        default="all",
        help=f"the first model's {len(FIRST_FEATURES)} features or all {len(FEATURES)}",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the fitted weights (JSON) here")
    parser.add_argument(
        "--data", type=Path, help="keep the positions in this .npz file (read it if it exists)"
    )
    parser.add_argument(
        "--draws-out",
        type=Path,
        help="also fit the chance of a draw (logistic on every feature) and write it here "
        "(the package's copy is src/spite_malice/bots/draw_weights.json)",
    )
    args = parser.parse_args(argv)
    import numpy as np

    start = time.perf_counter()
    train_x, train_y, test_x, test_y = kept_positions(
        args.data,
        lambda: (
            *positions(args.seed, args.deals, args.jobs),
            *positions(args.holdout_seed, args.holdout, args.jobs),
        ),
    )
    print(
        f"{len(train_y)} training positions ({args.deals} deals from {args.seed}), "
        f"{len(test_y)} held out ({args.holdout} deals from {args.holdout_seed}); "
        f"draws {np.mean(train_y == 0.5):.1%}; {time.perf_counter() - start:.0f} s"
    )
    constant = float(np.mean(train_y))
    flat = log_loss(np.full(len(test_y), constant), test_y)
    print(f"held-out log loss, constant {constant:.3f}: {flat:.4f}")
    counts = [FEATURES.index(name) for name in ("left", "opp_left", "lead")]
    small, m0, s0 = fit(train_x, train_y, counts, args.c)
    p_small = small.predict_proba((test_x[:, counts] - m0) / s0)[:, 1]
    print(f"held-out log loss, pay-off cards left only: {log_loss(p_small, test_y):.4f}")
    names = FIRST_FEATURES if args.features == "first" else FEATURES
    columns = [FEATURES.index(name) for name in names]
    others = (
        ("the first model's features", list(range(len(FIRST_FEATURES)))),
        ("every feature", list(range(len(FEATURES)))),
    )
    for label, cols in others:
        if cols != columns or args.hidden:
            first, m1, s1 = fit(train_x, train_y, cols, args.c)
            p1 = first.predict_proba((test_x[:, cols] - m1) / s1)[:, 1]
            print(f"held-out log loss, logistic on {label}: {log_loss(p1, test_y):.4f}")
    if args.hidden:
        model, mean, scale = fit_mlp(train_x, train_y, columns, args.hidden, args.seed)
        kind = f"a perceptron of {args.hidden} hidden units"
    else:
        model, mean, scale = fit(train_x, train_y, columns, args.c)
        kind = "logistic"
    p = model.predict_proba((test_x[:, columns] - mean) / scale)[:, 1]
    p_train = model.predict_proba((train_x[:, columns] - mean) / scale)[:, 1]
    print(
        f"held-out log loss, {kind} on {len(columns)} features: {log_loss(p, test_y):.4f} "
        f"(training {log_loss(p_train, train_y):.4f})"
    )
    _calibration(p, test_y)

    if args.hidden:
        leaf = perceptron_leaf(names, mean, scale, model)
    else:
        leaf = logistic_leaf(names, mean, scale, model)
        for name, coef in zip(names, leaf.coef, strict=True):
            print(f"  {name:>16} {coef:+.3f}")
    print_python_gap(leaf, test_x[:, columns], p)
    if args.out:
        args.out.write_text(leaf.to_json() + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    if args.draws_out:
        fit_draws(train_x, train_y, test_x, test_y, args.c, args.draws_out)
    return 0


def fit_draws(train_x: Any, train_y: Any, test_x: Any, test_y: Any, c: float, out: Path) -> None:
    """Fit the chance that a position's game ends in a draw (R4.2), whoever is to move: a
    logistic regression on every standardized feature (:func:`~spite_malice.bots.leaf.
    draw_model`); print its held-out log loss beside a constant's and its calibration by
    decile, and write it to ``out``."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    mean = train_x.mean(axis=0)
    scale = train_x.std(axis=0)
    scale[scale == 0] = 1.0
    drawn, test_drawn = (train_y == 0.5).astype(float), (test_y == 0.5).astype(float)
    model = LogisticRegression(C=c, max_iter=3000)
    model.fit((train_x - mean) / scale, drawn)
    p = model.predict_proba((test_x - mean) / scale)[:, 1]
    rate = float(np.mean(drawn))
    print(
        f"draws: {rate:.2%} of training positions, {np.mean(test_drawn):.2%} held out; "
        f"held-out log loss, constant {log_loss(np.full(len(p), rate), test_drawn):.4f}, "
        f"logistic {log_loss(p, test_drawn):.4f}"
    )
    order = np.argsort(p)
    print(
        "  by predicted decile (predicted / drawn): "
        + ", ".join(
            f"{p[part].mean():.3f} / {test_drawn[part].mean():.3f}"
            for part in np.array_split(order, 10)
        )
    )

    draws = LeafModel(
        FEATURES,
        _rounded(mean),
        _rounded(scale),
        _rounded(model.coef_[0]),
        round(float(model.intercept_[0]), 6),
    )
    out.write_text(draws.to_json() + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(main())
