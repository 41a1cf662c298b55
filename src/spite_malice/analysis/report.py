"""The analysis of one seat's game: every turn valued, the worst three, the best, as text and JSON.

:func:`analyse_record` (or :func:`analyse_game` for a game set up from a position) cuts the
seat's turns into decisions (:mod:`.turns`), values each one (:mod:`.judge`) and explains the
losses (:mod:`.reasons`). Everything it returns is plain data: :meth:`Report.to_json` is
JSON-ready and :meth:`Report.from_json` reads it back. A server runs it in the background with
``progress`` (called with the decisions done and the total) and ``should_stop`` (checked
before each decision and between samples; when it returns true the analysis raises
:class:`~.judge.AnalysisCancelled`); :mod:`.background` wraps both in a job.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots.view import TurnView, view_from_observation
from ..engine.errors import RecordError, quote
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.record import GameRecord
from ..i18n import N_, _, ngettext
from .judge import DEFAULT_Z, AnalysisCancelled, Judgement, Settings
from .pool import judge_decisions
from .reasons import describe_moves, describe_table, why_better
from .turns import Decision, record_decisions, seat_decisions

FORMAT = 2
"""2: turns carry the seat's own turn number (``player_turn``) and decisions their deals."""
UNIT = "pay-off cards expected"

DEFAULT_SETTINGS = Settings()
"""The default setting: the one the benchmark measures."""

Progress = Callable[[int, int], None]
"""Called with (decisions done, decisions in all): once before the first, then after each."""


