"""Expert against the frozen hard-1 with a fixed number of samples a search: a measure of the
search itself.

With ``max_samples`` fixed and no time limit (the default), Expert's play does not depend on
the machine's speed or load, so runs are repeatable on a busy machine (its time per turn is
then whatever the samples take). ``--budget 1`` plays at Expert's default time limit instead,
as the arena's ``expert`` does: then a busy machine takes fewer samples.
Deal ``seed + k`` is played twice, Expert in seat 0 then in seat 1, with the bot seeds the
arena gives them (:func:`spite_malice.arena.games.bot_seed`): when the budget reaches the
samples, these are the games ``spite-malice arena expert hard --seed S`` plays.

``--csv FILE`` writes one row per game in the arena's columns, each pair of games as it
finishes (a run stopped early keeps the games it played), in deal order at the end.
``--against FILE ...`` compares the games with the same games in earlier CSV files (of this
script or of the arena): a change to the search that leaves most games as they were is judged
by the games whose result changed, which is far less noisy than two separate win rates.

    .venv/bin/python benchmarks/bots_expert.py --samples 24 --deals 100 --seed 7000 --jobs 2 \
        --csv new.csv --against old_*.csv
"""

from __future__ import annotations

import argparse
import csv
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import fields, replace
from functools import partial
from pathlib import Path

from spite_malice.arena import GameResult, play_game
from spite_malice.arena.games import bot_seed
from spite_malice.arena.stats import percentile, wilson_interval
from spite_malice.bot_registry import make_bot
from spite_malice.bots import ExpertBot
from spite_malice.bots.expert import EXPERT_SETTINGS, SearchSettings
from spite_malice.bots.leaf import LeafModel

COLUMNS = ("seed", "seat", "winner", "points", "turns", "time_a", "time_b", "reason")
"""The arena's CSV columns (``spite-malice arena --csv``); seat is Expert's."""

NAMES = {"A": "expert", "B": "hard", None: "draw"}


SETTING_NAMES = tuple(
    f.name
    for f in fields(SearchSettings)
    if f.name not in ("own_weights", "opponent_weights", "leaf_model")
)


def parse_setting(text: str) -> tuple[str, float]:
    """``NAME=VALUE``: a number field of :class:`~spite_malice.bots.expert.SearchSettings`
    (``candidates``, ``rounds``, ``discount``, ...; 0 and 1 for the yes-or-no ones)."""
    name, equals, value = text.partition("=")
    if not equals or name not in SETTING_NAMES:
        raise argparse.ArgumentTypeError(
            f"{text!r}: expected NAME=VALUE with NAME one of {', '.join(SETTING_NAMES)}"
        )
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: {value!r} is not a number") from None
    kind = type(getattr(EXPERT_SETTINGS, name))
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{text!r}: {value!r} is not a finite number")
    if kind is bool and number not in (0.0, 1.0):
        raise argparse.ArgumentTypeError(f"{text!r}: {name} is 0 (off) or 1 (on)")
    if kind is int and not number.is_integer():
        raise argparse.ArgumentTypeError(f"{text!r}: {name} is a whole number")
    return name, number


def opponent_name(text: str) -> str:
    """A bot name :func:`~spite_malice.bot_registry.make_bot` knows (for ``--opponent``)."""
    try:
        make_bot(text)
    except ValueError as unknown:
        raise argparse.ArgumentTypeError(str(unknown)) from None
    return text


def settings_with(changes: list[tuple[str, float]]) -> SearchSettings:
    """The shipped search settings with ``changes`` made, each in its field's type."""
    kinds = {f.name: type(getattr(EXPERT_SETTINGS, f.name)) for f in fields(SearchSettings)}
    return replace(EXPERT_SETTINGS, **{name: kinds[name](value) for name, value in changes})


def _pair(
    samples: int,
    budget: float,
    settings: SearchSettings,
    opponent: str,
    seed: int,
) -> list[GameResult]:
    results = []
    for seat in (0, 1):
        bot = ExpertBot(bot_seed(seed, "A"), budget, max_samples=samples, settings=settings)
        results.append(play_game(bot, make_bot(opponent, bot_seed(seed, "B")), seed, seat))
    return results


def _row(result: GameResult) -> dict[str, object]:
    return {
        "seed": result.seed,
        "seat": result.a_seat,
        "winner": NAMES[result.winner],
        "points": result.points,
        "turns": result.turns,
        "time_a": f"{sum(result.a_times):.6f}",
        "time_b": f"{sum(result.b_times):.6f}",
        "reason": result.reason,
    }


def _outcome(winner: str) -> str:
    """``expert``, ``hard`` (the opponent) or ``draw``: this script's names for a game's
    winner, from its own CSV or the arena's, whose winner is a bot's name
    (``expert:600:24``) or ``draw``."""
    if winner == "draw":
        return winner
    return "expert" if winner.split(":")[0] == "expert" else "hard"


