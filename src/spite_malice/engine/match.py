"""Matches: games dealt afresh until a player reaches the target score (R5.1)."""

from __future__ import annotations

import random
import secrets
from typing import Any

from .errors import PositionError, SpiteMaliceError
from .game import Game
from .record import GameRecord
from .rules import Rules


class Match:
    """A match to ``rules.match_target`` points between two named players.

    Call :meth:`next_game` for each game; a finished game's points are booked as soon as
    the score, :attr:`is_over` or the next game is asked for (or by :meth:`book`).
    Who starts each game follows R1.4's option:
    the higher pay-off top; or the first game by the higher top and then in turn
    (``alternate``); or the first by the higher top and then the last game's loser
    (``loser``; after a draw the other player than last time starts).
    """

    def __init__(
        self,
        rules: Rules = Rules.STANDARD,
        seed: int | None = None,
        players: tuple[str, str] = ("Player 1", "Player 2"),
    ) -> None:
        self.rules = rules
        self.seed = secrets.randbits(63) if seed is None else seed
        self.players = players
        self._score = [0, 0]
        self.records: list[GameRecord] = []
        self.game: Game | None = None
        self._seeds = random.Random(self.seed)
        self._booked = False

    @property
    def score(self) -> list[int]:
        """Both players' points, the current game's included once it is over."""
        self.book()
        return self._score

    @property
    def is_over(self) -> bool:
        """Whether a player has reached the target (a just-finished game counts)."""
        return max(self.score) >= self.rules.match_target

    @property
    def winner(self) -> int | None:
        """The player who reached the target, or None while the match goes on."""
        if not self.is_over:
            return None
        return 0 if self.score[0] > self.score[1] else 1

    def next_game(self, *, recording: bool = True) -> Game:
        """Book the finished current game, then deal the next one."""
        if self.game is not None and not self.game.is_over:
            raise SpiteMaliceError("the current game is not over yet")
        self.book()
        if self.is_over:
            raise SpiteMaliceError("the match is over")
        self.game = Game.new(
            self._seeds.getrandbits(63), self.rules, first=self._first(), recording=recording
        )
        self._booked = False
        self.game.score = (self._score[0], self._score[1])
        return self.game

    def book(self) -> None:
        """Add the finished current game's points to the score (once)."""
        game = self.game
        if game is None or not game.is_over or self._booked:
            return
        self._booked = True
        assert game.outcome is not None
        self.records.append(GameRecord.from_game(game, self.players))
        if game.outcome.winner is not None:
            self._score[game.outcome.winner] += game.outcome.points

    def _first(self) -> int | None:
        if not self.records or self.rules.first_player == "higher_card":
            return None
        last = self.records[-1]
        assert last.first is not None and last.result is not None
        if self.rules.first_player == "loser" and last.result.winner is not None:
            return 1 - last.result.winner
        return 1 - last.first

    def to_json(self) -> dict[str, Any]:
        """The match as JSON: its seed, players, score and the records of its games."""
        self.book()
        data: dict[str, Any] = {
            "format": 1,
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
        if type(seed) is not int:
            raise PositionError(f"the match seed must be a whole number, not {seed!r}")
        if not isinstance(players, list | tuple) or len(players) != 2:
            raise PositionError("a match has two players")
        if not isinstance(data.get("games", []), list):
            raise PositionError("the match games must be a list of game records")
        match = cls(rules, seed, (str(players[0]), str(players[1])))
        for game_json in data.get("games", []):
            record = GameRecord.from_json(game_json)
            game = match.next_game()
            if game.seed != record.seed:
                raise PositionError("the match's games do not follow from its seed")
            for move in record.moves:
                game.play(move)
            match.book()
        if "current" in data:
            record = GameRecord.from_json(data["current"])
            game = match.next_game()
            for move in record.moves:
                game.play(move)
        score = data.get("score", match.score)
        if not isinstance(score, list | tuple) or list(score) != match.score:
            raise PositionError(f"the match score {data['score']} does not follow from its games")
        return match
