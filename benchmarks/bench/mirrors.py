"""The cost of each rule mirror kept for speed (``tests/test_rule_mirrors.py``) beside the
engine path it mirrors, per call, on positions of first-fit self-play.

    .venv/bin/python benchmarks/mirrors.py --games 20 --rounds 5

Prints microseconds a call (median of the rounds) for: the reference policy on the engine's
position (``reference_move``) and from an action mask (``first_fit_action``, and through
``mask.nonzero()`` as an agent holding a NumPy mask would call it), ``first_fit_from_mask``,
the observation tensor made through an Observation (``encode_observation``) or straight
from the game (``encode_game``), and, over whole games replayed move by move, the tensor
after each move kept up to date by ``ObservationEncoder`` against ``encode_game`` written
afresh (the replay's own cost taken out). Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from spite_malice.bots.reference import reference_move
from spite_malice.engine import Game
from spite_malice.engine.moves import Move
from spite_malice.research.actions import actions_to_mask, first_fit_action, legal_actions
from spite_malice.research.encoding import (
    ObservationEncoder,
    encode_game,
    encode_observation,
    first_fit_from_mask,
)


def positions(games: int, every: int = 7, most: int = 400) -> list[Game]:
    """Every ``every``-th position of first-fit self-play from seeds 1..``games``."""
    found: list[Game] = []
    for seed in range(1, games + 1):
        game = Game.new(seed, recording=False)
        while game.outcome is None:
            found.append(game.copy())
            game.apply(reference_move(game))
    return found[::every][:most]


def self_play(games: int) -> list[tuple[int, list[Move]]]:
    """The seeds 1..``games`` and the moves of their first-fit self-play."""
    played = []
    for seed in range(1, games + 1):
        game = Game.new(seed, recording=False)
        moves = []
        while game.outcome is None:
            move = reference_move(game)
            moves.append(move)
            game.apply(move)
        played.append((seed, moves))
    return played


def replay(played: list[tuple[int, list[Move]]], tensor: str) -> None:
    """Replay the games, with the mover's next tensor after each move: ``"encoder"`` from
    an :class:`ObservationEncoder`, ``"afresh"`` from ``encode_game``, ``"none"``: no tensor."""
    for seed, moves in played:
        game = Game.new(seed, recording=False)
        encoder = ObservationEncoder(game) if tensor == "encoder" else None
        for move in moves:
            player = game.to_move
            game.apply(move)
            if encoder is not None:
                encoder.moved(player, move)
                encoder.encode(game.to_move)
            elif tensor == "afresh":
                encode_game(game, game.to_move)


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
    played = self_play(args.games)
    moves = sum(len(m) for _, m in played)
    alone = per_call(partial(replay, played, "none"), moves, rounds)
    print(f"{moves} moves of {len(played)} games replayed, the replay alone {alone:.2f} us a move")
    for name, tensor in (
        ("ObservationEncoder.moved + encode", "encoder"),
        ("encode_game after each move", "afresh"),
    ):
        cost = per_call(partial(replay, played, tensor), moves, rounds) - alone
        print(f"{name:>44}: {cost:6.2f} us a move")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
