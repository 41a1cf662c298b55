"""Terminal subcommand: ``play`` opens the full-screen game against the computer."""

from __future__ import annotations

import argparse
from typing import Any

from ..engine.errors import ArgumentError
from ..engine.rules import PRESETS
from ..i18n import _
from .arguments import payoff_size, positive, seconds, seed


def player_name(text: str) -> str:
    """``--name``: a name anyone can see (``names.check_name``), its white space folded."""
    from ..names import check_name, clean_name

    problem = check_name(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return clean_name(text)


def register(subparsers: Any) -> None:
    from ..table import default_level, levels

    play = subparsers.add_parser(
        "play",
        help="play against the computer, full screen in the terminal",
        description="Open the terminal game: a match against the computer. An unfinished "
        "match is resumed; games and statistics go to the same database as the browser game.",
    )
    play.add_argument(
        "--level",
        choices=levels(),
        default=None,
        help=f"the computer's level for a new match ({default_level()})",
    )
    play.add_argument(
        "--rules",
        choices=sorted(PRESETS),
        default="standard",
        help="a rules preset for a new match: standard, or quick (10-card pay-off piles)",
    )
    play.add_argument(
        "--payoff-size", type=payoff_size, default=None, help="cards in each pay-off pile, 5 to 30"
    )
    play.add_argument("--target", type=positive, default=None, help="points that win the match")
    play.add_argument("--seed", type=seed, default=None, help="seed of a new match (repeatable)")
    play.add_argument("--name", type=player_name, default="You", help="your name in records (You)")
    play.add_argument("--ascii", action="store_true", help="plain ASCII cards and borders")
    play.add_argument(
        "--delay",
        type=seconds,
        default=0.6,
        help="seconds between the computer's moves (0.6)",
    )
    play.add_argument(
        "--db",
        default=None,
        help="database URL or SQLite file for games and statistics (the browser game's)",
    )
    play.add_argument("--no-db", action="store_true", help="keep no games or statistics")
    play.add_argument(
        "--player",
        default=None,
        help="your player id in the database (default: the terminal's own local player)",
    )
    play.add_argument(
        "--new", action="store_true", help="start a new match even if one is unfinished"
    )
    play.set_defaults(handler=_play)


def _play(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..table import default_level
    from ..tui.app import SpiteMaliceApp
    from ..tui.persistence import NoPersistence, Persistence
    from ..tui.screens import TableSettings
    from ..tui.session import MatchSetup
    from .errors import need_a_terminal, stdout_is_a_terminal

    given = [name for name, value in (("--db", args.db), ("--player", args.player)) if value]
    if args.no_db and given:
        raise ArgumentError(
            _("--no-db keeps nothing: {option} says where to keep it", option=given[0])
        )
    if not stdout_is_a_terminal():
        raise ArgumentError(need_a_terminal("play"))
    rules = PRESETS[args.rules]
    if args.payoff_size is not None or args.target is not None:
        try:
            rules = replace(
                rules,
                payoff_size=args.payoff_size if args.payoff_size is not None else rules.payoff_size,
                match_target=args.target if args.target is not None else rules.match_target,
            )
        except ValueError as error:
            raise ArgumentError(str(error)) from None  # a match target the rules refuse
    setup = MatchSetup(
        rules=rules, level=args.level or default_level(), seed=args.seed, player=args.name
    )
    persistence: Persistence = NoPersistence()
    if not args.no_db:
        from ..tui.store_link import StorePersistence

        persistence = StorePersistence.open(args.db, args.player)
    app = SpiteMaliceApp(
        setup,
        settings=TableSettings(ascii_only=args.ascii, move_delay=max(0.0, args.delay)),
        persistence=persistence,
        resume=not args.new,
        offer_tutorial=True,
    )
    app.run()
    return 0
