"""The CPU time of Expert's searches on fixed positions, and the plans they choose: a paired
measure of a change meant to make the search faster without changing what it plays.

``--collect FILE`` plays deals with the shipped Expert (24 samples, no time limit) against
the shipped Hard, both seats, and writes every position Expert searched (with its seed and
what it read of the opponent's refusals) to FILE (pickle: for this tool only, from a trusted
run). ``--positions FILE`` searches each of them again with a fresh Expert of the same seed,
prints the CPU time (median, p95, total) and with ``--choices OUT`` writes the plans chosen
and the samples taken, to compare with another version's (``cmp``). Run the timing with
the old and the new sources alternately (``PYTHONPATH=OLD/src``, ``PYTHONPATH=src``), a few
times each: CPU time is steadier than wall time on a shared machine, not immune to it.

    python benchmarks/bots_search_time.py --collect pos.pkl --deal 43000
    python benchmarks/bots_search_time.py --positions pos.pkl --choices new.json
"""

from __future__ import annotations

import argparse
import json
import pickle
import statistics
import sys
import time
from pathlib import Path

from spite_malice.arena.games import bot_seed
from spite_malice.arena.stats import percentile
from spite_malice.bot_registry import make_bot
from spite_malice.bots import ExpertBot
from spite_malice.engine import Game, Move, Observation
from spite_malice.engine.rules import Rules

Position = tuple[int, Observation, tuple[int, ...]]
"""Expert's seed, the observation it searched, the refusals it read (:attr:`refused`)."""


class _Recording(ExpertBot):
    """The shipped Expert, keeping every position it searches."""

    def __init__(self, seed: int, positions: list[Position]) -> None:
        super().__init__(seed, budget=1e6, max_samples=24)
        self.positions = positions

    def plan(self, observation: Observation) -> list[Move]:
        assert self.seed is not None
        self.positions.append((self.seed, observation, self.refused))
        return super().plan(observation)


def collect(deals: range) -> list[Position]:
    """Every position the shipped Expert searches in ``deals``, both seats, against Hard."""
    positions: list[Position] = []
    for deal in deals:
        for seat in (0, 1):
            expert = _Recording(bot_seed(deal, "A"), positions)
            hard = make_bot("hard", bot_seed(deal, "B"))
            game = Game.new(deal, Rules.STANDARD, recording=False)
            expert.new_game(seat)
            hard.new_game(1 - seat)
            while game.outcome is None:
                bot = expert if game.to_move == seat else hard
                game.apply(bot.choose(game.observation(game.to_move)))
    return positions


def search(positions: list[Position]) -> tuple[list[float], list[list[object]]]:
    """Each position searched again: the CPU seconds of each, and the plan and samples."""
    times: list[float] = []
    choices: list[list[object]] = []
    for seed, observation, refused in positions:
        bot = ExpertBot(seed, budget=1e6, max_samples=24)
        bot.refused = refused
        start = time.process_time()
        plan = bot.best_plan(observation, float("inf"))
        times.append(time.process_time() - start)
        choices.append([*map(str, plan.moves), bot.last_samples])
    return times, choices


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collect", type=Path, help="write the positions of --deal here")
    parser.add_argument("--deal", type=int, default=43000)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--positions", type=Path, help="time the searches of these positions")
    parser.add_argument("--every", type=int, default=1, help="only every N-th position")
    parser.add_argument("--choices", type=Path, help="write the chosen plans here (JSON)")
    args = parser.parse_args(argv)
    if args.collect:
        positions = collect(range(args.deal, args.deal + args.deals))
        args.collect.write_bytes(pickle.dumps(positions))
        print(f"{len(positions)} positions written to {args.collect}")
    if args.positions:
        loaded: list[Position] = pickle.loads(args.positions.read_bytes())
        times, choices = search(loaded[:: args.every])
        print(
            f"{len(times)} searches, CPU time: total {sum(times):.2f} s, median "
            f"{1000 * statistics.median(times):.1f} ms, p95 {1000 * percentile(times, 95):.0f} ms"
        )
        if args.choices:
            args.choices.write_text(json.dumps(choices), encoding="utf-8")
    if not (args.collect or args.positions):
        parser.error("give --collect FILE, --positions FILE or both")
    return 0


if __name__ == "__main__":
    sys.exit(main())
