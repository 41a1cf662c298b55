"""Replays: a game record (``notation.md``) turned into the table after every move.

Front ends hold no rules: the browser asks the server for a record's frames and the terminal
calls :func:`replay_frames` itself. A frame is the whole table with every card face up (a
replay is of a game that is over, or of a record file whose seed tells every card anyway),
the move that led to it, who played it and its events.

:func:`read_record` checks a record from an untrusted file (its size, its text, its JSON,
its moves' count) and :func:`replay_frames` checks every move and the result, so a bad or
hostile file gets one clear sentence (a :class:`ReplayError`) and never a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .engine import events as ev
from .engine.cards import Card, card_str
from .engine.errors import GameOverError, IllegalMoveError, NotationError, SpiteMaliceError
from .engine.game import Game, Outcome
from .engine.jsontext import load_json
from .engine.observation import center_json
from .engine.reasons import Reason
from .engine.record import FORMAT, GameRecord
from .engine.seeds import SEED_LIMIT, is_seed
from .i18n import N_, _, format_number
from .names import CONTROL, describe_name_problem, name_problem
from .table.table import RESIGNED
from .table.words import rules_problem, say_reason

MAX_RECORD_BYTES = 64 * 1024
"""The largest record file a replay reads (a 1,000-turn game's record is well under it)."""
MAX_MOVES = 8_000
"""The most moves a replayed record may hold."""


class ReplayError(SpiteMaliceError, ValueError):
    """A record that cannot be replayed; its message is a plain sentence for a player."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after ``index`` moves of the game (0: as dealt), every card face up."""

    index: int
    move: str | None
    """The move that led here (None for the deal)."""
    seat: int | None
    """Who played it (None for the deal)."""
    turn: int
    """The turn the move was played in (the game's count, 1 for the first turn)."""
    to_move: int
    table: dict[str, Any]
    """``to_move``, ``turn``, ``stock_count``, ``center`` (with ``center_takes`` and
    ``center_left`` as an observation has them) and ``players`` (each with its
    ``payoff`` pile bottom to top, ``hand`` and ``side`` stacks), cards in notation, and the
    ``outcome`` once the game is over."""
    events: tuple[ev.Event, ...]

    @property
    def player_turn(self) -> int:
        """The mover's own count of its turns (1 for its first), as the end of a game and
        the analysis count them: turns alternate (R2), so each player's turn ``n`` is the
        game's turn ``2n - 1`` or ``2n``."""
        return (self.turn + 1) // 2

    def to_json(self) -> dict[str, Any]:
        """The frame without its events (the web adds them in its protocol's form)."""
        return {
            "index": self.index,
            "move": self.move,
            "seat": self.seat,
            "turn": self.turn,
            "player_turn": self.player_turn,
            "to_move": self.to_move,
            "table": self.table,
        }


def read_record(data: str | bytes) -> GameRecord:
    """The record in an untrusted file's contents; a :class:`ReplayError` saying what is
    wrong with a file that is too large, not text, not JSON or not a game record."""
    if len(data) > MAX_RECORD_BYTES:
        raise ReplayError(
            _(
                "This file is too large to be a game record (over {size} KB).",
                size=MAX_RECORD_BYTES // 1024,
            )
        )
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ReplayError(_("This file is not a game record: it is not text.")) from None
    try:
        parsed = load_json(data, "record")
    except SpiteMaliceError:
        raise ReplayError(_("This file is not a game record: it is not JSON.")) from None
    return check_record(parsed)


def check_record(data: object) -> GameRecord:
    """A record from parsed JSON, refused with a plain sentence when it is not one."""
    if not isinstance(data, dict):
        raise ReplayError(_("This file is not a game record: it holds no record object."))
    problem = _record_problem(data)
    if problem is not None:
        # TRANSLATORS: {problem} is one sentence saying which part of the record is wrong
        raise ReplayError(_("This file is not a game record. {problem}", problem=problem))
    try:
        record = GameRecord.from_json(data)
    except SpiteMaliceError:  # what _record_problem does not foresee: no English reason
        raise ReplayError(
            _("This file is not a game record: {reason}", reason=_ending(_("it is malformed")))
        ) from None
    if len(record.moves) > MAX_MOVES:
        raise ReplayError(
            _("This record has more moves than a game can have ({count}).", count=MAX_MOVES)
        )
    return record


def _record_problem(data: dict[str, Any]) -> str | None:
    """What is wrong with a record object, in one sentence in the current language (the
    checks of ``GameRecord.from_json``, whose reasons are English), or None."""
    if "format" not in data:
        return _('It has no "format" (a game record has "format": {format}).', format=FORMAT)
    version = data["format"]
    if type(version) is not int or version != FORMAT:
        return _("Its format must be {format}.", format=FORMAT)
    if not is_seed(data.get("seed")) or type(data.get("seed")) is not int:
        return _(
            "Its seed must be a whole number from 0 to {limit}.",
            limit=format_number(SEED_LIMIT - 1),
        )
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        return _("Its moves must be a list of moves, each one text.")
    players = data.get("players", ["", ""])
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(name, str) for name in players)
    ):
        return _("Its players must be a list of two names.")
    for name in players:  # shown beside the table: nothing in it may hide or turn text round
        if name_problem(name) == CONTROL:
            return describe_name_problem(CONTROL)
    first = data.get("first")
    if first is not None and (type(first) is not int or first not in (0, 1)):
        return _("Its first player must be 0 or 1.")
    if data.get("rules") is not None:
        problem = rules_problem(data["rules"])
        if problem is not None:
            return problem
    result = data.get("result")
    if result is not None and (
        not isinstance(result, dict)
        or result.get("winner") not in (None, 0, 1)
        or type(result.get("winner")) not in (type(None), int)  # false is not 0
        or type(result.get("points")) is not int
        or result["points"] < 0
        or not isinstance(result.get("reason"), str)
    ):
        return _("Its result must be an object with a winner, points and a reason.")
    return None


