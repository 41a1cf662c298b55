"""Bot subcommands: ``hint``, ``arena`` and ``ladder``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..engine.errors import NotationError
from ..engine.game import Game
from ..engine.rules import PRESETS, Rules


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
        "takes 24 samples a search by default), reference, or a program path.",
    )
    arena.add_argument("bot_a", metavar="BOT_A")
    arena.add_argument("bot_b", metavar="BOT_B")
    _common(arena, games=200, what="games, played as pairs of deals")
    arena.add_argument("--csv", type=Path, help="write one row per game to this CSV file")
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


def _common(parser: argparse.ArgumentParser, games: int, what: str) -> None:
    parser.add_argument("--games", type=_positive, default=games, help=f"{what} ({games})")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal (1)")
    parser.add_argument("--jobs", type=_positive, default=1, help="worker processes (1)")
    parser.add_argument(
        "--rules", choices=sorted(PRESETS), default="standard", help="rules preset (standard)"
    )


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise NotationError("JSON file", str(path), str(error)) from None


def _hint(args: argparse.Namespace) -> int:
    from ..bots.hints import hint

    game = Game.from_position(_read_json(args.position), seed=0)
    advice = hint(game.observation(game.to_move))
    print(" ".join(str(move) for move in advice.moves))
    print(advice.reason)
    return 0


def _check_bots(command: str, names: Sequence[str]) -> bool:
    """Build each bot once, so that a mistyped name fails before any game is played."""
    from ..bots.base import BotError, make_bot

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

    from ..arena.report import summary_table, write_csv
    from ..arena.stats import summarize
    from ..arena.tournament import run_arena

    if not _check_bots("arena", (args.bot_a, args.bot_b)):
        return 2
    console = Console()
    total = args.games + args.games % 2
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"{args.bot_a} v {args.bot_b}", total=total)
        results = run_arena(
            args.bot_a,
            args.bot_b,
            args.games,
            args.seed,
            jobs=args.jobs,
            rules=_rules(args),
            progress=lambda done: progress.advance(task, done),
        )
    summary = summarize(results, args.bot_a, args.bot_b)
    console.print(summary_table(summary))
    if args.csv is not None:
        write_csv(args.csv, results, args.bot_a, args.bot_b)
        console.print(f"wrote {args.csv}")
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
