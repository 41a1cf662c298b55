"""Bot subcommands: ``hint``, ``arena`` and ``ladder``."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.errors import ArgumentError
from ..engine.game import Game
from ..engine.rules import PRESETS, Rules
from ..i18n import _
from .arguments import positive, seed

if TYPE_CHECKING:
    from rich.console import Console

    from ..arena.games import GameResult


def register(subparsers: Any) -> None:
    hint = subparsers.add_parser(
        "hint",
        help="the best turn for the player to move in a position",
        description="Print the recommended moves for the rest of the turn of the player to "
        "move in POSITION.json, and why. The hint sees only what that player sees.",
    )
    hint.add_argument("position", type=Path, help="a position, POSITION.json")
    hint.set_defaults(handler=_hint)

    arena = subparsers.add_parser(
        "arena",
        help="play two bots against each other and measure them",
        description="Play N games between two bots on paired deals (each deal twice, seats "
        "swapped) and print wins, draws, the win rate over decided games with its 95% "
        "confidence interval (Wilson), points, average turns and thinking time. A bot is a "
        "level (easy, medium, hard, expert, expert:SECONDS or expert:SECONDS:SAMPLES; Expert "
        "takes 24 samples a search by default; either form may end in :leaf=FILE, another "
        "leaf model for Expert's search), a frozen baseline (hard-1, expert-1, blocker-1, "
        "nonblocker-1), reference, or a program path. With --sprt ELO0,ELO1 it plays pairs until a "
        "sequential probability ratio test (pentanomial GSPRT, as fishtest) accepts H0 (A is "
        "at most ELO0 better) or H1 (at least ELO1), printing the log-likelihood ratio as it "
        "goes; --games is then the most it plays.",
    )
    arena.add_argument("bot_a", metavar="BOT_A")
    arena.add_argument("bot_b", metavar="BOT_B")
    _common(
        arena,
        games=None,
        what="games, played as pairs of deals (200; with --sprt, at most this many: 20000)",
    )
    arena.add_argument("--csv", type=Path, help="write one row per game to this CSV file")
    arena.add_argument(
        "--resume",
        type=Path,
        metavar="FILE.csv",
        help="continue the run whose games are in this arena CSV (the same bots, --seed, "
        "--games or --sprt): play only the deals it lacks, and write all games to it (or to "
        "--csv)",
    )
    arena.add_argument(
        "--sprt",
        metavar="ELO0,ELO1",
        help="run until an SPRT of ELO0 against ELO1 (logistic Elo, draws half a point) decides",
    )
    arena.add_argument(
        "--alpha", type=float, default=None, help="with --sprt: its false-H1 rate (0.05)"
    )
    arena.add_argument(
        "--beta", type=float, default=None, help="with --sprt: its false-H0 rate (0.05)"
    )
    arena.set_defaults(handler=_arena)

    ladder = subparsers.add_parser(
        "ladder",
        help="play every level against every other and rate them (Elo)",
        description="Play N games for every pair of bots, fit Elo ratings, print them, and "
        "write ladder.md (markdown) and ladder.png (a plot) to the output directory.",
    )
    _common(ladder, games=100, what="games a pairing")
    ladder.add_argument(
        "--bots",
        default="easy,medium,hard,expert",
        help="comma-separated bots, weakest first (easy,medium,hard,expert)",
    )
    ladder.add_argument(
        "--expert-budget",
        type=float,
        default=None,
        help="Expert's seconds a turn in the ladder (its default, 1.0, makes a ladder with "
        "Expert take about a minute a game; 0.05 is quick)",
    )
    ladder.add_argument("--out", type=Path, default=Path("."), help="output directory (.)")
    ladder.set_defaults(handler=_ladder)


def _common(parser: argparse.ArgumentParser, games: int | None, what: str) -> None:
    shown = what if games is None else f"{what} ({games})"
    parser.add_argument("--games", type=positive, default=games, help=shown)
    parser.add_argument("--seed", type=seed, default=1, help="seed of the first deal (1)")
    parser.add_argument("--jobs", type=positive, default=1, help="worker processes (1)")
    parser.add_argument(
        "--rules", choices=sorted(PRESETS), default="standard", help="rules preset (standard)"
    )


def _hint(args: argparse.Namespace) -> int:
    from ..bots.hints import hint
    from .engine_commands import read_position

    game = Game.from_position(read_position(args.position), seed=0)
    advice = hint(game.observation(game.to_move))
    print(" ".join(str(move) for move in advice.moves))
    print(advice.reason)
    return 0


def _check_bots(command: str, names: Sequence[str]) -> bool:
    """Build each bot once, so that a mistyped name fails before any game is played."""
    from ..bot_registry import make_bot
    from ..bots.base import BotError

    for name in names:
        try:
            make_bot(name).close()
        except (ValueError, BotError) as error:
            print(f"spite-malice {command}: {error}", file=sys.stderr)
            return False
    return True


def _rules(args: argparse.Namespace) -> Rules:
    return PRESETS[args.rules]


def _arena(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from ..arena.report import summary_table
    from ..arena.stats import summarize
    from ..arena.tournament import run_arena

    if args.sprt is not None:
        return _arena_sprt(args)
    for option, value in (("--alpha", args.alpha), ("--beta", args.beta)):
        if value is not None:
            raise ArgumentError(
                _("{option} is a rate of the SPRT: give it with --sprt ELO0,ELO1", option=option)
            )
    if not _check_bots("arena", (args.bot_a, args.bot_b)):
        return 2
    if args.games is None:
        args.games = 200
    done = _resumed(args)
    if done is None:
        return 2
    console = Console()
    total = args.games + args.games % 2
    try:
        with (
            _csv_record(args, done) as record,
            Progress(console=console, transient=True) as progress,
        ):
            task = progress.add_task(f"{args.bot_a} v {args.bot_b}", total=total)
            progress.advance(task, len(done))
            results = run_arena(
                args.bot_a,
                args.bot_b,
                args.games,
                args.seed,
                jobs=args.jobs,
                rules=_rules(args),
                progress=lambda games: progress.advance(task, games),
                done=done,
                record=record,
            )
    except ValueError as error:
        print(f"spite-malice arena: {args.resume} does not fit this run: {error}", file=sys.stderr)
        return 2
    summary = summarize(results, args.bot_a, args.bot_b)
    console.print(summary_table(summary, _resume_rows(args, results)))
    _write_csv(console, args, results)
    return 0


def _resumed(args: argparse.Namespace) -> list[GameResult] | None:
    """The games of ``--resume FILE.csv`` (none without it); None, with the reason printed,
    when the file cannot be continued."""
    from ..arena.report import ResumeError, read_csv

    if args.resume is None:
        return []
    try:
        return list(read_csv(args.resume, args.bot_a, args.bot_b))
    except ResumeError as error:
        print(f"spite-malice arena: {error}", file=sys.stderr)
        return None


@contextmanager
def _csv_record(
    args: argparse.Namespace, done: list[GameResult]
) -> Iterator[Callable[[Iterable[GameResult]], None] | None]:
    """What writes each finished pair to ``--csv`` (or the ``--resume`` file), which holds
    the games already played (a :class:`~spite_malice.arena.report.CsvLog`), or None without
    a file; the file is closed when the run ends, however it ends. A run stopped by Ctrl+C,
    or by ``kill`` as if by Ctrl+C, says where its games are."""
    from ..arena.report import CsvLog

    path = args.csv if args.csv is not None else args.resume
    with _stop_on_terminate():
        try:
            log = None if path is None else CsvLog(path, args.bot_a, args.bot_b, done)
            try:
                yield None if log is None else log.add
            finally:
                if log is not None:
                    log.close()
        except KeyboardInterrupt:  # told from the file as it was closed
            print(f"spite-malice arena: {_stopped_text(args, path)}", file=sys.stderr)
            raise


@contextmanager
def _stop_on_terminate() -> Iterator[None]:
    """While the block runs, ``kill`` (SIGTERM) stops the command as Ctrl+C does, so that
    its worker processes are stopped with it (rather than left to fail writing to a closed
    pipe) and the games so far stay in the file. Only where Python may set the handler (the
    main thread) and nobody has set another."""
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stopped_text(args: argparse.Namespace, path: Path | None) -> str:
    """What a stopped run tells the player: where its games are, and how to go on."""
    from ..arena.report import ResumeError, read_csv

    if path is None:
        return "stopped (no --csv file: the games are not kept)"
    if not path.exists():  # stopped before the file was made
        return f"stopped before a pair of games finished; nothing was written to {path}"
    try:
        kept = len(read_csv(path, args.bot_a, args.bot_b))
    except ResumeError:  # a bot against itself: kept, but not to be resumed
        return f"stopped; the games finished are in {path}"
    if kept == 0:
        return f"stopped before a pair of games finished; {path} holds none"
    return (
        f"stopped; the {kept} games finished are in {path}, "
        f"and the same command with --resume {path} goes on from them"
    )


def _write_csv(console: Console, args: argparse.Namespace, results: list[GameResult]) -> None:
    """The run's CSV again, now in deal order."""
    from ..arena.report import write_csv

    path = args.csv if args.csv is not None else args.resume
    if path is not None:
        write_csv(path, results, args.bot_a, args.bot_b)
        console.print(f"wrote {path}")


