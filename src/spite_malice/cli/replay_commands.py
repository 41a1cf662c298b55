"""Replay subcommand: ``replay RECORD.json`` (or a stored game) on the terminal's table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..engine.errors import ArgumentError, quote
from ..engine.record import GameRecord
from ..i18n import N_, _, format_datetime, ngettext
from .arguments import positive

OUTCOME_WORDS = {"win": N_("won"), "loss": N_("lost"), "draw": N_("drawn")}
"""A stored game's outcome in ``replay --list``."""


def register(subparsers: Any) -> None:
    replay = subparsers.add_parser(
        "replay",
        help="replay a game move by move on the terminal's table",
        description="Open a game's replay full screen: a record file (the JSON of "
        "notation.md, such as one downloaded from the browser game), or one of your stored "
        "games (the terminal's own history). Keys: right/left step, Home/End, Space plays, "
        "+/- speed, t jumps to a turn, s shows the other seat, q closes. When the output is "
        "not a terminal (or with --text), a record file is printed move by move instead.",
    )
    replay.add_argument("record", nargs="?", type=Path, help="a game record, RECORD.json")
    replay.add_argument(
        "--seat", default=None, help="the seat to watch from, 0 or 1 (default: yours, else 0)"
    )
    replay.add_argument(
        "--game", type=positive, default=None, help="a stored game's number (see --list)"
    )
    replay.add_argument(
        "--list", action="store_true", help="list your stored finished games and exit"
    )
    replay.add_argument("--last", action="store_true", help="replay your last stored game")
    replay.add_argument("--ascii", action="store_true", help="plain ASCII cards and borders")
    replay.add_argument(
        "--text", action="store_true", help="print a record file move by move, no screen"
    )
    replay.add_argument(
        "--db", default=None, help="database URL or SQLite file of your games (the default one)"
    )
    replay.add_argument(
        "--player", default=None, help="your player id there (default: the terminal's own)"
    )
    replay.set_defaults(handler=_replay)
    verify = subparsers.add_parser(
        "verify",
        help="check a finished game's deal against the commitment shown at its deal",
        description="Check a game record (the JSON of notation.md, as the browser game gives "
        "it at the end of a game): the seed and salt it reveals must make the commitment the "
        "table showed from the deal on, and the game dealt again from the seed must replay "
        "every move with the record's result (docs/verifying.md). Prints what matched or did "
        "not, one sentence a check; exits 0 when everything matched, 1 otherwise.",
    )
    verify.add_argument("record", type=Path, help="a game record, RECORD.json")
    verify.set_defaults(handler=_verify)


def _verify(args: argparse.Namespace) -> int:
    from ..verify import verify_text

    path: Path = args.record
    verification = verify_text(path.read_bytes())
    for check in verification.checks:
        print(("✓ " if check.ok else "✗ ") + check.text)
    print(_("The deal is verified.") if verification.ok else _("The deal is NOT verified."))
    return 0 if verification.ok else 1


def _seat(text: str | None, default: int) -> int:
    if text is None:
        return default
    if text not in ("0", "1"):
        raise ArgumentError(_("the seat must be 0 or 1, not {seat}", seat=quote(text)))
    return int(text)


def _stored(args: argparse.Namespace) -> tuple[GameRecord, int] | None:
    """The stored game asked for (``--game`` or ``--last``), or None after ``--list``."""
    from ..store import Store
    from ..store.history import finished_games, game_record

    with Store.open(args.db) as store:
        player = args.player or store.local_player().id
        games = finished_games(store, player)
        if args.list:
            if not games:
                print(_("No finished games are stored for you yet."))
            for entry in games:
                opponent = entry.players[1 - entry.seat]
                when = format_datetime(entry.finished_at, style="short")
                outcome = entry.outcome
                outcome = _(OUTCOME_WORDS[outcome]) if outcome in OUTCOME_WORDS else outcome
                against = ngettext(
                    "{outcome} against {name} ({level}, {n} move)",
                    "{outcome} against {name} ({level}, {n} moves)",
                    entry.moves,
                    outcome=outcome,
                    name=opponent,
                    level=entry.level,
                )
                print(f"{entry.id:>6}  {when}  {against}")
            return None
        if args.game is None:
            if not games:
                raise ArgumentError(_("no finished game is stored for you yet"))
            wanted = games[0].id
        else:
            wanted = args.game
        found = game_record(store, player, wanted)
        if found is None:
            raise ArgumentError(
                _("there is no finished game {number} of yours (see --list)", number=wanted)
            )
        return found


def _check_options(args: argparse.Namespace) -> None:
    """Refuse options that make no sense together, saying why, before anything is read."""
    if args.seat is not None:
        _seat(args.seat, 0)
    stored = [name for name, given in (("--game", args.game is not None),
              ("--last", args.last), ("--list", args.list)) if given]  # fmt: skip
    if args.record is not None and stored:
        message = _(
            "{option} picks one of your stored games: give it or a record file, not both",
            option=stored[0],
        )
        raise ArgumentError(message)
    if len(stored) > 1:
        raise ArgumentError(
            _("{first} and {second} cannot go together", first=stored[0], second=stored[1])
        )
    if args.text and args.record is None:
        raise ArgumentError(_("--text prints a record file: give one, RECORD.json"))
    if args.text and args.seat is not None:
        raise ArgumentError(
            _("--text prints every move of both seats: --seat is for the replay screen")
        )
    if args.list and (args.seat is not None or args.ascii):
        raise ArgumentError(_("--list only lists your stored games: it shows no replay"))


def _replay(args: argparse.Namespace) -> int:
    from ..replay import ReplayError, read_record, replay_frames
    from .errors import need_a_terminal, stdout_is_a_terminal

    _check_options(args)
    if args.record is not None and (args.text or not sys.stdout.isatty()):
        from .engine_commands import print_record

        return print_record(args)
    if args.record is not None:
        try:
            data = args.record.read_bytes()
        except OSError as error:
            reason = error.strerror or _("it cannot be read")
            message = _("cannot read {file}: {reason}", file=args.record, reason=reason)
            print(f"spite-malice replay: {message}", file=sys.stderr)
            return 2
        try:
            record = read_record(data)
        except ReplayError as error:
            print(f"spite-malice replay: {error}", file=sys.stderr)
            return 2
        seat = _seat(args.seat, 0)
    else:
        stored = _stored(args)
        if stored is None:
            return 0
        record, mine = stored
        seat = _seat(args.seat, mine)
    try:
        frames = replay_frames(record)
    except ReplayError as error:
        print(f"spite-malice replay: {error}", file=sys.stderr)
        return 2
    if not stdout_is_a_terminal():  # a stored game: there is no text form to fall back on
        raise ArgumentError(need_a_terminal("replay"))
    from ..tui.replay_app import ReplayApp

    ReplayApp(frames, record.players, seat=seat, ascii_only=args.ascii).run()
    return 0
