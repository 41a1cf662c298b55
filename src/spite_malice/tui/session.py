"""A match against the computer as the terminal game plays it: a view of a
:class:`~spite_malice.table.Table`, free of any screen code.

The table does the match logic (undo with its barriers, hints and the assisted mark, the
computer's fallback, the next game); the session adds what the screen reads (the hand in
order, legal targets, event sentences) and keeps the steps not saved yet for the store. The
person always sits in seat 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..bots import Bot
from ..engine.cards import RANK_OF, Card
from ..engine.events import Event, public_event
from ..engine.game import Game
from ..engine.match import Match
from ..engine.moves import Move
from ..engine.observation import Observation
from ..engine.rules import Rules
from ..i18n import _
from ..table import COMPUTER as COMPUTER_KIND
from ..table import HINT, PERSON, Applied, Seat, Step, Table, default_level, level_label, level_name
from .event_text import describe_event

HUMAN = 0
"""The seat of the person at the keyboard."""
COMPUTER = 1
"""The seat of the computer player."""
DEFAULT_PLAYER = "You"
"""The person's name in records when none was given (shown as :attr:`player_label`)."""


@dataclass(slots=True)
class MatchSetup:
    """What a new match needs: the rules, the computer's level, a seed and the player's name."""

    rules: Rules = Rules.STANDARD
    level: str = field(default_factory=default_level)
    seed: int | None = None
    player: str = DEFAULT_PLAYER
    daily: str | None = None
    """The day (ISO) of the daily deal this match plays, if it is one (``spite_malice.daily``)."""


@dataclass(slots=True)
class Played:
    """What one move did: the move and the public events it caused, in order."""

    move: Move
    events: list[Event] = field(default_factory=list)


