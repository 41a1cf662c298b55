"""Game records: the seed, the rules and the moves of a dealt game, which replay it exactly."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .errors import ArgumentError, NotationError, RecordError, SeedError, SpiteMaliceError, quote
from .game import Game
from .jsontext import load_json
from .rules import Rules
from .seeds import check_seed
from .state import Outcome, OutcomeReason

FORMAT = 1


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as ``notation.md`` records it: ``{"format": 1, "rules", "seed", "players",
    "moves"}`` plus ``first`` (who started) and ``result``."""

    seed: int
    moves: tuple[str, ...]
    rules: Rules = Rules.STANDARD
    players: tuple[str, str] = ("Player 1", "Player 2")
    first: int | None = None
    result: Outcome | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def from_game(
        cls, game: Game, players: tuple[str, str] = ("Player 1", "Player 2")
    ) -> GameRecord:
        """The record of a dealt game (one made by :meth:`Game.new`)."""
        if game.seed is None or game.first is None:
            raise ArgumentError("only a dealt game (Game.new) can be recorded: it needs its seed")
        return cls(
            seed=game.seed,
            moves=tuple(str(m) for m in game.moves),
            rules=game.rules,
            players=players,
            first=game.first,
            result=game.outcome,
        )

    def replay(self, *, recording: bool = True) -> Game:
        """Deal the game from its seed and play every move, checking each one and the result."""
        game = Game.new(self.seed, self.rules, first=self.first, recording=recording)
        for number, move in enumerate(self.moves, start=1):
            try:
                game.play(move)
            except SpiteMaliceError as error:
                reason = f"move {number} ({quote(move)}) fails: {error}"
                raise RecordError(reason) from None
        if self.result is not None and game.outcome != self.result:
            raise RecordError(
                f"it says {self.result.to_json()} but its moves give "
                f"{game.outcome.to_json() if game.outcome else 'an unfinished game'}"
            )
        return game

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "players": list(self.players),
            "moves": list(self.moves),
        }
        if self.first is not None:
            data["first"] = self.first
        data["result"] = None if self.result is None else self.result.to_json()
        data.update(self.extra)
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> GameRecord:
        """Read a record (JSON text or its object); refuse a malformed one, saying why."""
        if isinstance(data, str):
            data = load_json(data, "game record")
        if not isinstance(data, dict):
            raise NotationError("record", data, "expected a JSON object")
        odd = [key for key in data if type(key) is not str]
        if odd:
            raise RecordError(f"it has a key that is not a string: {quote(odd[0])}")
        version = data.get("format")
        if "format" not in data:
            raise RecordError(f'it has no "format" (a game record has "format": {FORMAT})')
        if type(version) is not int or version != FORMAT:  # true and 1.0 are not 1
            raise RecordError(f"format must be {FORMAT}, not {quote(version)}")
        try:
            seed = check_seed(data.get("seed"), "seed")
        except SeedError as error:
            raise RecordError(str(error)) from None
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("moves must be a list of move strings")
        players = data.get("players", ["Player 1", "Player 2"])
        if (
            not isinstance(players, list)
            or len(players) != 2
            or not all(isinstance(p, str) for p in players)
        ):
            raise RecordError("players must be a list of two names")
        first = data.get("first")
        if first is not None and (type(first) is not int or first not in (0, 1)):
            raise RecordError(f"first must be 0 or 1, not {quote(first)}")
        known = {"format", "rules", "seed", "moves", "players", "first", "result"}
        return cls(
            seed=seed,
            moves=tuple(moves),
            rules=Rules.from_json(data.get("rules")),
            players=(players[0], players[1]),
            first=first,
            result=_outcome(data.get("result")),
            extra={k: v for k, v in data.items() if k not in known},
        )


def _outcome(data: object) -> Outcome | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise RecordError("result must be an object with winner, points and reason")
    winner, points, reason = data.get("winner"), data.get("points"), data.get("reason")
    if (
        not (winner is None or (type(winner) is int and winner in (0, 1)))  # false is not 0
        or type(points) is not int
        or points < 0
        or not isinstance(reason, str)
    ):
        raise RecordError(f"result is malformed: {quote(data)}")
    known = {reason.value: reason for reason in OutcomeReason}
    return Outcome(winner, points, known.get(reason, reason))
