"""Spite & Malice: a correct, fast rules engine, computer opponents, and ways to play.

The engine (``spite_malice.engine``) needs nothing outside the standard library; its main
names are re-exported here.
"""

from __future__ import annotations

from .engine import (
    Card,
    Event,
    Game,
    GameOverError,
    GameRecord,
    IllegalMoveError,
    Match,
    Move,
    NotationError,
    Observation,
    Outcome,
    PositionError,
    RecordError,
    Rules,
    SpiteMaliceError,
    card_str,
    parse_card,
    parse_move,
)

__version__ = "0.1.0"

__all__ = [
    "Card",
    "Event",
    "Game",
    "GameOverError",
    "GameRecord",
    "IllegalMoveError",
    "Match",
    "Move",
    "NotationError",
    "Observation",
    "Outcome",
    "PositionError",
    "RecordError",
    "Rules",
    "SpiteMaliceError",
    "__version__",
    "card_str",
    "parse_card",
    "parse_move",
]
