"""Arena and ladder reports: rich tables for the terminal, markdown, CSV and a PNG plot."""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Iterable
from pathlib import Path

from rich.table import Table

from ..levels import level_label
from .games import FORFEIT, GameResult
from .ladder import LadderResult
from .sprt import MIN_PAIRS, EloEstimate, Sprt
from .stats import Summary
from .tournament import SprtState


def _ms(seconds: float) -> str:
    if seconds < 0.001:
        return f"{seconds * 1000:.3f} ms"
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def _elo(value: float) -> str:
    if math.isinf(value):
        return "+infinity" if value > 0 else "-infinity"
    return f"{round(value):+d}"


def elo_text(estimate: EloEstimate) -> str:
    """``+45 (95% CI +20 to +70), 100 pairs``: an Elo estimate for a report. Where every
    pair (or game) scored the same, the text says so and that its interval is Wilson's at
    the widest spread (an interval of no width would claim a certainty the games lack)."""
    if estimate.trials == 0:
        return "no games"
    unit = "pairs" if estimate.paired else "games"
    trials = f"{estimate.trials} {unit}"
    text = (
        f"{_elo(estimate.elo)}  (95% CI {_elo(estimate.low)} to {_elo(estimate.high)}; "
        f"score {estimate.score:.1%}, draws half a point, {trials}"
    )
    if estimate.all_alike:
        text += (
            f"; every {unit[:-1]} scored {estimate.score:.0%}: the interval is Wilson's at the "
            "widest spread such a score allows"
        )
    return text + ")"


def win_rate_text(summary: Summary, interval: str) -> str:
    """A's win rate over decided games with its interval (``interval`` formats ``{low}`` and
    ``{high}``), or "no decided games" where every game was drawn: a rate of 50% between 0%
    and 100% would be a number the games never gave."""
    if not summary.decided:
        return "no decided games" + (" (every game drawn)" if summary.games else "")
    low, high = summary.interval
    return f"{summary.win_rate:.1%}" + interval.format(low=f"{low:.1%}", high=f"{high:.1%}")


def summary_rows(summary: Summary) -> list[tuple[str, str]]:
    """The summary as (label, value) rows, shared by the terminal table and markdown."""
    a, b = _labels(summary)
    win_rate = win_rate_text(summary, "  (95% CI {low} to {high})")
    rows = [
        ("games", f"{summary.games} ({summary.games // 2} deals, seats swapped)"),
        (f"{a} wins", str(summary.wins)),
        (f"{b} wins", str(summary.losses)),
        ("draws", f"{summary.draws} ({summary.draws / max(1, summary.games):.1%} of games)"),
        (f"{a} win rate (decided games)", win_rate),
        (f"{a} Elo difference", elo_text(summary.elo)),
        ("points", f"{a} {summary.points_a}, {b} {summary.points_b}"),
        ("average turns", f"{summary.average_turns:.1f}"),
    ]
    for name, times in ((a, summary.times_a), (b, summary.times_b)):
        rows.append(
            (
                f"{name} time per decision",
                f"median {_ms(times.decision_median)}, p95 {_ms(times.decision_p95)}",
            )
        )
        rows.append(
            (f"{name} time per turn", f"median {_ms(times.turn_median)}, p95 {_ms(times.turn_p95)}")
        )
    for reason, count in summary.failures:
        rows.append(("forfeit", f"{count} x {reason}"))
    return rows


def sprt_text(test: Sprt, state: SprtState) -> str:
    """Where a sequential test stands: the games, the LLR between its bounds, the verdict."""
    lower, upper = test.bounds
    text = f"{state.games} games: LLR {state.llr:+.2f} ({lower:+.2f}, {upper:+.2f})"
    if state.decision == "H1":
        return f"{text}: H1 accepted, the difference is at least {test.elo1:+g} Elo"
    if state.decision == "H0":
        return f"{text}: H0 accepted, the difference is at most {test.elo0:+g} Elo"
    pairs = sum(state.pairs)
    if pairs < MIN_PAIRS and not lower < state.llr < upper:
        return (
            f"{text}: past a bound, but the test decides only from {MIN_PAIRS} pairs "
            f"({pairs} so far): going on"
        )
    return text