class GameSession:
    """A match of the person (seat 0) against a computer player (seat 1)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.unsaved: list[Step] = []
        """Steps applied since the store last took them (see :meth:`take_unsaved`)."""
        self.match_id: str | None = None
        """The store's id of this match, once it is stored."""

    # ------------------------------------------------------------------ making sessions

    @classmethod
    def new(cls, setup: MatchSetup) -> GameSession:
        """A new match, its first game dealt."""
        seats = (Seat(PERSON, setup.player), Seat(COMPUTER_KIND, level_label(setup.level)))
        # a seed the player chose makes a practice match: its deals are known, so its games
        # stay out of the ordinary statistics (the same rule as the browser game's)
        table = Table.new(
            setup.rules,
            seats,
            level=setup.level,
            seed=setup.seed,
            practice=setup.seed is not None,
            daily=setup.daily,
        )
        session = cls(table)
        session._apply(table.check_deal())
        return session

    def rematch(self) -> GameSession:
        """A new match with the same rules, level and player, seeded from this one when it
        was seeded (secret deals otherwise)."""
        seed = self.match.seed
        if seed is not None:
            seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**63
        return GameSession.new(MatchSetup(self.rules, self.level, seed, self.player))

    # ------------------------------------------------------------------ reading

    @property
    def match(self) -> Match:
        return self.table.match

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def level(self) -> str:
        return self.table.level or default_level()

    @property
    def bot(self) -> Bot:
        bot = self.table.bot
        assert bot is not None  # the computer always sits at a terminal table
        return bot

    @property
    def player(self) -> str:
        return self.table.seats[HUMAN].name or DEFAULT_PLAYER

    @property
    def player_label(self) -> str:
        """The person's name as the screen shows it: the default name "You" in the player's
        language, any other name as it was given."""
        name = self.player
        return _("You") if name == DEFAULT_PLAYER else name

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def opponent_name(self) -> str:
        """The computer's name as the screen shows it: its level's name in the player's
        language ("Medio", "Средний"); the record keeps the English label it was given."""
        name = self.table.seats[COMPUTER].name
        if not name or name == level_label(self.level):
            return level_name(self.level)
        return name

    @property
    def game_number(self) -> int:
        """The current game's number in the match, from 1."""
        return self.table.game_number

    @property
    def is_assisted(self) -> bool:
        """Whether undo or a hint was used in the current game."""
        return self.table.is_assisted

    @property
    def is_human_turn(self) -> bool:
        return not self.table.is_game_over and self.game.to_move == HUMAN

    @property
    def is_computer_turn(self) -> bool:
        return not self.table.is_game_over and self.game.to_move == COMPUTER

    def observation(self, seat: int = HUMAN) -> Observation:
        return self.table.observation(seat)

    def hand(self) -> list[Card]:
        """The person's hand as shown: by rank, then suit."""
        return sorted(self.game.players[HUMAN].hand, key=lambda card: (RANK_OF[card], card))

    def legal_moves(self) -> list[Move]:
        return self.game.legal_moves() if self.is_human_turn else []

    def targets(self, source: str) -> set[str]:
        """The targets (``C1``, ``S2`` …) that a card from ``source`` (``P``, ``H7``, ``S1``)
        may legally go to now."""
        found = set()
        for move in self.legal_moves():
            move_source, _sep, target = move.notation.partition("-")
            if move_source == source:
                found.add(target)
        return found

    def sources(self, *, builds_only: bool = False) -> set[str]:
        """The sources that have a legal move now (a build, with ``builds_only``)."""
        return {
            move.notation.partition("-")[0]
            for move in self.legal_moves()
            if move.is_build or not builds_only
        }

    @property
    def can_undo(self) -> bool:
        """Whether the person has made a move this turn that can be taken back."""
        return self.table.can_undo(HUMAN)

    @property
    def undo_barrier(self) -> str | None:
        """When the last move showed a hidden card: the sentence saying it cannot be taken
        back (a new card was turned up, or five were drawn); else None."""
        return self.table.undo_barrier(HUMAN)

    # ------------------------------------------------------------------ playing

    def play(self, move: Move | str) -> Played:
        """The person's move, checked; :class:`~spite_malice.table.TableError` (game
        unchanged) when it is refused."""
        return self._played(self._apply(self.table.check_move(HUMAN, move)))

    def play_computer(self, move: Move) -> Played:
        """The computer's move (checked too: a faulty bot cannot corrupt the game)."""
        return self._played(self._apply(self.table.check_move(COMPUTER, move)))

    def undo(self) -> Move:
        """Take back the person's last move of this turn (never one that showed a hidden
        card); the game is then marked assisted. Returns the move taken back."""
        applied = self._apply(self.table.check_undo(HUMAN))
        assert applied.move is not None
        return applied.move

    def mark_assisted(self) -> None:
        """Mark the current game assisted (a hint was shown): a hint step in the log."""
        if not self.table.is_assisted and not self.table.is_game_over:
            self._apply(Step(HINT, self.game_number, self.table.plies, HUMAN))

    def next_game(self) -> Game:
        """Deal the match's next game (the current one must be over)."""
        self._apply(self.table.check_deal())
        return self.game

    def resign(self) -> None:
        """Give up the match: its current game counts as lost."""
        self._apply(self.table.check_resign(HUMAN))

    def take_unsaved(self) -> list[Step]:
        """The steps applied since the last call, for the store."""
        steps, self.unsaved = self.unsaved, []
        return steps

    def _apply(self, step: Step) -> Applied:
        applied = self.table.apply(step)
        self.unsaved.append(step)
        return applied

    @staticmethod
    def _played(applied: Applied) -> Played:
        assert applied.move is not None
        return Played(applied.move, [public_event(e, HUMAN) for e in applied.events])

    # ------------------------------------------------------------------ text

    def public_events(self) -> list[Event]:
        """The current game's events as the person may see them."""
        return [public_event(event, HUMAN) for event in self.game.events]

    def describe(self, event: Event) -> str:
        """An event as a sentence in the player's language, the person as "you" and the
        computer by its name: ``You build 5H from the hand on center 2``."""
        return describe_event(event, (self.player_label, self.opponent_name), you=HUMAN)
