"""Tournaments between bots: paired games, statistics, Elo ratings and reports."""

from __future__ import annotations

from .games import GameResult, play_game, play_pair
from .ladder import LadderResult, run_ladder
from .ratings import fit_elo
from .sprt import EloEstimate, Sprt, estimate_elo
from .stats import Summary, percentile, summarize, wilson_interval
from .tournament import SprtState, run_arena, run_sprt

__all__ = [
    "EloEstimate",
    "GameResult",
    "LadderResult",
    "Sprt",
    "SprtState",
    "Summary",
    "estimate_elo",
    "fit_elo",
    "percentile",
    "play_game",
    "play_pair",
    "run_arena",
    "run_ladder",
    "run_sprt",
    "summarize",
    "wilson_interval",
]