def sprt_rows(test: Sprt, state: SprtState) -> list[tuple[str, str]]:
    """The test's settings and result, as rows to add to the summary."""
    verdict = {
        "H1": f"H1 accepted: at least {test.elo1:+g} Elo",
        "H0": f"H0 accepted: at most {test.elo0:+g} Elo",
        None: "no decision: the game limit came first",
    }[state.decision]
    lower, upper = test.bounds
    return [
        (
            "SPRT",
            f"H0 {test.elo0:+g} Elo, H1 {test.elo1:+g} Elo, "
            f"alpha {test.alpha:g}, beta {test.beta:g}",
        ),
        ("SPRT result", f"{verdict}; LLR {state.llr:+.2f} ({lower:+.2f}, {upper:+.2f})"),
        ("pairs by score (0, 1/4, 1/2, 3/4, 1)", ", ".join(str(n) for n in state.pairs)),
    ]


def _labels(summary: Summary) -> tuple[str, str]:
    """The two bots' names in a summary; a bot played against itself is told apart by its
    seat letter (A, B), else each row about one of them would be said twice."""
    a, b = level_label(summary.name_a), level_label(summary.name_b)
    if a == b:
        return f"{a} (A)", f"{b} (B)"
    return a, b


def summary_table(summary: Summary, extra: Iterable[tuple[str, str]] = ()) -> Table:
    """A rich table of an arena summary."""
    a, b = _labels(summary)
    table = Table(title=f"{a} v {b}", show_header=False)
    table.add_column(style="bold")
    table.add_column()
    for label, value in [*summary_rows(summary), *extra]:
        table.add_row(label, value)
    return table


def summary_markdown(summary: Summary) -> str:
    a, b = _labels(summary)
    lines = [
        f"### {a} v {b}",
        "",
        "| | |",
        "|---|---|",
    ]
    lines += [f"| {label} | {value} |" for label, value in summary_rows(summary)]
    return "\n".join(lines) + "\n"


CSV_FIELDS = (
    "seed",
    "seat",
    "winner",
    "points",
    "turns",
    "time_a",
    "time_b",
    "reason",
)


def _csv_row(r: GameResult, name_a: str, name_b: str) -> tuple[object, ...]:
    winner = name_a if r.winner == "A" else name_b if r.winner == "B" else "draw"
    time_a, time_b = r.time_totals
    return (r.seed, r.a_seat, winner, r.points, r.turns, f"{time_a:.6f}", f"{time_b:.6f}", r.reason)


def write_csv(path: Path, results: Iterable[GameResult], name_a: str, name_b: str) -> None:
    """One row per game: deal seed, bot A's seat, winner (a bot name or ``draw``), points,
    turns, each bot's total thinking seconds, and why the game ended. The file is replaced
    whole: a run stopped while writing it leaves it as it was."""
    _fresh_csv(path, results, name_a, name_b).close()


def _fresh_csv(
    path: Path, results: Iterable[GameResult], name_a: str, name_b: str
) -> io.TextIOWrapper:
    """``path`` replaced by a CSV of ``results``, written beside it first and renamed only
    once complete (the rename replaces a file at once), and left open for more rows."""
    part = path.with_name(f".{path.name}.part")
    try:
        handle = part.open("w", newline="", encoding="utf-8")
    except OSError as error:  # named by the file asked for, not the one beside it
        raise OSError(error.errno, error.strerror, str(path)) from error
    try:
        writer = csv.writer(handle)
        writer.writerow(CSV_FIELDS)
        writer.writerows(_csv_row(r, name_a, name_b) for r in results)
        handle.flush()
        os.replace(part, path)
    except BaseException:
        handle.close()
        part.unlink(missing_ok=True)
        raise
    return handle


class CsvLog:
    """An arena CSV written as the games finish (each pair flushed at once), so that a run
    cut short leaves its finished games behind for ``--resume``; :func:`write_csv` rewrites
    it in deal order at the end. The games of a resumed run are written into it first, and
    the file replaced only once they all are."""

    def __init__(
        self, path: Path, name_a: str, name_b: str, earlier: Iterable[GameResult] = ()
    ) -> None:
        self.name_a, self.name_b = name_a, name_b
        self._handle = _fresh_csv(path, earlier, name_a, name_b)
        self._writer = csv.writer(self._handle)

    def add(self, results: Iterable[GameResult]) -> None:
        """Write these games and flush them to the file."""
        for r in results:
            self._writer.writerow(_csv_row(r, self.name_a, self.name_b))
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()


class ResumeError(ValueError):
    """An arena CSV that cannot be continued by this run (its text says why, for players)."""


