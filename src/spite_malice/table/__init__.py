"""The table: one match between two seats, free of any screen or network code.

Both front ends (the web rooms and the terminal screen) play through a :class:`Table`: it
checks requests, plays the computer's turns (with the one fallback for a failing bot), gives
hints, takes moves back (never past a card that was turned up), resigns, deals the next
game and says what each finished game counts for. Every change is a :class:`Step`, the
unit the store's move log keeps: a front end asks the table for a step, stores it, then
applies it, so the table is always at the last stored state.
"""

from __future__ import annotations

from ..match_records.meta import TableMeta
from .computer import Suggestion, choose, new_computer, suggest
from .errors import TableError
from .levels import default_level, is_level, level_label, level_name, levels
from .seats import COMPUTER, FRIEND, PERSON, Seat
from .steps import ABORT, CLAIM, DEAL, HINT, MOVE, RESIGN, UNDO, Applied, Step
from .table import Savepoint, Table

__all__ = [
    "ABORT",
    "CLAIM",
    "COMPUTER",
    "DEAL",
    "FRIEND",
    "HINT",
    "MOVE",
    "PERSON",
    "RESIGN",
    "UNDO",
    "Applied",
    "Savepoint",
    "Seat",
    "Step",
    "Suggestion",
    "Table",
    "TableError",
    "TableMeta",
    "choose",
    "default_level",
    "is_level",
    "level_label",
    "level_name",
    "levels",
    "new_computer",
    "suggest",
]
