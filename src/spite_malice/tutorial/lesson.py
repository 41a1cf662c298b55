"""Lessons, their steps, and a run of a lesson: the moves a player tries, checked twice.

The engine says whether a move is legal (``Game.why_illegal``); the step says whether a
legal move is what the lesson asks for. A move that fails either check is refused with a
sentence that says why and what to try, and the position is left as it was.

The lessons are made at import time, before anyone's language is known, so their texts are
English message ids marked with ``N_`` (docs/translating.md); a run translates them into the
current language when it shows them (:attr:`LessonRun.instruction`, :meth:`LessonRun.attempt`,
:meth:`LessonRun.show_me`, :attr:`Lesson.title`, :attr:`Lesson.intro`). A text made from the
game (a :data:`Text`) or an :data:`Explain` is a function run at that moment, which
translates what it says itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.cards import RANK_OF
from ..engine.errors import NotationError
from ..engine.events import Event
from ..engine.game import Game
from ..engine.moves import Move, parse_move
from ..i18n import _
from ..i18n.cards import card_name
from ..table.words import say_reason
from .errors import TutorialError

PLAYER = 0
"""The learner's seat; the opponent (seat 1) plays the moves a step scripts for it."""

Goal = Callable[[Game, Move], bool]
"""Whether a legal move does what the step asks, given the game before the move."""
Explain = Callable[[Game, Move], str]
"""Why a legal move is not the step's goal, and what to try instead (a plain sentence, in
the current language)."""
Text = Callable[[Game], str]
"""A sentence made from the game as it stands (after the step's move), in the current
language."""

_RULE_REFERENCE = re.compile(r"\s*\(R\d[\d.()a-z]*\)")


@dataclass(frozen=True, slots=True)
class Step:
    """One thing to do: ``say`` it, accept a legal move that meets ``goal``, answer any
    other legal move with ``wrong`` and an illegal one with the engine's reason and ``tip``.

    ``free`` moves are legal moves the lesson lets the player make without finishing the
    step (a harmless build, say). ``opponent`` is the opponent's scripted turn, played
    after the step's move when that move ended the player's turn. ``example`` is a move
    that does the step (the front ends' "show me" and the tests use it).

    ``say``, ``tip``, ``free_said`` and a ``done`` that is a string are English message ids
    (marked with ``N_``): a :class:`LessonRun` translates them when it shows them.
    """

    say: str
    goal: Goal
    wrong: Explain
    tip: str
    done: str | Text
    example: str
    free: Goal | None = None
    free_said: str = ""
    opponent: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Lesson:
    """A hand-made deal that teaches one idea (``rules`` cites the rule numbers taught).

    ``english_title``, ``english_intro`` and a ``summary`` that is a string are English
    message ids (marked with ``N_``); :attr:`title` and :attr:`intro` are what to show, in the
    current language."""

    key: str
    english_title: str
    english_intro: str
    position: dict[str, Any]
    steps: tuple[Step, ...]
    summary: str | Text
    rules: tuple[str, ...]
    seed: int = 0
    """Seeds the shuffle of a completed stack into the stock (R3.4(b)), so a lesson always
    plays the same way."""

    @property
    def title(self) -> str:
        """The lesson's title in the current language."""
        return _(self.english_title)

    @property
    def intro(self) -> str:
        """What the lesson is about, in the current language."""
        return _(self.english_intro)

    def start(self) -> Game:
        """The lesson's position as a game, the learner (seat 0) to move."""
        return Game.from_position(self.position, seed=self.seed)

    @property
    def examples(self) -> tuple[str, ...]:
        """One way through the lesson: each step's example move."""
        return tuple(step.example for step in self.steps)


@dataclass(frozen=True, slots=True)
class Attempt:
    """What became of a move the learner tried.

    ``accepted``: the move was played (it finished the step, or it was a free move);
    ``text``: what to tell the learner (the step's ``done``, or why the move is wrong), in
    the language current when the move was tried;
    ``events``: what the move (and any scripted opponent turn after it) did.
    """

    accepted: bool
    text: str
    finished_step: bool = False
    events: tuple[Event, ...] = ()
    opponent_moves: tuple[Move, ...] = ()


