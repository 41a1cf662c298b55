"""Daily deal subcommand: ``daily`` plays today's deal in the terminal; ``daily --stats``
prints the daily statistics (``docs/terminal.md``, "The daily deal")."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..engine.errors import ArgumentError
from ..i18n import _, format_date, format_number, ngettext
from .arguments import seconds
from .tui_commands import player_name


def register(subparsers: Any) -> None:
    from ..table import default_level, levels

    daily = subparsers.add_parser(
        "daily",
        help="today's daily deal: the same cards for everyone, one game a day",
        description="Play today's daily deal against the computer, full screen in the "
        "terminal: one deal a day (the UTC date's), the same for every player, in the "
        "terminal and the browser; one game, one try. Its results count apart from your other "
        "statistics (the deal is known), with their own: days played and won, the streak of "
        "days won, the best score. --stats prints them.",
    )
    daily.add_argument(
        "--level",
        choices=levels(),
        default=None,
        help=f"the computer's level ({default_level()})",
    )
    daily.add_argument("--stats", action="store_true", help="print your daily statistics")
    daily.add_argument("--json", action="store_true", help="with --stats: as JSON")
    daily.add_argument("--name", type=player_name, default="You", help="your name in records (You)")
    daily.add_argument("--ascii", action="store_true", help="plain ASCII cards and borders")
    daily.add_argument(
        "--delay", type=seconds, default=0.6, help="seconds between the computer's moves (0.6)"
    )
    daily.add_argument(
        "--db", default=None, help="database URL or SQLite file (the browser game's)"
    )
    daily.add_argument(
        "--player", default=None, help="your player id there (default: the terminal's own)"
    )
    daily.set_defaults(handler=_daily)


def _wait(seconds: int) -> str:
    hours, minutes = seconds // 3600, (seconds % 3600) // 60
    if hours:
        return _("{hours} h {minutes} min", hours=hours, minutes=minutes)
    return _("{minutes} min", minutes=max(minutes, 1))


def _result_text(outcome: str, points: int) -> str:
    if outcome == "win":
        return ngettext("you won, {n} point", "you won, {n} points", points)
    return _("you lost") if outcome == "loss" else _("a draw")


def _daily(args: argparse.Namespace) -> int:
    from ..daily import DAILY_RULES, daily_seed, seconds_to_next, today
    from ..store import ABANDONED, FINISHED
    from ..store.daily import daily_match, player_daily_stats
    from ..table import default_level
    from ..tui.app import SpiteMaliceApp
    from ..tui.screens import TableSettings
    from ..tui.session import MatchSetup
    from ..tui.store_link import StorePersistence
    from .errors import need_a_terminal, stdout_is_a_terminal

    if args.json and not args.stats:
        raise ArgumentError(_("--json prints the statistics as JSON: give it with --stats"))
    day = today()
    persistence = StorePersistence.open(args.db, args.player)
    try:
        store, player = persistence.store, persistence.player
        stats = player_daily_stats(store, player, day)
        if args.stats:
            from ..tui.language import apply_language, choose_language

            apply_language(choose_language(persistence))  # the player's setting, else the locale
            persistence.close()
            if args.json:
                print(json.dumps({"date": day.isoformat(), "stats": stats.to_json()}))
                return 0
            print(_("The daily deal of {date} (UTC).", date=format_date(day)))
            if stats.today is not None:
                result = _result_text(stats.today.outcome, stats.today.points)
                print(_("Today: {result}.", result=result))
            number = format_number
            print(
                _(
                    "Days played {played}, won {won}; days won in a row {streak} (best {best}); "
                    "best score {score}.",
                    played=number(stats.days_played),
                    won=number(stats.days_won),
                    streak=number(stats.current_streak),
                    best=number(stats.best_streak),
                    score=number(stats.best_score),
                )
            )
            return 0
        found = daily_match(store, player, day)
        if found is not None and found.status in (FINISHED, ABANDONED):
            done = stats.today
            wait = _wait(seconds_to_next())
            if done:
                raise ArgumentError(
                    _(
                        "you have played today's deal ({result}); the next one is dealt at "
                        "midnight UTC, in {wait}",
                        result=_result_text(done.outcome, done.points),
                        wait=wait,
                    )
                )
            raise ArgumentError(
                _(
                    "you have played today's deal; the next one is dealt at midnight UTC, "
                    "in {wait}",
                    wait=wait,
                )
            )
        if found is not None and found.source != "terminal":
            raise ArgumentError(
                _("you have started today's deal in the browser: go on with it there")
            )
        if not stdout_is_a_terminal():  # told after what the store says of today's deal
            raise ArgumentError(need_a_terminal("daily"))
    except BaseException:
        if not args.stats:
            persistence.close()
        raise
    setup = MatchSetup(
        rules=DAILY_RULES,
        level=args.level or default_level(),
        seed=daily_seed(day),
        player=args.name,
        daily=day.isoformat(),
    )
    app = SpiteMaliceApp(
        setup,
        settings=TableSettings(ascii_only=args.ascii, move_delay=max(0.0, args.delay)),
        persistence=persistence,
        # today's match, started earlier in the terminal, is the latest unfinished one there
        resume=found is not None,
        fresh=found is None,  # any other unfinished match stays as it is
    )
    app.run()
    return 0
