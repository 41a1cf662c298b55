"""The four levels players choose from, registered by name for :func:`~.base.make_bot`."""

from __future__ import annotations

from .base import Bot, register_bot
from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .medium import MediumBot

LEVELS = ("easy", "medium", "hard", "expert")
"""The levels, weakest first; ``make_bot(level)`` builds one (Expert thinks 1 s a turn)."""


def _expert(seed: int | None) -> Bot:
    return ExpertBot(seed)


register_bot("easy", EasyBot)
register_bot("medium", MediumBot)
register_bot("hard", HardBot)
register_bot("expert", _expert)
