"""Engine subcommands: ``replay`` and ``moves`` (the engine's speed is measured by
``benchmarks/engine.py``, outside the package)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..engine.errors import ArgumentError, NotationError
from ..engine.events import CardBuilt, CardDiscarded, GameDealt, TurnEnded
from ..engine.game import Game
from ..engine.jsontext import load_json
from ..engine.record import GameRecord
from ..engine.rules import TURN_LIMIT


def register(subparsers: Any) -> None:
    # ``replay`` is registered by replay_commands: on a terminal it opens the replay screen,
    # otherwise (or with --text) it prints the game with print_record below.

    moves = subparsers.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="Print the legal moves of a position (JSON), one a line.",
    )
    moves.add_argument("position", type=Path, help="a position, POSITION.json")
    moves.set_defaults(handler=_moves)


def _read_json(path: Path) -> Any:
    """The JSON value in the file; any failure to read it is one sentence naming the file
    (JSON nested too deeply and numbers of thousands of digits included)."""
    from ..i18n import _

    try:
        return load_json(path.read_text(encoding="utf-8"), "JSON file")
    except UnicodeDecodeError:
        message = _("invalid JSON file {file}: not UTF-8 text", file=repr(str(path)))
        raise ArgumentError(message) from None
    except NotationError as error:
        raise ArgumentError(
            _("invalid JSON file {file}: {reason}", file=repr(str(path)), reason=error.reason)
        ) from None


RECORD_KEYS = frozenset({"format", "moves", "players", "seed"})
"""Keys every game record has (notation.md) and no position has."""


def read_position(path: Path) -> Any:
    """The position in a JSON file; a game record given instead is refused as such."""
    from ..i18n import _

    data = _read_json(path)
    if isinstance(data, dict) and data.keys() >= RECORD_KEYS:
        raise ArgumentError(
            _(
                "{file} is a game record, not a position: 'spite-malice replay {file}' "
                "shows it move by move",
                file=str(path),
            )
        )
    return data


def print_record(args: argparse.Namespace) -> int:
    """``replay RECORD.json --text``: the game move by move as text."""
    record = GameRecord.from_json(_read_json(args.record))
    game = record.replay()
    for line in describe_game(game, record.players):
        print(line)
    return 0


def describe_game(game: Game, names: tuple[str, str]) -> list[str]:
    """The game's events as readable lines in the player's language: a heading per turn,
    each move with its notation."""
    from ..i18n import _
    from ..tui.event_text import describe_event

    options = ", ".join(f"{key}={value}" for key, value in game.rules.to_json().items())
    # TRANSLATORS: the heading of a record printed by "replay --text"; {rules} is the rules'
    # options in notation (payoff_size=10 ...) or the word "standard"
    heading = _("{first} v {second}, seed {seed}, rules: {rules}", first=names[0],
                second=names[1], seed=game.seed, rules=options or _("standard"))  # fmt: skip
    lines = [heading]
    moves = iter(game.moves)
    for event in game.events:
        if isinstance(event, GameDealt):
            lines.append(_("Turn {turn}, {name}", turn=1, name=names[event.first]))
            continue
        if isinstance(event, TurnEnded):
            if event.turn < TURN_LIMIT:
                turn, name = event.turn + 1, names[1 - event.player]
                lines.append(_("Turn {turn}, {name}", turn=turn, name=name))
            continue
        text = describe_event(event, names)
        notation = str(next(moves)) if isinstance(event, CardBuilt | CardDiscarded) else ""
        lines.append(f"  {notation:<6} {text}")
    return lines


def _moves(args: argparse.Namespace) -> int:
    game = Game.from_position(read_position(args.position))
    for move in game.legal_moves():
        print(move)
    return 0
