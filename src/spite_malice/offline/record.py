"""The record of a match played offline, and its replay: what the server checks before it
counts such a match (``docs/offline.md``).

A record is the match's rules, level, seed and every step of its log, as the table made them
in the page (:meth:`spite_malice.table.Step.to_json`). :func:`replay_record` plays it again
step by step on a fresh table: every deal must be the one the seed deals (R1.1), every move
legal for the seat to move (R2, R3), every undo, hint and resignation allowed where it stands,
and every move of the computer, at every level, the one the computer plays there from the
match's seed (the bots' seed, :attr:`~spite_malice.table.TableMeta.bot_seed`): offline, each
level's choice depends only on that seed and where the game stands (:func:`offline_computer`).
Anything else refuses the record with :class:`RecordRefused`, whose ``reason`` is a sentence
for the player, in the current language. The results come from the replay, never from what
the record says of itself.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot
from ..bots.expert import DEFAULT_SAMPLES, ExpertBot
from ..engine.errors import SpiteMaliceError
from ..engine.moves import parse_move
from ..engine.rules import Rules
from ..i18n import N_, _
from ..levels import LEVELS
from ..table import DEAL, HINT, MOVE, RESIGN, UNDO, Seat, Step, Table, TableError, level_label
from ..table import computer as computers
from ..table.seats import COMPUTER

FORMAT = 1
"""The record format this code writes and reads."""
OFFERED_LEVELS = LEVELS
"""The computer levels a match played offline may have: every offered level."""
MAX_STEPS = 20_000
"""More steps than any match plays (a game is drawn at 1000 turns, R4.3): refused."""
CHECKED_LEVELS = OFFERED_LEVELS
"""Levels whose every move is thought again in the replay: all of them. Easy draws each
decision from a generator seeded by the bots' seed and the point of the game; Medium and Hard
have no chance in them; Expert's samples come from the seed and the point of the game, and
offline it takes all of its samples whatever the time (:data:`OFFLINE_EXPERT_BUDGET`)."""
OFFLINE_EXPERT_BUDGET = math.inf
"""Expert's thinking time in an offline match: no limit, so that its search always takes its
:data:`~spite_malice.bots.expert.DEFAULT_SAMPLES` samples and plays the same move in the page
(however slow the device) as in the server's replay. On the server it thinks within 1 s a
turn, and on a loaded machine may take fewer samples: a move made so could not be checked."""
ID_PATTERN = re.compile(r"^[0-9a-f]{32}$")
PERSON, COMPUTER_SEAT = 0, 1


UNREADABLE = N_("The offline game could not be read: it is not a complete game record.")
"""Marked only: said with ``_(UNREADABLE)``."""


class RecordRefused(Exception):
    """A record that does not replay; ``reason`` says why, for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of the record, from the person's side (seat 0)."""

    number: int
    outcome: str
    """``win``, ``loss`` or ``draw``."""
    points_for: int
    points_against: int
    assisted: bool
    record: dict[str, Any]
    """The game's :class:`~spite_malice.engine.record.GameRecord` as JSON."""


@dataclass(slots=True)
class Replayed:
    """What a record's replay found: the finished games and, when it is over, the match."""

    id: str
    level: str
    steps: list[dict[str, Any]]
    games: list[GameResult] = field(default_factory=list)
    match_over: bool = False
    match_won: bool | None = None
    """Whether the person won the match (None while it is not over)."""


def offline_computer(level: str, seed: int) -> Bot:
    """The computer of an offline match at ``level``: the server's, but for Expert, which
    takes all of its samples whatever the time (:data:`OFFLINE_EXPERT_BUDGET`)."""
    if level == "expert":
        return ExpertBot(seed, OFFLINE_EXPERT_BUDGET, max_samples=DEFAULT_SAMPLES)
    return computers.new_computer(level, seed)


def new_table(level: str, rules: Rules, seed: int, name: str) -> Table:
    """The table of a match against the computer at ``level``, dealt from ``seed`` (which
    seeds the computer too)."""
    seats = (Seat("person", name), Seat(COMPUTER, level_label(level)))
    table = Table.new(rules, seats, level=level, seed=seed)
    if level == "expert":
        if table.bot is not None:
            table.bot.close()
        table.bot = offline_computer(level, table.meta.bot_seed)
    return table


def written_step(step: Step) -> dict[str, Any]:
    """A step as the record writes it: its seed in decimal digits (a page's numbers hold
    53 bits, a seed 63)."""
    data = step.to_json()
    if data["seed"] is not None:
        data["seed"] = str(data["seed"])
    return data


def _refuse(reason: str) -> RecordRefused:
    return RecordRefused(reason)


def _header(data: object) -> tuple[str, str, Rules, int, list[Any]]:
    """The record's id, level, rules, seed and raw steps, or RecordRefused."""
    if not isinstance(data, dict):
        raise _refuse(_(UNREADABLE))
    if data.get("format") != FORMAT:
        raise _refuse(_(UNREADABLE))
    match_id = data.get("id")
    if not isinstance(match_id, str) or not ID_PATTERN.match(match_id):
        raise _refuse(_(UNREADABLE))
    level = data.get("level")
    if level not in OFFERED_LEVELS:
        raise _refuse(_(UNREADABLE))
    assert isinstance(level, str)
    try:
        rules = Rules.from_json(data.get("rules"))
    except SpiteMaliceError:
        raise _refuse(_(UNREADABLE)) from None
    seed = _seed(data.get("seed"))
    if seed is None:
        raise _refuse(_(UNREADABLE))
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps:
        raise _refuse(_(UNREADABLE))
    if len(steps) > MAX_STEPS:
        raise _refuse(_(UNREADABLE))
    return match_id, level, rules, seed, steps


