"""Speed of the adapters: first-fit self-play through each one, beside the engine's fast path.

Every adapter plays the reference first-fit policy the way a user of that library would, from
what the seat sees: PettingZoo's and Gymnasium's agents from the action mask and the tensor
(:func:`.encoding.first_fit_from_mask`), OpenSpiel's from ``legal_actions()`` and the seat's
side stacks (:func:`.actions.first_fit_action`). The engine row is
:func:`.engine.bench_fast`. PettingZoo and Gymnasium play exactly the engine's games
(``options={"game_seed": n}``); OpenSpiel samples its chance nodes, so its games are different
deals of the same length on average: compare moves per second there. Times are CPU seconds of
this process. :func:`step_costs` splits a move's time into the engine's, the adapter's own and
the agent's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from spite_malice.cli.arguments import positive, seed
from spite_malice.engine.game import Game
from spite_malice.engine.moves import ALL_MOVES
from spite_malice.engine.rules import PRESETS, Rules
from spite_malice.research.actions import first_fit_action

from .engine import BenchResult, bench_fast

Runner = Callable[[int, int, Rules], BenchResult]

_clock = time.process_time
"""Every row is timed in CPU seconds of this process, so that other work on the machine
does not skew the comparison (on an idle machine this is the wall-clock time)."""


def bench_engine(games: int, seed: int, rules: Rules = Rules.STANDARD) -> BenchResult:
    """The engine's own fast path, as ``benchmarks/engine.py`` runs it, in CPU seconds."""
    return replace(bench_fast(games, seed, rules, clock=_clock), path="engine")


