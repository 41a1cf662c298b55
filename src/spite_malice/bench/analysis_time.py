"""Time to analyse a 40-turn game at the default setting (``spite-malice analyse``'s).

The game is dealt from ``--seed`` and played by Medium (seat 0, the player analysed) against
Hard for 40 turns (20 of seat 0's); if it ends sooner, the next seed is tried. Each run
analyses seat 0's turns with :data:`spite_malice.analysis.report.DEFAULT_SETTINGS`; the script
prints every run's time and the median, on the clock and in CPU time (the clock time grows
when other work shares the machine; the CPU time much less).

    nice -n 19 .venv/bin/python benchmarks/analysis.py --runs 3

``--levels easy,medium,hard --games N`` checks the measure instead: N deals (from ``--seed``)
played by each level against Hard for 40 turns, the level's seat analysed; it prints each
level's pay-off cards lost per turn. A sound measure finds the weaker levels losing more.

(``benchmarks/analysis.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import statistics
import time

from ..analysis import analyse_record, record_decisions
from ..analysis.report import DEFAULT_SETTINGS
from ..bot_registry import make_bot
from ..engine import Game, GameRecord


def forty_turn_record(seed: int, turns: int, level: str = "medium") -> GameRecord:
    """The first deal from ``seed`` on that lasts ``turns`` turns, cut after them, ``level``
    in seat 0 against Hard."""
    while True:
        game = Game.new(seed)
        bots = [make_bot(level, seed), make_bot("hard", seed + 1)]
        for seat, bot in enumerate(bots):
            bot.new_game(seat)
        while not game.is_over and game.turn <= turns:
            game.play(bots[game.to_move].choose(game.observation(game.to_move)))
        if not game.is_over:
            return GameRecord.from_game(game, (level.capitalize(), "Hard"))
        seed += 1


def compare_levels(levels: list[str], games: int, seed: int, turns: int) -> None:
    """Each level's pay-off cards lost per turn over the same deals."""
    for level in levels:
        lost = 0.0
        counted = 0
        losing = 0
        for k in range(games):
            record = forty_turn_record(seed + 100 * k, turns, level)
            report = analyse_record(record, 0, settings=DEFAULT_SETTINGS)
            lost += report.total_lost
            counted += len(report.turns)
            losing += sum(1 for turn in report.turns if turn.lost > 0)
        print(
            f"{level:>8}: {lost / counted:.3f} pay-off cards lost a turn "
            f"({losing} of {counted} turns lost something; {games} games)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the first deal tried (1)")
    parser.add_argument("--turns", type=int, default=40, help="turns of the game (40)")
    parser.add_argument("--runs", type=int, default=3, help="runs; the median is shown (3)")
    parser.add_argument("--levels", help="compare these levels instead (easy,medium,hard)")
    parser.add_argument("--games", type=int, default=3, help="games per level (3)")
    args = parser.parse_args(argv)
    if args.levels:
        compare_levels(args.levels.split(","), args.games, args.seed, args.turns)
        return 0
    record = forty_turn_record(args.seed, args.turns)
    decisions = record_decisions(record, 0)
    settings = DEFAULT_SETTINGS
    print(
        f"deal {record.seed}: {args.turns} turns, {len(record.moves)} moves; seat 0 has "
        f"{len({d.turn for d in decisions})} turns, {len(decisions)} decisions; "
        f"{settings.samples} samples, horizon {settings.horizon} turns, "
        f"{settings.candidates} candidates"
    )
    times, cpu = [], []
    for run in range(1, args.runs + 1):
        start, start_cpu = time.perf_counter(), time.process_time()
        report = analyse_record(record, 0, settings=settings)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        print(
            f"run {run}: {times[-1]:.1f} s ({cpu[-1]:.1f} s of CPU; total lost "
            f"{report.total_lost:.1f} pay-off cards)"
        )
    print(
        f"median of {args.runs}: {statistics.median(times):.1f} s to analyse the game "
        f"({statistics.median(cpu):.1f} s of CPU)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
