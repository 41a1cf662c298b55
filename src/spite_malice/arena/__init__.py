"""Tournaments between bots: paired games, statistics, Elo ratings and reports."""

from __future__ import annotations

from .games import GameResult, play_game, play_pair
from .ladder import LadderResult, run_ladder
from .ratings import fit_elo
from .stats import Summary, percentile, summarize, wilson_interval
from .tournament import run_arena

__all__ = [
    "GameResult",
    "LadderResult",
    "Summary",
    "fit_elo",
    "percentile",
    "play_game",
    "play_pair",
    "run_arena",
    "run_ladder",
    "summarize",
    "wilson_interval",
]
