"""The screens of the terminal game."""

from __future__ import annotations

from .game import GameScreen
from .game_over import GameOverScreen
from .game_table import TableSettings
from .help import HelpScreen
from .log import LogScreen
from .new_match import NewMatchScreen
from .stats import StatsScreen

__all__ = [
    "GameOverScreen",
    "GameScreen",
    "HelpScreen",
    "LogScreen",
    "NewMatchScreen",
    "StatsScreen",
    "TableSettings",
]