@dataclass(slots=True)
class LessonRun:
    """A lesson being played: the game, the current step and the learner's moves so far."""

    lesson: Lesson
    game: Game = field(init=False)
    index: int = 0
    moves: list[str] = field(default_factory=list)
    """The learner's accepted moves, in order: replaying them gives this run again."""

    def __post_init__(self) -> None:
        self.game = self.lesson.start()

    @classmethod
    def replay(cls, lesson: Lesson, moves: Sequence[str]) -> LessonRun:
        """The run after ``moves`` (a front end's record of the accepted moves); a
        :class:`TutorialError` when one of them would not be accepted."""
        run = cls(lesson)
        for number, move in enumerate(moves, start=1):
            if not isinstance(move, str):
                raise TutorialError(f"move {number} of the lesson is not a move")
            attempt = run.attempt(move)
            if not attempt.accepted:
                raise TutorialError(f"move {number} of the lesson is not accepted: {attempt.text}")
        return run

    @property
    def is_finished(self) -> bool:
        return self.index >= len(self.lesson.steps)

    @property
    def step(self) -> Step | None:
        return None if self.is_finished else self.lesson.steps[self.index]

    @property
    def instruction(self) -> str:
        """What to do now, or the lesson's summary once it is finished (current language)."""
        step = self.step
        if step is None:
            return said(self.lesson.summary, self.game)
        return _(step.say)

    def show_me(self) -> tuple[Move, str] | None:
        """A move that does the current step and a sentence that says it ("Show me: build
        the Ace of spades from your pay-off pile on center 1."), for a learner who is stuck;
        None once the lesson is finished."""
        step = self.step
        if step is None:
            return None
        game = self.game
        # the example, unless earlier choices moved the stack it names (an Ace on center 2)
        candidates = [parse_move(step.example), *game.legal_moves()]
        move = next(m for m in candidates if game.why_illegal(m) is None and step.goal(game, m))
        return move, show_me_words(game, move)

    def legal_moves(self) -> list[Move]:
        """The learner's legal moves now (none once the lesson is finished)."""
        if self.is_finished or self.game.is_over or self.game.to_move != PLAYER:
            return []
        return self.game.legal_moves()

    def attempt(self, text: str | Move) -> Attempt:
        """Try a move: play it when the engine allows it and it does the step (or is a free
        move); otherwise leave the game as it is and say why."""
        step = self.step
        if step is None:
            return Attempt(False, _("This lesson is finished: go on to the next one."))
        try:
            move = parse_move(text)
        except NotationError:
            return Attempt(False, sentences(_("That is not a move."), _(step.tip)))
        reason = self.game.why_illegal(move)
        if reason is not None:
            return Attempt(False, sentences(plain(say_reason(reason)) + ".", _(step.tip)))
        game = self.game
        before = len(game.events)
        if step.goal(game, move):
            self._play(move)
            opponent: tuple[Move, ...] = ()
            if not game.is_over and game.to_move != PLAYER:
                opponent = tuple(game.play(scripted) for scripted in step.opponent)
            self.index += 1
            done = said(step.done, game)
            return Attempt(True, done, True, tuple(game.events[before:]), opponent)
        if step.free is not None and step.free(game, move):
            self._play(move)
            free_said = _(step.free_said) if step.free_said else ""
            return Attempt(True, free_said, False, tuple(game.events[before:]))
        return Attempt(False, step.wrong(game, move))

    def _play(self, move: Move) -> None:
        self.game.play(move)
        self.moves.append(move.notation)


def said(text: str | Text, game: Game) -> str:
    """A lesson's text in the current language: a marked message id translated, or a
    :data:`Text` made from ``game`` (it translates itself)."""
    return _(text) if isinstance(text, str) else text(game)


def sentences(*texts: str) -> str:
    """Whole sentences, each already translated, one after the other."""
    return " ".join(text for text in texts if text)


def show_me_words(game: Game, move: Move) -> str:
    """The "show me" sentence for the player to move's ``move``, in the current language:
    "Show me: build the Ace of spades from your pay-off pile on center 1."."""
    me = game.players[game.to_move]
    if move.is_from_payoff:
        card = me.payoff[-1]
    elif move.is_from_hand:
        card = next(c for c in me.hand if RANK_OF[c] == move.hand_rank)
    else:
        card = me.side[move.side_source][-1]
    name = card_name(card)
    # TRANSLATORS: {card} is a card's name as i18n/cards.py makes it ("Ace of spades"); the
    # "show me" sentences are said when a learner asks the tutorial for the move to make.
    if move.is_discard:
        return _(
            "Show me: discard the {card} from your hand on side stack {side}.",
            card=name,
            side=move.side_target + 1,
        )
    center = move.center + 1
    if move.is_from_payoff:
        # TRANSLATORS: {card} is a card's name ("Ace of spades").
        return _(
            "Show me: build the {card} from your pay-off pile on center {center}.",
            card=name,
            center=center,
        )
    if move.is_from_hand:
        # TRANSLATORS: {card} is a card's name ("Ace of spades").
        return _(
            "Show me: build the {card} from your hand on center {center}.",
            card=name,
            center=center,
        )
    # TRANSLATORS: {card} is a card's name ("Ace of spades").
    return _(
        "Show me: build the {card} from side stack {side} on center {center}.",
        card=name,
        side=move.side_source + 1,
        center=center,
    )


def plain(reason: str) -> str:
    """An engine reason (in any language) as a sentence for a player: no rule numbers, a
    capital first."""
    text = _RULE_REFERENCE.sub("", reason).strip().rstrip(".")
    return text[:1].upper() + text[1:]