def _seed(value: object) -> int | None:
    """A seed written as decimal text (as the page keeps it) or a number; None if invalid."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 19:
        value = int(value)
    if type(value) is not int or not 0 <= value < 2**63:
        return None
    return value


def _step(raw: object) -> Step:
    if not isinstance(raw, dict):
        raise _refuse(_(UNREADABLE))
    kind, game, ply = raw.get("kind"), raw.get("game"), raw.get("ply")
    seat, move, seed = raw.get("seat"), raw.get("move"), raw.get("seed")
    if seed is not None:
        seed = _seed(seed)
        if seed is None:
            raise _refuse(_(UNREADABLE))
    if (
        kind not in (DEAL, MOVE, UNDO, HINT, RESIGN)
        or type(game) is not int
        or type(ply) is not int
        or (seat is not None and seat not in (0, 1))
        or (move is not None and not isinstance(move, str))
        or (seed is not None and type(seed) is not int)
    ):
        raise _refuse(_(UNREADABLE))
    assert isinstance(kind, str)
    return Step(kind, game, ply, seat, move, seed)


def _where(step: Step) -> dict[str, int]:
    return {"game": step.game, "move": step.ply}


def replay_record(data: object, *, check_computer: bool = True) -> Replayed:
    """Play ``data`` (a record as the page sends it) again on a fresh table; RecordRefused
    with a plain reason at the first step that does not replay. ``check_computer``: also
    think every computer move again and refuse one that is not the computer's choice."""
    match_id, level, rules, seed, raw_steps = _header(data)
    name = data.get("name") if isinstance(data, dict) else None
    table = new_table(level, rules, seed, name if isinstance(name, str) else "Player")
    replayed = Replayed(match_id, level, [])
    try:
        for raw in raw_steps:
            step = _step(raw)
            checked = _check(table, step, check_computer)
            table.apply(checked)
            replayed.steps.append(written_step(checked))
            if checked.finished is not None:
                replayed.games.append(_result(table, checked))
    finally:
        table.close()
    if table.resigned is not None:
        replayed.match_over, replayed.match_won = True, False
    elif table.match.is_over:
        replayed.match_over, replayed.match_won = True, table.match.winner == PERSON
    return replayed


def _check(table: Table, step: Step, check_computer: bool) -> Step:
    """The table's own check of ``step`` where the replay stands (with the game's record
    when it ends it); RecordRefused when it is not the same step."""
    expected = table.game_number + (1 if step.kind == DEAL else 0)
    if step.game != expected or step.ply != (0 if step.kind == DEAL else table.plies):
        raise _refuse(
            _(
                "The offline game does not replay: its steps are out of order at game {game}, "
                "move {move}.",
                **_where(step),
            )
        )
    try:
        if step.kind == DEAL:
            checked = table.check_deal()
            if checked.seed != step.seed:
                raise _refuse(
                    _(
                        "The offline game does not replay: game {game} was not dealt from "
                        "the match's seed.",
                        game=step.game,
                    )
                )
            return checked
        if step.kind != MOVE and step.seat != PERSON:
            raise _refuse(_(UNREADABLE))
        if step.kind == MOVE:
            if step.seat is None or step.move is None:
                raise _refuse(_(UNREADABLE))
            if step.seat == COMPUTER_SEAT and check_computer and table.level in CHECKED_LEVELS:
                _check_computer_move(table, step)
            return table.check_move(step.seat, step.move)
        if step.kind == UNDO:
            return table.check_undo(PERSON)
        if step.kind == HINT:
            return table.check_hint(PERSON)
        return table.check_resign(PERSON)
    except TableError as error:
        raise _refuse(
            # TRANSLATORS: {reason} says why the move, undo or hint is refused
            _(
                "The offline game does not replay at game {game}, move {move}: {reason}",
                reason=error.message,
                **_where(step),
            )
        ) from None


def _check_computer_move(table: Table, step: Step) -> None:
    """Refuse a computer move that is not the one the computer plays there from the bots'
    seed (the page's computer thinks as this one does, also after a resume:
    :meth:`~spite_malice.offline.OfflineSession.restore`)."""
    if table.game.to_move != COMPUTER_SEAT or table.game.is_over:
        return  # the table's check says what is wrong
    try:
        recorded = parse_move(step.move or "")
    except SpiteMaliceError:
        return  # the table's check says what is wrong
    if table.think() != recorded:
        raise _refuse(
            _(
                "The offline game does not replay: at game {game}, move {ply}, the computer "
                "made a move it does not make there from the game's seed.",
                game=step.game,
                ply=step.ply,
            )
        )


def _result(table: Table, step: Step) -> GameResult:
    record = step.finished
    assert record is not None and record.result is not None
    result = record.result
    outcome = "draw" if result.winner is None else "win" if result.winner == PERSON else "loss"
    return GameResult(
        number=step.game,
        outcome=outcome,
        points_for=result.points if result.winner == PERSON else 0,
        points_against=result.points if result.winner == COMPUTER_SEAT else 0,
        assisted=step.assisted,
        record=record.to_json(),
    )
