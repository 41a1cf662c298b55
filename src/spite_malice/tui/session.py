"""A match against the computer as the terminal game plays it, free of any screen code.

The session owns the engine :class:`~spite_malice.engine.Match`, the computer player, the
undo of the current turn (an exact replay of the game's record with fewer moves) and the
"assisted" mark that undo and hints leave on a game. The person always sits in seat 0.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field

from ..bots import Bot
from ..engine.cards import RANK_OF, Card
from ..engine.errors import SpiteMaliceError
from ..engine.events import Event, public_event
from ..engine.game import Game
from ..engine.match import Match
from ..engine.moves import Move, parse_move
from ..engine.observation import Observation
from ..engine.record import GameRecord
from ..engine.rules import Rules
from .opponents import default_level, level_title, new_bot

HUMAN = 0
"""The seat of the person at the keyboard."""
COMPUTER = 1
"""The seat of the computer player."""

_PLAYER_1 = re.compile(r"\bplayer 1 (\w+?)s\b")
_PLAYER_2 = re.compile(r"\bplayer 2\b")


@dataclass(slots=True)
class MatchSetup:
    """What a new match needs: the rules, the computer's level, a seed and the player's name."""

    rules: Rules = Rules.STANDARD
    level: str = field(default_factory=default_level)
    seed: int | None = None
    player: str = "You"


@dataclass(slots=True)
class Played:
    """What one move did: the move and the public events it caused, in order."""

    move: Move
    events: list[Event] = field(default_factory=list)


class GameSession:
    """A match of the person (seat 0) against a computer player (seat 1)."""

    def __init__(
        self,
        match: Match,
        level: str,
        bot: Bot,
        *,
        assisted: set[int] | None = None,
        player: str = "You",
    ) -> None:
        self.match = match
        self.level = level
        self.bot = bot
        self.player = player
        self.assisted_games: set[int] = set(assisted or ())
        """Numbers (1-based) of the match's games in which undo or a hint was used."""
        self._turn_seen = -1
        self._turn_start = 0
        if match.game is None:
            match.next_game()
        self.bot.new_game(COMPUTER)
        self._sync_turn()

    # ------------------------------------------------------------------ making sessions

    @classmethod
    def new(cls, setup: MatchSetup) -> GameSession:
        """A new match, its first game dealt."""
        seed = setup.seed if setup.seed is not None else secrets.randbits(63)
        match = Match(setup.rules, seed, (setup.player, level_title(setup.level)))
        match.next_game()
        return cls(match, setup.level, new_bot(setup.level, seed), player=setup.player)

    @classmethod
    def resume(
        cls, match: Match, level: str, *, assisted: set[int] | None = None, player: str = "You"
    ) -> GameSession:
        """Go on with a match rebuilt from storage."""
        return cls(match, level, new_bot(level, match.seed), assisted=assisted, player=player)

    def rematch(self) -> GameSession:
        """A new match with the same rules, level and player, seeded from this one."""
        seed = (self.match.seed * 6364136223846793005 + 1442695040888963407) % 2**63
        return GameSession.new(MatchSetup(self.match.rules, self.level, seed, self.player))

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> Game:
        game = self.match.game
        assert game is not None  # a session always has a dealt game
        return game

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def opponent_name(self) -> str:
        return level_title(self.level)

    @property
    def game_number(self) -> int:
        """The current game's number in the match, from 1 (a finished game is booked)."""
        return len(self.match.records) + (0 if self.game.is_over else 1)

    @property
    def is_assisted(self) -> bool:
        """Whether undo or a hint was used in the current game."""
        return self.game_number in self.assisted_games

    @property
    def is_human_turn(self) -> bool:
        return not self.game.is_over and self.game.to_move == HUMAN

    @property
    def is_computer_turn(self) -> bool:
        return not self.game.is_over and self.game.to_move == COMPUTER

    def observation(self, seat: int = HUMAN) -> Observation:
        result: Observation = self.game.observation(seat)
        return result

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
            move_source, _, target = move.notation.partition("-")
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

    # ------------------------------------------------------------------ playing

    def play(self, move: Move | str) -> Played:
        """The person's move, checked; raises the engine's error (game unchanged) if illegal."""
        if not self.is_human_turn:
            raise SpiteMaliceError("it is not your turn")
        return self._play(parse_move(move))

    def play_computer(self, move: Move) -> Played:
        """The computer's move (checked too: a faulty bot cannot corrupt the game)."""
        if not self.is_computer_turn:
            raise SpiteMaliceError("it is not the computer's turn")
        return self._play(move)

    def _play(self, move: Move) -> Played:
        game = self.game
        before = len(game.events)
        game.play(move)
        self._sync_turn()
        if game.is_over:
            self.match.book()
        return Played(move, [public_event(e, HUMAN) for e in game.events[before:]])

    def _sync_turn(self) -> None:
        """Note where the person's turn began, for undo."""
        game = self.game
        if game.to_move == HUMAN and game.turn != self._turn_seen:
            self._turn_seen = game.turn
            self._turn_start = len(game.moves)

    @property
    def can_undo(self) -> bool:
        """Whether the person has made a move this turn that can be taken back."""
        return self.is_human_turn and len(self.game.moves) > self._turn_start

    def undo(self) -> Move:
        """Take back the person's last move of this turn (an exact replay with one move fewer);
        the game is then marked assisted. Returns the move taken back."""
        if not self.can_undo:
            raise SpiteMaliceError("nothing to undo in this turn")
        game = self.game
        record = GameRecord(
            seed=game.seed if game.seed is not None else 0,
            moves=tuple(str(move) for move in game.moves[:-1]),
            rules=game.rules,
            first=game.first,
        )
        taken = game.moves[-1]
        self.match.game = record.replay()
        self.mark_assisted()
        return taken

    def mark_assisted(self) -> None:
        self.assisted_games.add(self.game_number)

    def next_game(self) -> Game:
        """Deal the match's next game (the current one must be over)."""
        game = self.match.next_game()
        self.bot.new_game(COMPUTER)
        self._turn_seen = -1
        self._sync_turn()
        return game

    # ------------------------------------------------------------------ text

    def public_events(self) -> list[Event]:
        """The current game's events as the person may see them."""
        return [public_event(event, HUMAN) for event in self.game.events]

    def describe(self, event: Event) -> str:
        """An event in English with the players' names: ``you build 5H on center 2``."""
        return self.name_players(str(event))

    def name_players(self, text: str) -> str:
        text = _PLAYER_1.sub(lambda found: f"you {found.group(1)}", text)
        text = text.replace("player 1", "you")
        text = _PLAYER_2.sub(self.opponent_name, text)
        return text[:1].upper() + text[1:]
