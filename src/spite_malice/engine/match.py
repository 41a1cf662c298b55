"""Matches: games dealt afresh until a player reaches the target score (R5.1).

A match changes only through :meth:`Match.play` (a move of the current game),
:meth:`Match.undo` (take back the last move of the current turn) and :meth:`Match.next_game`
(deal the next game); everything else is a pure reading of it.
"""

from __future__ import annotations

import random
import secrets
from typing import Any

from . import events as ev
from .errors import PositionError, SpiteMaliceError
from .game import Game
from .moves import Move
from .record import GameRecord
from .rules import Rules

TURNED_UP = "a new card was turned up"
"""Why a pay-off build cannot be taken back: the next pay-off card is now seen (R3.4(a))."""
DREW_FIVE = "five new cards were drawn"
"""Why emptying the hand cannot be taken back: the five cards drawn are now seen (R3.4(c))."""


class UndoError(SpiteMaliceError):
    """A move that cannot be taken back; ``reason`` says why in plain words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Match:
    """A match to ``rules.match_target`` points between two named players.

    Call :meth:`next_game` to deal each game. Who starts each game follows R1.4's option:
    the higher pay-off top; or the first game by the higher top and then in turn
    (``alternate``); or the first by the higher top and then the last game's loser
    (``loser``; after a draw the other player than last time starts).

    Each game's deal comes from its own seed. A match made with ``seed`` derives the games'
    seeds from it (a reproducible match, for tests and research); without one every game is
    dealt from fresh secret randomness (``secrets``), so nothing seen in one game helps to
    predict the next. The seeds are kept by whoever holds the match and never shown.
    """

    def __init__(
        self,
        rules: Rules = Rules.STANDARD,
        seed: int | None = None,
        players: tuple[str, str] = ("Player 1", "Player 2"),
    ) -> None:
        self.rules = rules
        self.seed = seed
        """The seed the games' seeds derive from, or None: each game has a secret seed."""
        self.players = players
        self._earlier: list[GameRecord] = []
        self._base = [0, 0]
        """Points of the games before the current one."""
        self.game: Game | None = None
        self._seeds = random.Random(seed) if seed is not None else None
        self._pending: int | None = None

    # ----------------------------------------------------------------- reading

    @property
    def score(self) -> list[int]:
        """Both players' points, the current game's included once it is over."""
        game = self.game
        if game is None or game.outcome is None or game.outcome.winner is None:
            return self._base
        score = list(self._base)
        score[game.outcome.winner] += game.outcome.points
        return score

    @property
    def records(self) -> list[GameRecord]:
        """The records of the finished games, the current one included once it is over."""
        game = self.game
        if game is None or not game.is_over:
            return list(self._earlier)
        return [*self._earlier, GameRecord.from_game(game, self.players)]

    @property
    def game_number(self) -> int:
        """The current game's number, from 1 (0 before the first deal)."""
        return len(self._earlier) + (0 if self.game is None else 1)

    @property
    def is_over(self) -> bool:
        """Whether a player has reached the target (a just-finished game counts)."""
        return max(self.score) >= self.rules.match_target

    @property
    def winner(self) -> int | None:
        """The player who reached the target, or None while the match goes on."""
        if not self.is_over:
            return None
        score = self.score
        return 0 if score[0] > score[1] else 1

    def turn_moves(self) -> int:
        """Moves made in the current turn: builds since the last discard (R2.3)."""
        game = self.game
        if game is None:
            return 0
        count = 0
        for move in reversed(game.moves):
            if move.is_discard:
                break
            count += 1
        return count

    @property
    def undo_refusal(self) -> str | None:
        """Why the last move cannot be taken back now, or None when :meth:`undo` may."""
        game = self.game
        if game is None or game.is_over:
            return "the game is over"
        if self.turn_moves() == 0:
            return "nothing of the current turn to take back"
        if not game.recording:
            return "a game played without its event log cannot take moves back"
        return _revealed_by_last_move(game)

    @property
    def undo_barrier(self) -> str | None:
        """Why the last move of the current turn is a barrier to undo (it showed a hidden
        card), or None when it is not one or there is nothing to take back."""
        game = self.game
        if game is None or game.is_over or not game.recording or self.turn_moves() == 0:
            return None
        return _revealed_by_last_move(game)

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` would take back a move now."""
        return self.undo_refusal is None

    # ----------------------------------------------------------------- changing

    def play(self, move: Move | str) -> Move:
        """Play a move of the current game, checked (the engine's errors if it is refused,
        the match unchanged); returns the move played."""
        game = self.game
        if game is None:
            raise SpiteMaliceError("no game is dealt yet")
        return game.play(move)

    def undo(self) -> Move:
        """Take back the last move of the current turn; returns it.

        A move after which a hidden card was seen (a pay-off build turned up the next card,
        or emptying the hand drew five) is a barrier: it is never taken back, since replaying
        it would show the same card again. :class:`UndoError` says why.
        """
        reason = self.undo_refusal
        if reason is not None:
            raise UndoError(reason)
        game = self.game
        assert game is not None and game.seed is not None and game.first is not None
        taken = game.moves[-1]
        shorter = GameRecord(
            seed=game.seed,
            moves=tuple(str(move) for move in game.moves[:-1]),
            rules=game.rules,
            first=game.first,
        )
        replayed = shorter.replay()  # exact: the deal and the shuffles follow the seed
        replayed.score = game.score
        self.game = replayed
        return taken

    def next_game(self, *, recording: bool = True, seed: int | None = None) -> Game:
        """Deal the next game (the current one must be over) and return it.

        ``seed`` deals it from a given seed (a stored match replaying its games); otherwise
        the match's own derivation or fresh secret randomness chooses.
        """
        if self.game is not None:
            if not self.game.is_over:
                raise SpiteMaliceError("the current game is not over yet")
            if self.is_over:
                raise SpiteMaliceError("the match is over")
            self._base = self.score
            self._earlier.append(GameRecord.from_game(self.game, self.players))
        elif self.is_over:
            raise SpiteMaliceError("the match is over")
        derived = self.next_seed()  # drawn even when ``seed`` is given: the derivation keeps step
        self._pending = None
        if seed is None:
            seed = derived
        self.game = Game.new(seed, self.rules, first=self._first(), recording=recording)
        self.game.score = (self._base[0], self._base[1])
        return self.game

    def next_seed(self) -> int:
        """The seed the next deal will use: chosen once (derived, or secret randomness) and
        kept until that deal, so a store can write it before the deal happens."""
        if self._pending is None:
            seeds = self._seeds
            self._pending = seeds.getrandbits(63) if seeds is not None else secrets.randbits(63)
        return self._pending

    def book(self) -> None:
        """Nothing to do: a finished game counts as soon as it ends (kept for old callers)."""

    def _first(self) -> int | None:
        if not self._earlier or self.rules.first_player == "higher_card":
            return None
        last = self._earlier[-1]
        assert last.first is not None and last.result is not None
        if self.rules.first_player == "loser" and last.result.winner is not None:
            return 1 - last.result.winner
        return 1 - last.first

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """The match as JSON: its seed (None when each game had a secret one), players,
        score and the records of its games (which hold their seeds: keep it private)."""
        data: dict[str, Any] = {
            "format": 1 if self.seed is not None else 2,
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "players": list(self.players),
            "score": list(self.score),
            "games": [record.to_json() for record in self.records],
        }
        if self.game is not None and not self.game.is_over:
            data["current"] = GameRecord.from_game(self.game, self.players).to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Rebuild a match by replaying its games; the score is checked against them."""
        if not isinstance(data, dict):
            raise PositionError(f"a match must be a JSON object, not {str(data)[:60]!r}")
        rules = Rules.from_json(data.get("rules"))
        seed, players = data.get("seed"), data.get("players", ["Player 1", "Player 2"])
        secret = data.get("format") == 2 and seed is None
        if type(seed) is not int and not secret:
            raise PositionError(f"the match seed must be a whole number, not {seed!r}")
        if not isinstance(players, list | tuple) or len(players) != 2:
            raise PositionError("a match has two players")
        if not isinstance(data.get("games", []), list):
            raise PositionError("the match games must be a list of game records")
        match = cls(rules, seed if type(seed) is int else None, (str(players[0]), str(players[1])))
        records = [GameRecord.from_json(game_json) for game_json in data.get("games", [])]
        if "current" in data:
            records.append(GameRecord.from_json(data["current"]))
        for record in records:
            game = match.next_game(seed=record.seed if secret else None)
            if game.seed != record.seed:
                raise PositionError("the match's games do not follow from its seed")
            for move in record.moves:
                game.play(move)
        score = data.get("score", match.score)
        if not isinstance(score, list | tuple) or list(score) != match.score:
            raise PositionError(f"the match score {data['score']} does not follow from its games")
        return match


def _revealed_by_last_move(game: Game) -> str | None:
    """What hidden card the last move showed its player, or None (read from the events
    after the last move's own build or discard event)."""
    mover = game.to_move
    for event in reversed(game.events):
        if isinstance(event, ev.PayoffTurned) and event.player == mover:
            return TURNED_UP
        if isinstance(event, ev.CardsDrawn) and event.player == mover:
            return DREW_FIVE
        if isinstance(event, ev.CardBuilt | ev.CardDiscarded):
            return None
    return None
