"""The bot interface: what a computer player sees (its seat's observation) and what it does.

A bot never receives the game itself, only an :class:`~spite_malice.engine.Observation`, whose
``legal_moves`` lists the moves it may make (R6.3). It returns one move per call; a bot that
plans a whole turn at once keeps the plan and hands it out move by move.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable

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


BotFactory = Callable[[int | None], Bot]
OptionFactory = Callable[[int | None, str], Bot]
_REGISTRY: dict[str, BotFactory] = {}
_OPTION_REGISTRY: dict[str, OptionFactory] = {}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make ``make_bot(name)`` build a bot with ``factory(seed)``."""
    _REGISTRY[name.lower()] = factory


def register_bot_option(name: str, factory: OptionFactory) -> None:
    """Make ``make_bot("name:OPTION")`` build a bot with ``factory(seed, "OPTION")``, for
    settings such as Expert's thinking time (``expert:0.25``)."""
    _OPTION_REGISTRY[name.lower()] = factory


def bot_names() -> list[str]:
    """The names :func:`make_bot` knows, in registration order."""
    return list(_REGISTRY)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``easy``, ``medium``, ``hard``, ``expert``, ``reference``, ...), a name
    with an option (``expert:0.25``: Expert thinking 0.25 s a turn), or an outside program
    speaking the text protocol when ``name`` is a path (``./mybot``)."""
    factory = _REGISTRY.get(name.lower())
    if factory is not None:
        return factory(seed)
    base, colon, option = name.partition(":")
    with_option = _OPTION_REGISTRY.get(base.lower()) if colon else None
    if with_option is not None:
        return with_option(seed, option)
    if "/" in name or name.startswith("."):
        from ..protocol.external import ExternalBot

        return ExternalBot(name, seed=seed)
    known = ", ".join(_REGISTRY) or "none"
    raise ValueError(f"unknown bot {name!r}; known bots: {known}, or a path to a program")