def read_csv(path: Path, name_a: str, name_b: str) -> list[GameResult]:
    """The games of an arena CSV (:func:`write_csv`, :class:`CsvLog`) between ``name_a`` and
    ``name_b``, as results of bot A, in deal order, seat 0 first. A deal with only one of its
    two games is left out (it is played again). Raises :class:`ResumeError` for a file that
    is not such a CSV or holds other bots' games."""
    if name_a == name_b:
        raise ResumeError(
            "A run of a bot against itself cannot be read back (to resume or compare it): "
            "its CSV names the winner by the bot's name, the same for both seats."
        )
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            rows = list(reader)
            fields = tuple(reader.fieldnames or ())  # the header, even of a file with no games
    except OSError as error:
        raise ResumeError(f"Cannot read {path}: {error.strerror or error}.") from None
    except (UnicodeDecodeError, csv.Error):
        raise ResumeError(f"{path} is not an arena CSV file.") from None
    if fields and fields != CSV_FIELDS:  # an empty file is a run with no games yet
        raise ResumeError(f"{path} is not an arena CSV file (its columns are not the arena's).")
    by_deal: dict[int, dict[int, GameResult]] = {}
    for number, row in enumerate(rows, start=2):
        try:
            seed, seat = int(row["seed"]), int(row["seat"])
            points, turns = int(row["points"]), int(row["turns"])
            times = (float(row["time_a"]), float(row["time_b"]))
        except (TypeError, ValueError):
            raise ResumeError(f"Line {number} of {path} is not a game of the arena.") from None
        winner = {name_a: "A", name_b: "B", "draw": None}.get(row["winner"], "?")
        if winner == "?":
            raise ResumeError(
                f"Line {number} of {path} is a game won by {row['winner']!r}, not one of "
                f"{name_a} and {name_b}: name the two bots that played these games."
            )
        if seat not in (0, 1) or seat in by_deal.get(seed, {}):
            raise ResumeError(f"Line {number} of {path} repeats or misnames a game of deal {seed}.")
        reason = row["reason"] or ""
        forfeit = None
        if reason.startswith(f"{FORFEIT}:") and winner is not None:
            forfeit = "B" if winner == "A" else "A"
        by_deal.setdefault(seed, {})[seat] = GameResult(
            seed, seat, winner, points, turns, reason, forfeit=forfeit, recorded_times=times
        )
    return [
        games[seat] for _, games in sorted(by_deal.items()) if len(games) == 2 for seat in (0, 1)
    ]


def ladder_tables(result: LadderResult) -> tuple[Table, Table]:
    """The Elo table and the pairings table."""
    elo = Table(title=f"Elo ({result.games} games a pairing, seed {result.seed})")
    elo.add_column("rank", justify="right")
    elo.add_column("bot")
    elo.add_column("Elo", justify="right")
    for rank, (name, rating) in enumerate(result.ranked(), start=1):
        elo.add_row(str(rank), level_label(name), f"{rating:.0f}")
    pairs = Table(title="Pairings")
    for column in ("A", "B", "A wins", "B wins", "draws", "A win rate (95% CI)"):
        pairs.add_column(column)
    for s in result.summaries:
        pairs.add_row(
            level_label(s.name_a),
            level_label(s.name_b),
            str(s.wins),
            str(s.losses),
            str(s.draws),
            win_rate_text(s, " ({low}-{high})"),
        )
    return elo, pairs


def ladder_markdown(result: LadderResult) -> str:
    """The ladder as markdown: the Elo table, then every pairing."""
    lines = [
        f"## Ladder: {result.games} games a pairing, seed {result.seed}",
        "",
        "| rank | bot | Elo |",
        "|---:|---|---:|",
    ]
    for rank, (name, rating) in enumerate(result.ranked(), start=1):
        lines.append(f"| {rank} | {level_label(name)} | {rating:.0f} |")
    lines += [
        "",
        "| A | B | A wins | B wins | draws | A win rate (95% CI) |",
        "|---|---|---:|---:|---:|---|",
    ]
    for s in result.summaries:
        rate = win_rate_text(s, " ({low} to {high})")
        lines.append(
            f"| {level_label(s.name_a)} | {level_label(s.name_b)} | {s.wins} | {s.losses} | "
            f"{s.draws} | {rate} |"
        )
    return "\n".join(lines) + "\n"


def ladder_plot(result: LadderResult, path: Path) -> None:
    """A bar chart of the Elo ratings, saved as PNG (matplotlib's Agg backend: no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(result.names)
    ratings = [result.ratings[name] for name in names]
    figure, axes = plt.subplots(figsize=(6, 4), dpi=100)
    bars = axes.bar([level_label(name) for name in names], ratings, color="#3b6ea5")
    for bar, rating in zip(bars, ratings, strict=True):
        axes.annotate(
            f"{rating:.0f}",
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
        )
    low = min(ratings)
    axes.set_ylim(low - 100, max(ratings) + 100)
    axes.set_ylabel("Elo")
    axes.set_title(f"Spite & Malice levels ({result.games} games a pairing)")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