def replay_frames(record: GameRecord) -> list[Frame]:
    """The table as dealt and after each move, checking every move and the result."""
    try:
        game = Game.new(record.seed, record.rules, first=record.first, recording=True)
    except SpiteMaliceError as error:
        # TRANSLATORS: {reason} is the engine's, in English, ending with a full stop
        raise ReplayError(
            _("This record cannot be dealt: {reason}", reason=_sentence(error))
        ) from None
    frames = [_frame(game, 0, None, None, game.turn, tuple(game.events))]
    for number, move in enumerate(record.moves, start=1):
        seat, turn, seen = game.to_move, game.turn, len(game.events)
        try:
            game.play(move)
        except SpiteMaliceError as error:
            raise ReplayError(
                # TRANSLATORS: {problem} is why, a clause ending with a full stop
                _(
                    "Move {number} of this record cannot be played: {problem}",
                    number=number,
                    problem=_move_problem(error),
                )
            ) from None
        frames.append(_frame(game, number, str(move), seat, turn, tuple(game.events[seen:])))
    _check_result(record, game, frames)
    return frames


def final_table(record: GameRecord) -> dict[str, Any]:
    """The table at the end of the record (the last frame's), for checks and tests."""
    return replay_frames(record)[-1].table


def _check_result(record: GameRecord, game: Game, frames: list[Frame]) -> None:
    result = record.result
    if result is not None and result.reason == RESIGNED and not game.is_over:
        # a resigned game ends where it stood: its moves do not finish it
        if result.winner is None or result.points != 0:
            raise ReplayError(_("This record's resignation is malformed."))
        last = frames[-1]
        frames[-1] = Frame(
            last.index,
            last.move,
            last.seat,
            last.turn,
            last.to_move,
            {**last.table, "outcome": result.to_json()},
            last.events,
        )
        return
    if result is not None and game.outcome != result:
        raise ReplayError(_("This record's result does not follow from its moves."))


def _frame(
    game: Game,
    index: int,
    move: str | None,
    seat: int | None,
    turn: int,
    events: tuple[ev.Event, ...],
) -> Frame:
    return Frame(index, move, seat, turn, game.to_move, _table(game), events)


def _table(game: Game) -> dict[str, Any]:
    return {
        "to_move": game.to_move,
        "turn": game.turn,
        "stock_count": len(game.stock),
        "center": [_names(stack) for stack in game.center],
        **center_json(game.center),
        "players": [
            {
                "payoff": _names(player.payoff),
                "hand": sorted(_names(player.hand)),
                "side": [_names(pile) for pile in player.side],
            }
            for player in game.players
        ],
        "outcome": _outcome(game.outcome),
    }


def _outcome(outcome: Outcome | None) -> dict[str, Any] | None:
    return None if outcome is None else outcome.to_json()


def _names(cards: list[Card]) -> list[str]:
    return [card_str(card) for card in cards]


def _sentence(error: Exception) -> str:
    """An engine error's reason as the end of a sentence (without the input it quotes or
    the rule it cites), with a full stop."""
    return _ending(str(getattr(error, "reason", "") or error))


def _ending(text: str) -> str:
    text = _RULE_CITATION.sub("", text.strip() or _("it is malformed"))
    return text if text.endswith(".") else text + "."


THIRD_PERSON = {
    N_("there is no {rank} in your hand"): N_("there is no {rank} in the player's hand"),
}
"""The engine's reasons that say "your", as a record's reader reads them: about the player."""


def _move_problem(error: SpiteMaliceError) -> str:
    """Why a record's move fails, in words (the current language): no notation, no quoted
    input."""
    if isinstance(error, NotationError):
        return _("it is not a move.")
    if isinstance(error, GameOverError):
        return _("the game was already over.")
    if isinstance(error, IllegalMoveError):
        reason = error.reason
        if isinstance(reason, Reason):
            reason = Reason(THIRD_PERSON.get(reason.template, reason.template), **reason.fields)
        return _ending(say_reason(reason))
    return _sentence(error)


_RULE_CITATION = re.compile(r"\s*\(R\d+(\.\d+)*(\([a-z]\))?\)")


__all__ = [
    "MAX_MOVES",
    "MAX_RECORD_BYTES",
    "Frame",
    "ReplayError",
    "check_record",
    "final_table",
    "read_record",
    "replay_frames",
]
