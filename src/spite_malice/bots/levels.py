"""The four levels players choose from, registered by name for :func:`~.base.make_bot`."""

from __future__ import annotations

from .base import Bot, register_bot, register_bot_option
from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .medium import MediumBot

LEVELS = ("easy", "medium", "hard", "expert")
"""The levels, weakest first; ``make_bot(level)`` builds one (Expert thinks 1 s a turn)."""


def _expert(seed: int | None) -> Bot:
    return ExpertBot(seed)


def _expert_budget(seed: int | None, option: str) -> Bot:
    try:
        budget = float(option)
    except ValueError:
        raise ValueError(
            f"expert:{option}: the option is Expert's seconds a turn, such as expert:0.25"
        ) from None
    return ExpertBot(seed, budget)


def level_label(name: str) -> str:
    """How a level's name is shown: ``Hard``, or ``Expert 0.25s`` for ``expert:0.25``."""
    base, colon, option = name.partition(":")
    if base.lower() in LEVELS:
        return base.capitalize() + (f" {option}s" if colon else "")
    return name


register_bot("easy", EasyBot)
register_bot("medium", MediumBot)
register_bot("hard", HardBot)
register_bot("expert", _expert)
register_bot_option("expert", _expert_budget)