@dataclass(frozen=True, slots=True)
class DecisionReport:
    """One decision of the seat, valued: what it saw, what it played, the better choice."""

    turn: int
    """The game's turn number (both players' turns counted)."""
    player_turn: int
    """The seat's own turn number, as the end of a game counts them (1, 2, 3...)."""
    moves_before: int
    """How many moves of the game came before the decision (where a replay stops to show it)."""
    position: dict[str, Any]
    """The seat's view of the table (its observation's JSON without the history)."""
    table: str
    """The position in words."""
    played: tuple[str, ...]
    """The player's moves, in notation (for views), until new cards were seen."""
    played_words: str
    better: tuple[str, ...]
    """The better choice, in notation: its moves until new cards would be seen; the same as
    ``played`` when nothing was lost."""
    better_plan: tuple[str, ...]
    """The whole turn as the better choice planned it."""
    better_words: str
    lost: float
    """Pay-off cards expected the player's choice lost against the best one (0 or more)."""
    difference: float
    """The best choice's expected gain over the player's, counted as lost or not."""
    error: float
    """The standard error of ``difference``."""
    edge: float | None
    """How much better the player's choice was than the best other (None: there was none)."""
    alternatives: int
    samples: int
    """The deals the decision was valued on (0 when there was only one choice)."""
    reason: str
    """Why the better choice is better, in plain words ("" when nothing was lost)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "player_turn": self.player_turn,
            "moves_before": self.moves_before,
            "position": self.position,
            "table": self.table,
            "played": list(self.played),
            "played_words": self.played_words,
            "better": list(self.better),
            "better_plan": list(self.better_plan),
            "better_words": self.better_words,
            "lost": self.lost,
            "difference": self.difference,
            "error": self.error,
            "edge": self.edge,
            "alternatives": self.alternatives,
            "samples": self.samples,
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DecisionReport:
        return cls(
            turn=data["turn"],
            player_turn=data["player_turn"],
            moves_before=data["moves_before"],
            position=data["position"],
            table=data["table"],
            played=tuple(data["played"]),
            played_words=data["played_words"],
            better=tuple(data["better"]),
            better_plan=tuple(data["better_plan"]),
            better_words=data["better_words"],
            lost=data["lost"],
            difference=data["difference"],
            error=data["error"],
            edge=data["edge"],
            alternatives=data["alternatives"],
            samples=data["samples"],
            reason=data["reason"],
        )


@dataclass(frozen=True, slots=True)
class TurnReport:
    """One turn of the seat: its decisions (one, or more when it saw new cards mid-turn)."""

    turn: int
    """The game's turn number."""
    decisions: tuple[DecisionReport, ...]

    @property
    def player_turn(self) -> int:
        """The seat's own turn number (the one a player reads: "your turn 12")."""
        return self.decisions[0].player_turn

    @property
    def lost(self) -> float:
        return round(sum(d.lost for d in self.decisions), 4)

    @property
    def error(self) -> float:
        return round(math.sqrt(sum(d.error**2 for d in self.decisions if d.lost)), 4)

    @property
    def worst(self) -> DecisionReport:
        """The decision that lost the most (the first when none lost anything)."""
        return max(self.decisions, key=lambda d: d.lost)

    @property
    def edge(self) -> float | None:
        edges = [d.edge for d in self.decisions if d.edge is not None]
        return max(edges) if edges else None

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "player_turn": self.player_turn,
            "lost": self.lost,
            "error": self.error,
            "decisions": [d.to_json() for d in self.decisions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnReport:
        return cls(data["turn"], tuple(DecisionReport.from_json(d) for d in data["decisions"]))


@dataclass(frozen=True, slots=True)
class Report:
    """The analysis of one seat's game."""

    seat: int
    players: tuple[str, str]
    settings: Settings
    turns: tuple[TurnReport, ...]

    @property
    def total_lost(self) -> float:
        """Pay-off cards expected lost over the whole game against the best choices found."""
        return round(sum(turn.lost for turn in self.turns), 4)

    @property
    def worst(self) -> tuple[TurnReport, ...]:
        """The (at most) three turns that lost the most, worst first; only turns that lost."""
        losing = [turn for turn in self.turns if turn.lost > 0]
        losing.sort(key=lambda turn: (-turn.lost, turn.turn))
        return tuple(losing[:3])

    @property
    def best(self) -> TurnReport | None:
        """The turn whose choice beat the best other choice by the most (None when no turn
        had a choice to make)."""
        chosen = [turn for turn in self.turns if turn.edge is not None]
        if not chosen:
            return None
        return max(chosen, key=lambda turn: (turn.edge or 0.0, -turn.turn))

    def to_json(self) -> dict[str, Any]:
        best = self.best
        return {
            "format": FORMAT,
            "unit": UNIT,
            "seat": self.seat,
            "players": list(self.players),
            "settings": self.settings.to_json(),
            "total_lost": self.total_lost,
            "worst": [turn.turn for turn in self.worst],
            "best": None if best is None else best.turn,
            "turns": [turn.to_json() for turn in self.turns],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Report:
        """Read a report written by :meth:`to_json`."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"format must be {FORMAT}", "analysis report")
        try:
            players = data["players"]
            return cls(
                seat=data["seat"],
                players=(players[0], players[1]),
                settings=Settings.from_json(data["settings"]),
                turns=tuple(TurnReport.from_json(t) for t in data["turns"]),
            )
        except (KeyError, IndexError, TypeError) as error:
            raise RecordError(f"it is malformed: {quote(error)}", "analysis report") from None

    def to_text(self) -> str:
        """The report in plain words for a player."""
        return "\n".join(_text_lines(self))


def _rounded(value: float) -> float:
    return round(value, 4)


def report_decision(judgement: Judgement, z: float = DEFAULT_Z) -> DecisionReport:
    """A judged decision as plain data, with the reason in words."""
    decision = judgement.decision
    view = view_from_observation(decision.observation)
    played, best = judgement.played, judgement.best
    lost = judgement.lost(z)
    better = best if lost > 0 else played
    position = decision.observation.to_json()
    del position["history"], position["legal_moves"]
    edge = judgement.edge
    return DecisionReport(
        turn=decision.turn,
        player_turn=decision.player_turn,
        moves_before=decision.index,
        position=position,
        table=describe_table(view),
        played=_notation(decision.moves),
        played_words=_played_words(view, decision),
        better=_notation(better.moves),
        better_plan=_notation(better.plan),
        better_words=_better_words(view, better.moves, better.plan),
        lost=_rounded(lost),
        difference=_rounded(0.0 if best.is_played else best.gain),
        error=_rounded(0.0 if best.is_played else best.error),
        edge=None if edge is None else _rounded(edge),
        alternatives=len(judgement.choices) - 1,
        samples=judgement.samples,
        reason=why_better(view, decision.moves, best.moves) if lost > 0 else "",
    )


def _played_words(view: TurnView, decision: Decision) -> str:
    """The player's moves in words, saying so when the turn went on with new cards."""
    words = describe_moves(view, decision.moves)
    last = decision.moves[-1]
    if decision.observation.players[decision.observation.seat].payoff_count == sum(
        1 for move in decision.moves if move.is_from_payoff
    ):
        return words  # R2.4: the last pay-off card won the game
    if last.is_from_payoff:
        return _("{moves} (then your next pay-off card turned up)", moves=words)
    if sum(1 for move in decision.moves if move.is_from_hand) == len(decision.observation.hand):
        return _("{moves} (then you drew five new cards)", moves=words)  # R3.4(c)
    return words


def _better_words(view: TurnView, moves: tuple[Move, ...], plan: tuple[Move, ...]) -> str:
    """The better choice in words, and the rest of its planned turn when new cards were to be
    seen first (a pay-off card turned up decides how the turn goes on)."""
    words = describe_moves(view, moves)
    if len(plan) > len(moves):
        rest = describe_moves(view, plan, skip=len(moves))
        return _(
            "{moves} (and then, unless your next pay-off card changes the plan: {rest})",
            moves=words,
            rest=rest,
        )
    return words


def _notation(moves: Sequence[Move]) -> tuple[str, ...]:
    return tuple(str(move) for move in moves)


def analyse_decisions(
    decisions: Sequence[Decision],
    seat: int,
    *,
    players: tuple[str, str] = ("Player 1", "Player 2"),
    settings: Settings = DEFAULT_SETTINGS,
    progress: Progress | None = None,
    should_stop: Callable[[], bool] | None = None,
    workers: int | None = None,
) -> Report:
    """Value every decision and gather them by turn into a :class:`Report`. ``workers``:
    the processes to value them in (:func:`.pool.default_workers` when None, :mod:`.pool`)."""
    total = len(decisions)
    if progress is not None:
        progress(0, total)
    if should_stop is not None and should_stop():
        raise AnalysisCancelled("the analysis was stopped")
    finished = 0

    def judged(_index: int, _judgement: Judgement) -> None:
        nonlocal finished
        finished += 1
        if progress is not None:
            progress(finished, total)

    judgements = judge_decisions(
        decisions, settings, workers=workers, on_judged=judged, should_stop=should_stop
    )
    by_turn: dict[int, list[DecisionReport]] = {}
    for judgement in judgements:
        by_turn.setdefault(judgement.decision.turn, []).append(
            report_decision(judgement, settings.z)
        )
    turns = tuple(TurnReport(turn, tuple(found)) for turn, found in by_turn.items())
    return Report(seat, players, settings, turns)


def analyse_record(
    record: GameRecord,
    seat: int,
    *,
    settings: Settings = DEFAULT_SETTINGS,
    progress: Progress | None = None,
    should_stop: Callable[[], bool] | None = None,
    workers: int | None = None,
) -> Report:
    """The analysis of ``seat``'s turns in a game record (checked first)."""
    decisions = record_decisions(record, seat)
    return analyse_decisions(
        decisions,
        seat,
        players=record.players,
        settings=settings,
        progress=progress,
        should_stop=should_stop,
        workers=workers,
    )


def analyse_game(
    start: Game,
    moves: Sequence[Move | str],
    seat: int,
    *,
    players: tuple[str, str] = ("Player 1", "Player 2"),
    settings: Settings = DEFAULT_SETTINGS,
    progress: Progress | None = None,
    should_stop: Callable[[], bool] | None = None,
    workers: int | None = None,
) -> Report:
    """The analysis of ``seat``'s turns when ``moves`` are played from ``start`` (a dealt
    game or a position; it is left unchanged)."""
    decisions = seat_decisions(start, moves, seat)
    return analyse_decisions(
        decisions,
        seat,
        players=players,
        settings=settings,
        progress=progress,
        should_stop=should_stop,
        workers=workers,
    )


COSTLIEST = (
    N_("Your costliest turn"),
    N_("Your two costliest turns"),
    N_("Your three costliest turns"),
)
"""The heading over the worst turns, by how many there are."""


def cost_words(lost: float) -> str:
    """What a turn cost, for a player: whole pay-off cards, never a fraction (the figure is
    an expected difference in pay-off cards played, the seat's minus its opponent's, a few
    turns later; see docs/analysis.md)."""
    cards = round(lost)
    if cards < 1:
        return _(
            "The better turn would have gained you a little on your opponent: less than one "
            "pay-off card over the next few turns."
        )
    return ngettext(
        "The better turn would have gained you about {n} pay-off card on your opponent over "
        "the next few turns.",
        "The better turn would have gained you about {n} pay-off cards on your opponent over "
        "the next few turns.",
        cards,
    )


def _text_lines(report: Report) -> list[str]:
    me, them = report.players[report.seat], report.players[1 - report.seat]
    if not report.turns:
        return [_("{me} has no turn in this game yet, so there is nothing to look at.", me=me)]
    losing = [turn for turn in report.turns if turn.lost > 0]
    lines = [
        ngettext(
            "How {me} played against {them}: {n} turn looked at, against the best turns the "
            "computer's search found, played a few turns ahead on deals of the cards {me} "
            "could not see.",
            "How {me} played against {them}: {n} turns looked at, each against the best turns "
            "the computer's search found, played a few turns ahead on deals of the cards {me} "
            "could not see.",
            len(report.turns),
            me=me,
            them=them,
        ),
        better_count(len(losing), len(report.turns)),
    ]
    worst = report.worst
    if worst:
        lines += ["", _(COSTLIEST[len(worst) - 1]) + ":"]
        for number, turn in enumerate(worst, start=1):
            where = turn.worst
            lines += [
                _("{rank}. Your turn {turn}", rank=number, turn=turn.player_turn),
                "   " + cost_words(turn.lost),
                "   " + _("The table: {table}", table=where.table),
                "   " + _("You played: {moves}.", moves=where.played_words),
                "   " + _("Better: {moves}.", moves=where.better_words),
                "   " + _("Why: {reason}", reason=where.reason),
            ]
        others = [t for t in losing if t not in worst]
        if others:
            listed = ", ".join(str(t.player_turn) for t in others)
            lines.append(_("Your other turns that could have gone better: {turns}.", turns=listed))
    best = report.best
    if best is not None and best.edge is not None:
        where = max((d for d in best.decisions if d.edge is not None), key=lambda d: d.edge or 0.0)
        lines += ["", _("Your best turn: your turn {n}.", n=best.player_turn)]
        if best.edge > 0:
            lines.append(
                "   " + _("You found a better turn than any the computer's search looked at.")
            )
        else:
            lines.append(
                "   "
                + _("No turn of yours beat every one the computer looked at; this came closest.")
            )
        lines += [
            "   " + _("The table: {table}", table=where.table),
            "   " + _("You played: {moves}.", moves=where.played_words),
        ]
    return lines


def better_count(losing: int, turns: int) -> str:
    """How many of the seat's turns a better turn was found for, in a sentence."""
    if not losing:
        return _("None of your turns lost anything the computer's search could measure.")
    return ngettext(
        "A better turn was found for {n} of your {total} turns.",
        "Better turns were found for {n} of your {total} turns.",
        losing,
        total=turns,
    )
