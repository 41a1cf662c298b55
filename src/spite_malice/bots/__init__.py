"""Computer players: the bot interface, the levels, and the reference policy."""

from __future__ import annotations

from .base import Bot, BotError, bot_names, make_bot, register_bot
from .reference import ReferenceBot, first_fit, reference_move

__all__ = [
    "Bot",
    "BotError",
    "ReferenceBot",
    "bot_names",
    "first_fit",
    "make_bot",
    "reference_move",
    "register_bot",
]