def _earlier(paths: list[Path]) -> dict[tuple[int, int], str]:
    """The winner of each (seed, Expert's seat) game in earlier CSV files."""
    winners: dict[tuple[int, int], str] = {}
    for path in paths:
        with path.open(newline="") as file:
            for row in csv.DictReader(file):
                winners[int(row["seed"]), int(row["seat"])] = _outcome(row["winner"])
    return winners


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=24)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--budget",
        type=float,
        default=1e6,
        help="seconds a turn (default: no limit, so that the samples alone decide the games); "
        "1 plays at Expert's default budget",
    )
    parser.add_argument(
        "--set",
        type=parse_setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"change a search setting ({', '.join(SETTING_NAMES)})",
    )
    parser.add_argument(
        "--leaf", type=Path, help="score with this leaf model (JSON of benchmarks/bots_leaf.py)"
    )
    parser.add_argument(
        "--opponent", type=opponent_name, default="hard-1", help="the bot Expert plays (hard-1)"
    )
    parser.add_argument("--csv", type=Path, help="write one row per game to this CSV file")
    parser.add_argument(
        "--against", type=Path, nargs="+", default=[], help="earlier CSV files of the same games"
    )
    args = parser.parse_args(argv)
    if not args.budget > 0:  # NaN too
        parser.error(f"--budget must be positive seconds, not {args.budget:g}")
    if min(args.samples, args.deals, args.jobs) < 1:
        parser.error("--samples, --deals and --jobs must be at least 1")
    earlier = _earlier(args.against)
    rows: list[dict[str, object]] = []
    turns: list[float] = []
    start = time.perf_counter()
    settings = settings_with(args.set)
    if args.leaf:
        model = LeafModel.from_file(args.leaf)
        settings = replace(settings, leaf_model=model)
    work = partial(_pair, args.samples, args.budget, settings, args.opponent)
    seeds = range(args.seed, args.seed + args.deals)
    log = None
    if args.csv:  # each pair as it finishes, so that a run stopped early keeps its games
        log = args.csv.open("w", newline="")
        writer = csv.DictWriter(log, COLUMNS)
        writer.writeheader()
    try:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for pair in pool.imap_unordered(work, seeds):
                for result in pair:
                    rows.append(_row(result))
                    turns.extend(result.a_turn_times)
                    if log is not None:
                        writer.writerow(rows[-1])
                if log is not None:
                    log.flush()
                print(_tally(rows, earlier), flush=True)
    finally:
        if log is not None:
            log.close()
    if args.csv:  # in deal order at the end
        with args.csv.open("w", newline="") as file:
            writer = csv.DictWriter(file, COLUMNS)
            writer.writeheader()
            writer.writerows(sorted(rows, key=lambda row: (row["seed"], row["seat"])))
    changed = "".join(f", {name}={value:g}" for name, value in args.set)
    budget = f", {args.budget:g} s a turn" if args.budget < 1e6 else ""
    if args.leaf:
        changed += f", leaf model {args.leaf.name}"
    print(
        f"Expert ({args.samples} samples{budget}{changed}) v {args.opponent}, "
        f"{2 * args.deals} games from deal {args.seed}: "
        f"{_tally(rows, earlier)}; Expert per turn median {statistics.median(turns):.3f} s, "
        f"p95 {percentile(turns, 95):.3f} s; {time.perf_counter() - start:.0f} s"
    )
    return 0


def _tally(rows: list[dict[str, object]], earlier: dict[tuple[int, int], str]) -> str:
    wins = sum(row["winner"] == "expert" for row in rows)
    losses = sum(row["winner"] == "hard" for row in rows)
    low, high = wilson_interval(wins, wins + losses)
    text = (
        f"{wins}-{losses}, {len(rows) - wins - losses} drawn; win rate "
        f"{wins / max(1, wins + losses):.1%} (95% CI {low:.1%} to {high:.1%})"
    )
    paired = [(row, earlier.get((int(str(row["seed"])), int(str(row["seat"]))))) for row in rows]
    paired = [(row, before) for row, before in paired if before is not None]
    if paired:
        better = sum(row["winner"] == "expert" and before != "expert" for row, before in paired)
        worse = sum(row["winner"] != "expert" and before == "expert" for row, before in paired)
        then_won = sum(before == "expert" for _, before in paired)
        then_lost = sum(before == "hard" for _, before in paired)
        text += (
            f"; the same {len(paired)} games before: {then_won}-{then_lost}; "
            f"{len(paired) - sum(row['winner'] == before for row, before in paired)} changed "
            f"result: now won {better}, now not won {worse}"
        )
    return text


if __name__ == "__main__":
    sys.exit(main())
