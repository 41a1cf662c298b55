"""Time to analyse a 50-turn game (50 turns of each player) at the default setting.

The game is dealt from ``--seed`` and played by Medium (seat 0, the player analysed) against
Hard until each player has had ``--turns`` turns (50); if it ends sooner, the next seed is
tried. Each run analyses seat 0's turns with
:data:`spite_malice.analysis.report.DEFAULT_SETTINGS` on the default number of processes, and
prints its time on the clock and in CPU time (this process and its helpers; the clock time
grows when other work shares the machine, the CPU time much less), then the medians, with
the CPU time of the busiest process: what the clock would show on an idle machine, where
the processes run side by side.

    nice -n 10 .venv/bin/python benchmarks/analysis.py --runs 3 --before

``--before`` also times, in the same run and on the same game, the analysis as it was before
it stopped early and used several processes (``Settings(adaptive=False)`` in one process),
runs of the two taking turns, and says how far their reports agree (the three worst turns
and the best one). ``--agreement N`` compares the two on N games instead (seeds ``--seed``,
``--seed`` + 100, ...), no timing.

``--levels easy,medium,hard --games N`` checks the measure instead: N deals (from ``--seed``)
played by each level against Hard, the level's seat analysed; it prints each level's pay-off
cards lost per turn. A sound measure finds the weaker levels losing more.

(``benchmarks/analysis.py`` launches this module.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import replace

from spite_malice.analysis import Report, analyse_record, record_decisions
from spite_malice.analysis.pool import default_workers
from spite_malice.analysis.report import DEFAULT_SETTINGS
from spite_malice.bot_registry import make_bot
from spite_malice.engine import Game, GameRecord

BEFORE = replace(DEFAULT_SETTINGS, adaptive=False)
"""The analysis before: every candidate on every one of the 64 deals (in one process)."""


def dealt_record(seed: int, turns: int, level: str = "medium") -> GameRecord:
    """The first deal from ``seed`` on that lasts ``turns`` turns of the game (both players'
    counted), cut after them, ``level`` in seat 0 against Hard."""
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


def _cpu() -> tuple[float, float]:
    """CPU seconds of this process, and of its children that have ended (the helpers)."""
    times = os.times()
    return times.user + times.system, times.children_user + times.children_system


def timed(record: GameRecord, *, before: bool) -> tuple[float, float, float, Report]:
    """(seconds on the clock, CPU seconds of this process, CPU seconds of its helpers, the
    report) of one analysis of seat 0."""
    start, (own, helpers) = time.perf_counter(), _cpu()
    if before:
        report = analyse_record(record, 0, settings=BEFORE, workers=1)
    else:
        report = analyse_record(record, 0, settings=DEFAULT_SETTINGS)
    wall = time.perf_counter() - start
    own_after, helpers_after = _cpu()
    return wall, own_after - own, helpers_after - helpers, report


def agreement(before: Report, now: Report) -> tuple[int, bool, bool]:
    """(how many of the worst three turns both name, whether the worst is the same, whether
    the best turn is the same)."""
    old = [turn.turn for turn in before.worst]
    new = [turn.turn for turn in now.worst]
    old_best = None if before.best is None else before.best.turn
    new_best = None if now.best is None else now.best.turn
    return len(set(old) & set(new)), old[:1] == new[:1], old_best == new_best


def _turns(report: Report) -> str:
    worst = ", ".join(str(turn.player_turn) for turn in report.worst) or "none"
    best = "none" if report.best is None else str(report.best.player_turn)
    return f"worst {worst}; best {best}"


def compare_levels(levels: list[str], games: int, seed: int, turns: int) -> None:
    """Each level's pay-off cards lost per turn over the same deals."""
    for level in levels:
        lost = 0.0
        counted = 0
        losing = 0
        for k in range(games):
            record = dealt_record(seed + 100 * k, turns, level)
            report = analyse_record(record, 0, settings=DEFAULT_SETTINGS)
            lost += report.total_lost
            counted += len(report.turns)
            losing += sum(1 for turn in report.turns if turn.lost > 0)
        print(
            f"{level:>8}: {lost / counted:.3f} pay-off cards lost a turn "
            f"({losing} of {counted} turns lost something; {games} games)"
        )


