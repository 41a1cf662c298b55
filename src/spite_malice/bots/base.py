"""The bot interface: what a computer player sees (its seat's observation) and what it does.

A bot never receives the game itself, only an :class:`~spite_malice.engine.Observation`, whose
``legal_moves`` lists the moves it may make (R6.3). It returns one move per call; a bot that
plans a whole turn at once keeps the plan and hands it out move by move.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..engine.moves import Move
from ..engine.observation import Observation


class BotError(Exception):
    """A bot failed to give a legal move (garbage, an illegal move, a time-out, a crash).

    Tournaments count the game as lost by that bot and report ``reason``.
    """

    def __init__(self, bot: str, reason: str) -> None:
        self.bot = bot
        self.reason = reason
        super().__init__(f"bot {bot!r} failed: {reason}")


class Bot(ABC):
    """A computer player. Subclass it and implement :meth:`choose`."""

    name: str = "bot"
    """The name shown to players."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, observation: Observation) -> Move:
        """The move to make, one of ``observation.legal_moves`` (it is this bot's turn)."""

    def new_game(self, seat: int) -> None:  # noqa: B027 - an optional hook
        """Called before each game with the bot's seat; forget any per-game memory here."""

    def close(self) -> None:  # noqa: B027 - an optional hook
        """Release what the bot holds (a process, a file); called when it is done."""
