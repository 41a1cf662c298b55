"""The cost of each rule mirror kept for speed (``tests/test_rule_mirrors.py``) beside the
engine path it mirrors, per call, on positions of first-fit self-play.

    .venv/bin/python benchmarks/mirrors.py --games 20 --rounds 5

Prints microseconds a call (median of the rounds) for: the reference policy on the engine's
position (``reference_move``) and from an action mask (``first_fit_action``, and through
``mask.nonzero()`` as an agent holding a NumPy mask would call it), ``first_fit_from_mask``,
and the observation tensor made through an Observation (``encode_observation``) or straight
from the game (``encode_game``). Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable, Sequence

import numpy as np

from spite_malice.bots.reference import reference_move
from spite_malice.engine import Game
from spite_malice.research.actions import actions_to_mask, first_fit_action, legal_actions
from spite_malice.research.encoding import encode_game, encode_observation, first_fit_from_mask


def positions(games: int, every: int = 7, most: int = 400) -> list[Game]:
    """Every ``every``-th position of first-fit self-play from seeds 1..``games``."""
    found: list[Game] = []
    for seed in range(1, games + 1):
        game = Game.new(seed, recording=False)
        while game.outcome is None:
            found.append(game.copy())
            game.apply(reference_move(game))
    return found[::every][:most]


def per_call(calls: Callable[[], object], count: int, rounds: int) -> float:
    """Microseconds a call: the median of ``rounds`` timings of ``calls`` (``count`` calls)."""
    return statistics.median(timeit.timeit(calls, number=1) for _ in range(rounds)) / count * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="self-play games (20)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds; the median is shown (5)")
    args = parser.parse_args(argv)
    games = positions(args.games)
    views = []
    for game in games:
        legal = legal_actions(game)
        side = tuple(not pile for pile in game.players[game.to_move].side)
        mask = np.array(actions_to_mask(legal), dtype=np.int8)
        views.append((legal, side, mask, encode_game(game, game.to_move)))
    count, rounds = len(games), args.rounds
    rows = {
        "reference_move(game)": lambda: [reference_move(g) for g in games],
        "first_fit_action(legal, side_empty)": lambda: [
            first_fit_action(v[0], v[1]) for v in views
        ],
        "first_fit_action(mask.nonzero(), ...)": lambda: [
            first_fit_action(v[2].nonzero()[0].tolist(), v[1]) for v in views
        ],
        "first_fit_from_mask(mask, tensor)": lambda: [
            first_fit_from_mask(v[2], v[3]) for v in views
        ],
        "encode_observation(game.observation(seat))": lambda: [
            encode_observation(g.observation(g.to_move)) for g in games
        ],
        "encode_game(game, seat)": lambda: [encode_game(g, g.to_move) for g in games],
    }
    print(f"{count} positions of first-fit self-play, median of {rounds} rounds")
    for name, calls in rows.items():
        print(f"{name:>44}: {per_call(calls, count, rounds):6.2f} us a call")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
