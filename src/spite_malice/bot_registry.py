"""Bots by name: the one table of the names :func:`make_bot` knows.

It sits above both the bots (:mod:`.bots`) and the bot text protocol (:mod:`.bot_protocol`), so
that neither imports the other to make a bot from a name: the bots know nothing of outside
programs, and the protocol's :class:`~.bot_protocol.external.ExternalBot` is one more kind of
:class:`~.bots.Bot`.
"""

from __future__ import annotations

from collections.abc import Callable

from .bot_protocol.external import ExternalBot
from .bots.base import Bot
from .bots.baselines import Expert1Bot, Hard1Bot
from .bots.easy import EasyBot
from .bots.levels import expert, expert_1_with_option, expert_with_option
from .bots.one_turn import blocker_1, nonblocker_1
from .bots.planning_bot import hard_bot, medium_bot
from .bots.reference import ReferenceBot

BotFactory = Callable[[int | None], Bot]
OptionFactory = Callable[[int | None, str], Bot]

_REGISTRY: dict[str, BotFactory] = {
    "reference": ReferenceBot,
    "easy": EasyBot,
    "medium": medium_bot,
    "hard": hard_bot,
    "expert": expert,
    "hard-1": Hard1Bot,
    "expert-1": Expert1Bot,
    "blocker-1": blocker_1,
    "nonblocker-1": nonblocker_1,
}
_OPTION_REGISTRY: dict[str, OptionFactory] = {
    "expert": expert_with_option,
    "expert-1": expert_1_with_option,
}


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
        return ExternalBot(name, seed=seed)
    known = ", ".join(_REGISTRY) or "none"
    raise ValueError(f"unknown bot {name!r}; known bots: {known}, or a path to a program")


__all__ = ["bot_names", "make_bot", "register_bot", "register_bot_option"]
