"""Where a game was won or lost: each of a seat's turns judged against Expert's best choice.

The analysis reads only what the seat could see (R6.3): every decision is valued on deals of
the hidden cards sampled from its observation, never on the real ones. It is UI-free and
returns plain, JSON-ready data; ``docs/analysis.md`` explains the unit and the settings.
"""

from __future__ import annotations

from .background import AnalysisJob
from .judge import (
    DEFAULT_CANDIDATES,
    DEFAULT_HORIZON,
    DEFAULT_SAMPLES,
    AnalysisCancelled,
    Choice,
    Judgement,
    Settings,
    judge_decision,
)
from .reasons import describe_moves, describe_table, why_better
from .report import (
    UNIT,
    DecisionReport,
    Report,
    TurnReport,
    analyse_decisions,
    analyse_game,
    analyse_record,
)
from .turns import Decision, record_decisions, seat_decisions

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_HORIZON",
    "DEFAULT_SAMPLES",
    "UNIT",
    "AnalysisCancelled",
    "AnalysisJob",
    "Choice",
    "Decision",
    "DecisionReport",
    "Judgement",
    "Report",
    "Settings",
    "TurnReport",
    "analyse_decisions",
    "analyse_game",
    "analyse_record",
    "describe_moves",
    "describe_table",
    "judge_decision",
    "record_decisions",
    "seat_decisions",
    "why_better",
]