def _pettingzoo(games: int, seed: int, rules: Rules, wrapped: bool) -> BenchResult:
    from spite_malice.research.encoding import first_fit_from_mask
    from spite_malice.research.pettingzoo_env import env, raw_env

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
    from spite_malice.research.encoding import first_fit_from_mask
    from spite_malice.research.gym_env import SpiteMaliceEnv

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
    ``chance_outcomes()`` (:func:`.openspiel.sample_outcome`, ``pyspiel.sample_action``'s
    choice), player actions from ``legal_actions()``."""
    import pyspiel

    from spite_malice.research import openspiel  # importing it registers the game
    from spite_malice.research.openspiel import sample_outcome

    game = pyspiel.load_game(
        openspiel.GAME_NAME,
        {
            "decks": rules.decks,
            "payoff_size": rules.payoff_size,
            "center_stacks": rules.center_stacks,
            "king_can_start_stack": rules.king_can_start_stack,
        },
    )
    uniform = random.Random(seed).random
    moves = wins = 0
    start = _clock()
    for _ in range(games):
        state = game.new_initial_state()
        players = state.table.players  # what each seat sees of its own side stacks
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_outcome(state.chance_outcomes(), uniform()))
                continue
            side = players[state.current_player()].side
            legal = state.legal_actions()
            state.apply_action(
                first_fit_action(legal, (not side[0], not side[1], not side[2], not side[3]))
            )
            moves += 1
        wins += state.returns()[0] != 0.0
    seconds = _clock() - start
    return BenchResult("openspiel", games, moves, seconds, wins, games - wins)


def _engine_games(games: int, seed: int, rules: Rules) -> list[tuple[int, list[int], list[int]]]:
    """The engine's first-fit games: each game's seed, actions, and the seat that played each."""
    from spite_malice.bots.reference import reference_move

    out = []
    for i in range(games):
        game = Game.new(seed + i, rules, recording=False)
        actions: list[int] = []
        seats: list[int] = []
        while game.outcome is None:
            seats.append(game.to_move)
            move = reference_move(game)
            actions.append(move.index)
            game.apply(move)
        out.append((seed + i, actions, seats))
    return out


def _replay_engine(played: list[tuple[int, list[int], list[int]]], rules: Rules) -> float:
    start = _clock()
    for game_seed, actions, _ in played:
        game = Game.new(game_seed, rules, recording=False)
        apply = game.apply
        for action in actions:
            apply(ALL_MOVES[action])
    return _clock() - start


def _replay_pettingzoo(
    played: list[tuple[int, list[int], list[int]]],
    rules: Rules,
    wrapped: bool,
    seen: list[tuple[Any, Any]] | None = None,
) -> float:
    """CPU seconds of the environment replaying the games: each agent reads its observation
    and plays the recorded action (and keeps the observation in ``seen``, if given)."""
    from spite_malice.research.pettingzoo_env import env, raw_env

    environment = env(rules=rules) if wrapped else raw_env(rules=rules)
    start = _clock()
    for game_seed, actions, _ in played:
        environment.reset(options={"game_seed": game_seed})
        step = iter(actions).__next__
        for _agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            if seen is not None:
                seen.append((observation["action_mask"], observation["observation"]))
            environment.step(step())
        assert len(environment.unwrapped.game.moves) == len(actions), "not the engine's game"
    return _clock() - start


def _replay_gym(played: list[tuple[int, list[int], list[int]]], rules: Rules) -> float:
    from spite_malice.research.gym_env import SpiteMaliceEnv

    environment = SpiteMaliceEnv("reference", rules=rules)
    start = _clock()
    for i, (game_seed, actions, seats) in enumerate(played):
        seat = i % 2
        mine = iter([a for a, s in zip(actions, seats, strict=True) if s == seat]).__next__
        environment.reset(options={"game_seed": game_seed, "seat": seat})
        terminated = environment.game.outcome is not None
        while not terminated:
            terminated = environment.step(mine())[2]
        assert len(environment.game.moves) == len(actions), "not the engine's game"
    return _clock() - start


def step_costs(
    games: int, seed: int, rules: Rules = Rules.STANDARD, runs: int = 5
) -> dict[str, float]:
    """Microseconds per move of each part of first-fit self-play, so that the adapters' own
    cost is seen apart from the engine's and the policy's: the engine's ``apply`` and its
    reference policy; each adapter replaying the engine's games (its agents play the recorded
    actions after reading their observations), less the engine's ``apply`` (and, for
    Gymnasium, less its opponent's ``reference_move``); and the agent's first-fit from an
    observation, by :func:`.encoding.first_fit_from_mask` and by
    ``first_fit_action(mask.nonzero()[0].tolist(), side_empty(tensor))``. Each is the median
    of ``runs`` runs, interleaved."""
    from spite_malice.research.encoding import first_fit_from_mask, side_empty

    played = _engine_games(games, seed, rules)
    moves = sum(len(actions) for _, actions, _ in played)
    # the Gymnasium opponent's moves are the engine's own: apply and reference_move
    opponent = sum(seats.count(1 - i % 2) for i, (_, _, seats) in enumerate(played))
    rows: dict[str, list[float]] = {}
    per_move = 1e6 / moves
    for _ in range(runs):
        engine = bench_engine(games, seed, rules).seconds
        applying = _replay_engine(played, rules)
        wrapped = _replay_pettingzoo(played, rules, True)
        raw = _replay_pettingzoo(played, rules, False)
        gym = _replay_gym(played, rules)
        policy = engine - applying
        for name, value in (
            ("engine apply", applying * per_move),
            ("engine reference_move", policy * per_move),
            ("pettingzoo env() own cost", (wrapped - applying) * per_move),
            ("pettingzoo raw_env() own cost", (raw - applying) * per_move),
            ("gymnasium own cost", (gym - applying - policy * opponent / moves) * per_move),
        ):
            rows.setdefault(name, []).append(value)
    # the agents' part, on the observations of the first games (kept only for this)
    seen: list[tuple[Any, Any]] = []
    _replay_pettingzoo(played[:20], rules, False, seen)
    for _ in range(runs):
        start = _clock()
        for mask, tensor in seen:
            first_fit_from_mask(mask, tensor)
        middle = _clock()
        for mask, tensor in seen:
            first_fit_action(mask.nonzero()[0].tolist(), side_empty(tensor))
        end = _clock()
        rows.setdefault("agent first_fit_from_mask", []).append((middle - start) * 1e6 / len(seen))
        rows.setdefault("agent nonzero + first_fit_action", []).append(
            (end - middle) * 1e6 / len(seen)
        )
    return {name: statistics.median(values) for name, values in rows.items()}


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
    "step_costs",
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="research.py",
        description="Play N games of first-fit self-play through each research adapter and "
        "on the engine's fast path, interleaved run by run so that they share the machine's "
        "load, and print games/s, moves/s and how many times slower than the engine each "
        "adapter is (median of the runs). Needs the extras [openspiel], [pettingzoo], [gym].",
    )
    parser.add_argument("--games", type=positive, default=200, help="games per run (200)")
    parser.add_argument("--seed", type=seed, default=1, help="seed of the first game (1)")
    parser.add_argument("--runs", type=positive, default=3, help="runs; the median is shown (3)")
    parser.add_argument(
        "--rules", choices=sorted(PRESETS), default="standard", help="rules preset (standard)"
    )
    parser.add_argument(
        "--only",
        default="",
        help="comma-separated adapters to measure: pettingzoo, pettingzoo-raw, gymnasium, "
        "openspiel (all)",
    )
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.only.split(",") if name.strip()] or [
        name for name in RUNNERS if name != "engine"
    ]
    unknown = [name for name in names if name not in RUNNERS]
    if unknown:
        print(f"research.py: unknown adapter {unknown[0]!r}; known: {', '.join(RUNNERS)}")
        return 2
    names = ["engine", *[name for name in names if name != "engine"]]
    results: dict[str, list[Any]] = {name: [] for name in names}
    for _ in range(args.runs):
        for name in names:
            results[name].append(RUNNERS[name](args.games, args.seed, PRESETS[args.rules]))
    print(
        f"first-fit self-play, {args.rules} rules, {args.games} games from seed {args.seed}, "
        f"median of {args.runs} run(s)"
    )
    engine_gps = statistics.median(r.games_per_second for r in results["engine"])
    engine_mps = statistics.median(r.moves_per_second for r in results["engine"])
    for name in names:
        gps = statistics.median(r.games_per_second for r in results[name])
        mps = statistics.median(r.moves_per_second for r in results[name])
        last = results[name][-1]
        slower = (
            ""
            if name == "engine"
            else (
                f"  {engine_gps / gps:4.1f}x the engine's time per game, "
                f"{engine_mps / mps:4.1f}x per move"
            )
        )
        print(
            f"{name:>15}: {gps:8,.0f} games/s {mps:10,.0f} moves/s "
            f"({last.moves / last.games:.0f} moves a game; {last.wins} won){slower}"
        )
    return 0
