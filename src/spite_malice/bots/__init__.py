"""Computer players: the bot interface, the four levels, hints, and the reference policy."""

from __future__ import annotations

from .base import Bot, BotError, bot_names, make_bot, register_bot
from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .hints import Hint, hint
from .levels import LEVELS
from .medium import MediumBot
from .reference import ReferenceBot, first_fit, reference_move

__all__ = [
    "LEVELS",
    "Bot",
    "BotError",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "Hint",
    "MediumBot",
    "ReferenceBot",
    "bot_names",
    "first_fit",
    "hint",
    "make_bot",
    "reference_move",
    "register_bot",
]
