"""Arena runs read back from their CSV files: runs of the same two bots added up, or a run
compared with another on the same deals, deal by deal.

An arena run (``spite-malice arena A B --csv FILE``) plays each deal twice, seats swapped.
``--run A B FILE ...`` reads the games of A against B in one or more such files (each deal in
one file only) and prints their summary: wins, draws, A's share of the decided games with its
95% interval, and A's Elo advantage from the pairs. With ``--against A B FILE ...``, a second
run on the same deals (the same ``--seed``, one bot changed), both are cut to the deals that
both played, and the new run is compared with the old game by game: the games it ended better
and worse for its bot A, and the mean change of A's score a game over the deals, with its
standard error. Most games end as they did; the deals where they differ measure the change with
far less noise than two separate win rates.

    python benchmarks/arena_compare.py --run expert:1:leaf=new.json hard new.csv \\
        --against expert hard old.csv
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from spite_malice.arena.games import GameResult
from spite_malice.arena.report import ResumeError, elo_text, read_csv
from spite_malice.arena.sprt import Z95, game_points
from spite_malice.arena.stats import Summary, summarize


@dataclass(frozen=True, slots=True)
class Run:
    """The games of bot ``name_a`` against ``name_b`` read from arena CSV files."""

    name_a: str
    name_b: str
    games: list[GameResult]
    """In deal order, seat 0 first; every deal has both its games."""

    def deals(self) -> set[int]:
        return {result.seed for result in self.games}

    def on(self, deals: set[int]) -> Run:
        """The same run cut to ``deals``."""
        return Run(self.name_a, self.name_b, [r for r in self.games if r.seed in deals])

    def summary(self) -> Summary:
        return summarize(self.games, self.name_a, self.name_b)


@dataclass(frozen=True, slots=True)
class Change:
    """How a run's bot A did against an earlier run's on the same deals."""

    deals: int
    better: int
    """Games whose result is better for A than before (a loss now drawn or won, a draw won)."""
    worse: int
    mean: float
    """The mean change of A's score a game (a win 1, a draw a half), over the deals."""
    error: float
    """The standard error of ``mean`` (0 with fewer than two deals)."""


def read_run(name_a: str, name_b: str, paths: list[Path]) -> Run:
    """The games of ``name_a`` against ``name_b`` in these arena CSV files. Raises
    :class:`~spite_malice.arena.report.ResumeError` for a file that is not such a CSV, and
    ``ValueError`` when two files hold the same deal (two runs of one seed are not added
    up: they are the same games, or the same deals played again)."""
    games: list[GameResult] = []
    where: dict[int, Path] = {}
    for path in paths:
        results = read_csv(path, name_a, name_b)
        for seed in sorted({r.seed for r in results}):
            if seed in where:
                raise ValueError(f"Deal {seed} is in both {where[seed]} and {path}.")
            where[seed] = path
        games += results
    games.sort(key=lambda r: (r.seed, r.a_seat))
    return Run(name_a, name_b, games)


def compare(new: Run, old: Run) -> Change:
    """``new`` against ``old`` on the deals both played, from bot A's side in each."""
    before = {(r.seed, r.a_seat): game_points(r) for r in old.games}
    now = {(r.seed, r.a_seat): game_points(r) for r in new.games}
    common = sorted(key for key in now if key in before)
    better = sum(now[key] > before[key] for key in common)
    worse = sum(now[key] < before[key] for key in common)
    by_deal: dict[int, list[float]] = {}
    for key in common:
        by_deal.setdefault(key[0], []).append(now[key] - before[key])
    changes = [sum(points) / len(points) for points in by_deal.values()]
    mean = statistics.fmean(changes) if changes else 0.0
    error = statistics.stdev(changes) / math.sqrt(len(changes)) if len(changes) > 1 else 0.0
    return Change(len(changes), better, worse, mean, error)


def summary_line(run: Run) -> str:
    """One line: the games, the results, A's share of the decided games and its Elo."""
    summary = run.summary()
    low, high = summary.interval
    a, b = run.name_a, run.name_b
    return (
        f"{a} v {b}, {summary.games} games ({summary.games // 2} deals): {a} {summary.wins}, "
        f"{b} {summary.losses}, {summary.draws} draws "
        f"({summary.draws / max(1, summary.games):.1%}); {a} wins {summary.win_rate:.1%} of "
        f"decided games (95% CI {low:.1%} to {high:.1%}); Elo {elo_text(summary.elo)}"
    )


def change_line(new: Run, change: Change) -> str:
    """One line: how the new run's bot A did against the old run's, deal by deal."""
    low, high = change.mean - Z95 * change.error, change.mean + Z95 * change.error
    return (
        f"{new.name_a} against the earlier run on the {change.deals} deals both played: "
        f"{change.better} games ended better, {change.worse} worse; its score a game "
        f"{change.mean:+.3f} (standard error {change.error:.3f}; 95% CI {low:+.3f} to "
        f"{high:+.3f})"
    )


def _run_argument(
    parser: argparse.ArgumentParser, values: list[str], option: str
) -> tuple[str, str, list[Path]]:
    if len(values) < 3:
        parser.error(f"{option} takes the two bots, then at least one arena CSV file")
    return values[0], values[1], [Path(value) for value in values[2:]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--run",
        nargs="+",
        required=True,
        metavar="A B FILE",
        help="bot A, bot B (as named to the arena), then the arena CSV files of their games",
    )
    parser.add_argument(
        "--against",
        nargs="+",
        metavar="A B FILE",
        help="an earlier run on the same deals, to compare the run with game by game",
    )
    args = parser.parse_args(argv)
    try:
        new = read_run(*_run_argument(parser, args.run, "--run"))
        old = read_run(*_run_argument(parser, args.against, "--against")) if args.against else None
    except (ResumeError, ValueError) as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    if old is None:
        print(summary_line(new))
        return 0
    common = new.deals() & old.deals()
    if not common:
        print(f"{parser.prog}: the two runs have no deal in common.", file=sys.stderr)
        return 2
    print(summary_line(new.on(common)))
    print(summary_line(old.on(common)))
    print(change_line(new, compare(new, old)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