def _resume_rows(args: argparse.Namespace, results: list[GameResult]) -> list[tuple[str, str]]:
    if args.resume is None:
        return []
    counted = sum(result.recorded_times is not None for result in results)
    return [
        (
            "resumed",
            f"{counted} games read from {args.resume}, {len(results) - counted} played now; "
            "the times are those of the games played now",
        )
    ]


SPRT_ERROR_RATE = 0.05
"""The SPRT's false-H1 and false-H0 rates unless --alpha and --beta say otherwise."""

SPRT_LINE_EVERY = 10
"""Pairs between the lines an SPRT run prints."""


def _arena_sprt(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from ..arena.report import sprt_rows, sprt_text, summary_table
    from ..arena.sprt import Sprt, parse_sprt
    from ..arena.stats import summarize
    from ..arena.tournament import SprtState, run_sprt

    try:
        elo0, elo1 = parse_sprt(args.sprt)
        alpha = SPRT_ERROR_RATE if args.alpha is None else args.alpha
        beta = SPRT_ERROR_RATE if args.beta is None else args.beta
        test = Sprt(elo0, elo1, alpha, beta)
    except ValueError as error:
        print(f"spite-malice arena: {error}", file=sys.stderr)
        return 2
    max_games = 20_000 if args.games is None else args.games
    if max_games < 2:
        print("spite-malice arena: --sprt needs --games of at least 2", file=sys.stderr)
        return 2
    if not _check_bots("arena", (args.bot_a, args.bot_b)):
        return 2
    done = _resumed(args)
    if done is None:
        return 2
    console = Console()
    console.print(
        f"{args.bot_a} v {args.bot_b}: SPRT H0 {elo0:+g} Elo, H1 {elo1:+g} Elo, at most "
        f"{max_games - max_games % 2} games from deal {args.seed}"
    )
    try:
        with (
            _csv_record(args, done) as record,
            Progress(console=console, transient=True) as progress,
        ):
            task = progress.add_task(f"{args.bot_a} v {args.bot_b}", total=max_games // 2 * 2)

            def report(state: SprtState) -> None:
                progress.update(task, advance=2, description=f"LLR {state.llr:+.2f}")
                if state.decision is not None or sum(state.pairs) % SPRT_LINE_EVERY == 0:
                    console.print(sprt_text(test, state))

            results, state = run_sprt(
                args.bot_a,
                args.bot_b,
                test,
                args.seed,
                max_games=max_games,
                jobs=args.jobs,
                rules=_rules(args),
                progress=report,
                done=done,
                record=record,
            )
    except ValueError as error:
        print(f"spite-malice arena: {args.resume} does not fit this run: {error}", file=sys.stderr)
        return 2
    summary = summarize(results, args.bot_a, args.bot_b)
    rows = [*sprt_rows(test, state), *_resume_rows(args, results)]
    console.print(summary_table(summary, rows))
    _write_csv(console, args, results)
    return 0


def _ladder(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import Progress

    from ..arena.ladder import run_ladder
    from ..arena.report import ladder_markdown, ladder_plot, ladder_tables

    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    if args.expert_budget is not None:
        names = [f"expert:{args.expert_budget}" if n == "expert" else n for n in names]
    if not _check_bots("ladder", names):
        return 2
    console = Console()
    pairs = len(names) * (len(names) - 1) // 2
    total = pairs * (args.games + args.games % 2)
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("ladder", total=total)

        def advance(label: str, done: int) -> None:
            progress.update(task, description=label, advance=done)

        result = run_ladder(
            names, args.games, args.seed, jobs=args.jobs, rules=_rules(args), progress=advance
        )
    elo, pairings = ladder_tables(result)
    console.print(elo)
    console.print(pairings)
    args.out.mkdir(parents=True, exist_ok=True)
    markdown = args.out / "ladder.md"
    markdown.write_text(ladder_markdown(result), encoding="utf-8")
    plot = args.out / "ladder.png"
    ladder_plot(result, plot)
    console.print(f"wrote {markdown} and {plot}")
    return 0