def compare_methods(games: int, seed: int, turns: int) -> None:
    """The worst and best turns of the analysis before and now on ``games`` games."""
    totals = [0, 0, 0]
    for k in range(games):
        record = dealt_record(seed + 100 * k, turns)
        before = analyse_record(record, 0, settings=BEFORE, workers=1)
        now = analyse_record(record, 0, settings=DEFAULT_SETTINGS)
        both, top, best = agreement(before, now)
        for i, value in enumerate((both, top, best)):
            totals[i] += value
        print(
            f"deal {record.seed}: before {_turns(before)}; now {_turns(now)} "
            f"({both} of the worst three in both)"
        )
    print(
        f"{games} games: {totals[0]} of {3 * games} worst turns named by both, the worst the "
        f"same in {totals[1]}, the best the same in {totals[2]}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the first deal tried (1)")
    parser.add_argument("--turns", type=int, default=50, help="turns of each player (50)")
    parser.add_argument("--runs", type=int, default=3, help="runs; the median is shown (3)")
    parser.add_argument("--before", action="store_true", help="also time the analysis before")
    parser.add_argument("--agreement", type=int, metavar="N", help="compare before and now")
    parser.add_argument("--levels", help="compare these levels instead (easy,medium,hard)")
    parser.add_argument("--games", type=int, default=3, help="games per level (3)")
    args = parser.parse_args(argv)
    game_turns = 2 * args.turns
    if args.levels:
        compare_levels(args.levels.split(","), args.games, args.seed, game_turns)
        return 0
    if args.agreement:
        compare_methods(args.agreement, args.seed, game_turns)
        return 0
    record = dealt_record(args.seed, game_turns)
    decisions = record_decisions(record, 0)
    settings = DEFAULT_SETTINGS
    print(
        f"deal {record.seed}: {game_turns} turns ({args.turns} each), {len(record.moves)} moves; "
        f"seat 0 has {len({d.turn for d in decisions})} turns, {len(decisions)} decisions; "
        f"up to {settings.samples} samples, horizon {settings.horizon} turns, "
        f"{settings.candidates} candidates; {default_workers()} processes "
        f"({os.cpu_count()} cores); load {os.getloadavg()[0]:.1f}"
    )
    kinds = [("before", True), ("now", False)] if args.before else [("now", False)]
    times: dict[str, list[float]] = {kind: [] for kind, _ in kinds}
    cpu: dict[str, list[float]] = {kind: [] for kind, _ in kinds}
    longest: dict[str, list[float]] = {kind: [] for kind, _ in kinds}
    reports: dict[str, Report] = {}
    for run in range(1, args.runs + 1):
        for kind, before in kinds if run % 2 else kinds[::-1]:
            wall, own, helpers, reports[kind] = timed(record, before=before)
            times[kind].append(wall)
            cpu[kind].append(own + helpers)
            # the processes run side by side: on an idle machine the clock time is about the
            # CPU time of the busiest (a helper's share is the rest, shared out evenly)
            share = helpers / max(1, default_workers() - 1) if helpers else 0.0
            longest[kind].append(max(own, share))
            print(
                f"run {run} {kind:>6}: {wall:.1f} s ({own + helpers:.1f} s of CPU: "
                f"{own:.1f} s here, {helpers:.1f} s in helpers); {_turns(reports[kind])}"
            )
    for kind, _ in kinds:
        print(
            f"median of {args.runs} {kind:>6}: {statistics.median(times[kind]):.1f} s to analyse "
            f"the game ({statistics.median(cpu[kind]):.1f} s of CPU; the busiest process "
            f"{statistics.median(longest[kind]):.1f} s of CPU)"
        )
    if args.before:
        both, top, best = agreement(reports["before"], reports["now"])
        print(
            f"before and now: {both} of the worst three turns in both; the worst the same: "
            f"{'yes' if top else 'no'}; the best the same: {'yes' if best else 'no'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
