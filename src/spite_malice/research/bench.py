"""Speed of the adapters: first-fit self-play through each one, beside the engine's fast path.

Every adapter plays the reference first-fit policy the way a user of that library would: from
the action mask (the legal actions) and the seat's own side stacks
(:func:`.actions.first_fit_action`). The engine row is :func:`spite_malice.bench.bench_fast`.
PettingZoo and Gymnasium play exactly the engine's games (``options={"game_seed": n}``);
OpenSpiel samples its chance nodes, so its games are different deals of the same length on
average: compare moves per second there. Times are CPU seconds of this process.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import replace

from ..bench import BenchResult, bench_fast
from ..engine.rules import Rules
from .actions import first_fit_action

Runner = Callable[[int, int, Rules], BenchResult]

_clock = time.process_time
"""Every row is timed in CPU seconds of this process, so that other work on the machine
does not skew the comparison (on an idle machine this is the wall-clock time)."""


def bench_engine(games: int, seed: int, rules: Rules = Rules.STANDARD) -> BenchResult:
    """The engine's own fast path, as ``spite-malice bench`` runs it, in CPU seconds."""
    return replace(bench_fast(games, seed, rules, clock=_clock), path="engine")


def _pettingzoo(games: int, seed: int, rules: Rules, wrapped: bool) -> BenchResult:
    from .encoding import first_fit_from_mask
    from .pettingzoo_env import env, raw_env

    environment = env(rules=rules) if wrapped else raw_env(rules=rules)
    moves = wins = 0
    start = _clock()
    for i in range(games):
        environment.reset(options={"game_seed": seed + i})
        for _agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            environment.step(
                first_fit_from_mask(observation["action_mask"], observation["observation"])
            )
            moves += 1
        wins += environment.unwrapped.game.outcome.winner is not None
    seconds = _clock() - start
    name = "pettingzoo" if wrapped else "pettingzoo raw"
    return BenchResult(name, games, moves, seconds, wins, games - wins)


def bench_pettingzoo(games: int, seed: int, rules: Rules = Rules.STANDARD) -> BenchResult:
    """``pettingzoo_env.env()``, the wrapped environment, both seats first-fit."""
    return _pettingzoo(games, seed, rules, True)


def bench_pettingzoo_raw(games: int, seed: int, rules: Rules = Rules.STANDARD) -> BenchResult:
    """``pettingzoo_env.raw_env()``, without PettingZoo's wrappers."""
    return _pettingzoo(games, seed, rules, False)


def bench_gym(games: int, seed: int, rules: Rules = Rules.STANDARD) -> BenchResult:
    """The Gymnasium environment: the agent first-fit against the ``reference`` bot."""
    from .encoding import first_fit_from_mask
    from .gym_env import SpiteMaliceEnv

    environment = SpiteMaliceEnv("reference", rules=rules)
    step = environment.step
    moves = wins = 0
    start = _clock()
    for i in range(games):
        observation, info = environment.reset(
            seed=seed + i if i == 0 else None, options={"game_seed": seed + i, "seat": i % 2}
        )
        terminated = environment.game.outcome is not None
        while not terminated:
            observation, _, terminated, _, info = step(
                first_fit_from_mask(info["action_mask"], observation)
            )
        game = environment.game
        moves += len(game.moves)
        wins += game.outcome is not None and game.outcome.winner is not None
    seconds = _clock() - start
    return BenchResult("gymnasium", games, moves, seconds, wins, games - wins)


def bench_openspiel(games: int, seed: int, rules: Rules = Rules.STANDARD) -> BenchResult:
    """The OpenSpiel game through ``pyspiel``: chance outcomes sampled from
    ``chance_outcomes()``, player actions from ``legal_actions()``."""
    import pyspiel

    from . import openspiel  # importing it registers the game

    game = pyspiel.load_game(
        openspiel.GAME_NAME,
        {
            "decks": rules.decks,
            "payoff_size": rules.payoff_size,
            "center_stacks": rules.center_stacks,
            "king_can_start_stack": rules.king_can_start_stack,
        },
    )
    rng = random.Random(seed)
    choices = rng.choices
    moves = wins = 0
    start = _clock()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                faces = [face for face, _ in outcomes]
                weights = [p for _, p in outcomes]
                state.apply_action(choices(faces, weights)[0])
                continue
            side = state.table.players[state.current_player()].side
            legal = state.legal_actions()
            state.apply_action(
                first_fit_action(legal, (not side[0], not side[1], not side[2], not side[3]))
            )
            moves += 1
        wins += state.returns()[0] != 0.0
    seconds = _clock() - start
    return BenchResult("openspiel", games, moves, seconds, wins, games - wins)


RUNNERS: dict[str, Runner] = {
    "engine": bench_engine,
    "pettingzoo": bench_pettingzoo,
    "pettingzoo-raw": bench_pettingzoo_raw,
    "gymnasium": bench_gym,
    "openspiel": bench_openspiel,
}
"""Every benchmark by name; ``engine`` is the yardstick."""

__all__ = [
    "RUNNERS",
    "bench_engine",
    "bench_gym",
    "bench_openspiel",
    "bench_pettingzoo",
    "bench_pettingzoo_raw",
]
