"""Computer players: the bot interface, the four levels, hints, and the reference policy.

Bots by name (``make_bot("hard")``, or an outside program) come from
:mod:`spite_malice.bot_registry`, which knows these and the text protocol's programs.
"""

from __future__ import annotations

from .base import Bot, BotError
from .easy import EasyBot
from .expert import ExpertBot
from .hints import Hint, hint
from .levels import LEVELS
from .planning_bot import HARD, MEDIUM, PlanningBot, PlanningSetting
from .reference import ReferenceBot, first_fit, reference_move

__all__ = [
    "HARD",
    "LEVELS",
    "MEDIUM",
    "Bot",
    "BotError",
    "EasyBot",
    "ExpertBot",
    "Hint",
    "PlanningBot",
    "PlanningSetting",
    "ReferenceBot",
    "first_fit",
    "hint",
    "reference_move",
]
